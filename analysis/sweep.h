/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_SWEEP_H
#define PB_SWEEP_H

#include "device.h"
#include "model.h"

int sweep_in(const struct cell *c);
unsigned int sweep_points(const struct run *run, const char *cond, int *pts);
int sweep_first_of(const struct run *run, unsigned int i, int series);
const struct cell *sweep_at(const struct run *run, const struct cell *c,
			    int us);

#endif
