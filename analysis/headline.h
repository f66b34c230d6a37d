/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_HEADLINE_H
#define PB_HEADLINE_H

#include <stdio.h>

#include "model.h"

void headline_report(FILE *f, const struct run *run);

#endif
