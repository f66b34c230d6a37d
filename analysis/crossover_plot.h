/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_CROSSOVER_PLOT_H
#define PB_CROSSOVER_PLOT_H

#include "crossover.h"
#include "plot.h"

int crossover_plots(const struct run *run, struct plot_sink *s);

#endif
