// SPDX-License-Identifier: GPL-2.0
/* Every plot of a run: the per-cell ones, then the run-level ones. */
#include "breakdown_plot.h"
#include "crossover_plot.h"
#include "fair_out.h"
#include "plots.h"
#include "scale_plot.h"
#include "sweep_out.h"

int write_plots(const struct run *run, const struct opts *o, const char *dir)
{
	struct plot_sink s;
	int failed;

	if (plot_open(&s, run, dir))
		return -1;
	failed = plot_cells(&s, run) || fair_plots(run, o, &s) ||
		 sweep_plots(run, &s) || crossover_plots(run, &s) ||
		 breakdown_plots(run, &s) || scale_plots(run, &s);
	return plot_close(&s, failed);
}
