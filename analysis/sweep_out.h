/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_SWEEP_OUT_H
#define PB_SWEEP_OUT_H

#include <stdio.h>

#include "plot.h"
#include "sweep.h"

void sweep_report(FILE *f, const struct run *run);
int sweep_plots(const struct run *run, struct plot_sink *s);

#endif
