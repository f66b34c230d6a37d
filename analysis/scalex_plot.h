/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_SCALEX_PLOT_H
#define PB_SCALEX_PLOT_H

#include "plot.h"
#include "scalex.h"

int scalex_plots(const struct xs_set *x, struct plot_sink *s);

#endif
