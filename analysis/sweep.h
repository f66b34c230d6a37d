/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_SWEEP_H
#define PB_SWEEP_H

#include <stdio.h>

#include "model.h"
#include "plot.h"

int sweep_us(const char *device);
void sweep_report(FILE *f, const struct run *run);
int sweep_plots(const struct run *run, struct plot_sink *s);

#endif
