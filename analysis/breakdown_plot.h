/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_BREAKDOWN_PLOT_H
#define PB_BREAKDOWN_PLOT_H

#include "breakdown.h"
#include "plot.h"

int breakdown_plots(const struct run *run, struct plot_sink *s);

#endif
