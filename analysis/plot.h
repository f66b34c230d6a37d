/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_PLOT_H
#define PB_PLOT_H

#include <stdio.h>

#include "model.h"

/*
 * plot_open() starts plots/plots.gp, plot_cells() adds the per-cell
 * plots, plot_close() runs gnuplot. Run-level plots (fair_out.c,
 * sweep_out.c, crossover_plot.c): plot_emit() writes <dir>/<file>.dat
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
int plot_open(struct plot_sink *s, const struct run *run, const char *dir);
int plot_open_label(struct plot_sink *s, const char *timing, const char *dir);
int plot_cells(struct plot_sink *s, const struct run *run);
int plot_close(struct plot_sink *s, int failed);

#endif
