/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_PLOT_H
#define PB_PLOT_H

#include "model.h"

/* 1: plots written; 0: skipped (gnuplot missing); -1: error. */
int write_plots(const struct run *run, const char *dir);

#endif
