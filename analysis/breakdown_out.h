/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_BREAKDOWN_OUT_H
#define PB_BREAKDOWN_OUT_H

#include <stdio.h>

#include <jansson.h>

#include "breakdown.h"

void breakdown_report(FILE *f, const struct run *run);
json_t *breakdown_json(const struct run *run);

#endif
