/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_CROSSOVER_OUT_H
#define PB_CROSSOVER_OUT_H

#include <stdio.h>

#include <jansson.h>

#include "crossover.h"

void crossover_report(FILE *f, const struct run *run);
json_t *crossover_json(const struct run *run);

#endif
