/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_PLOTS_H
#define PB_PLOTS_H

#include "model.h"

/* 1: plots written; 0: skipped (gnuplot missing); -1: error. */
int write_plots(const struct run *run, const struct opts *o,
		const char *dir);

#endif
