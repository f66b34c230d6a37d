/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_PRECISION_OUT_H
#define PB_PRECISION_OUT_H

#include <stdio.h>

#include <jansson.h>

#include "precision.h"

void precision_report(FILE *f, const struct run *run);
json_t *precision_json(const struct run *run);

#endif
