/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_PLOT_H
#define PB_PLOT_H

#include <stdio.h>

#include "model.h"

/* 1: plots written; 0: skipped (gnuplot missing); -1: error. */
int write_plots(const struct run *run, const struct opts *o,
		const char *dir);

/*
 * Run-level plots (fair.c, sweep.c): plot_emit() writes <dir>/<file>.dat
 * with data() and adds script() to plots.gp for PNG and SVG. Titles end
 * in "\\n" . timing_model, a gnuplot variable plot_emit() sets.
 */
struct plot_sink {
	const char *dir;
	FILE *gp;
	const char *timing;	/* the run's timing model, in every title */
};

typedef int (*plot_data_fn)(const void *arg, FILE *dat);
typedef void (*plot_script_fn)(const void *arg, FILE *gp, const char *dat);

int plot_emit(struct plot_sink *s, const char *file, plot_data_fn data,
	      plot_script_fn script, const void *arg);
void plot_safe_name(char *dst, size_t len, const char *src);

#endif
