// SPDX-License-Identifier: GPL-2.0
/* The crossover plots: overhead, CPU and cyclictest against N (log x). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "crossover_plot.h"

/* Plots: one index block per design, x = N (log). */
struct xo_plot {
	const struct run *run;
	const char *cond;
	const char *what;	/* "overhead", "cpu", "cyclictest" */
	int *pts;
	unsigned int n;
};

static int xo_y(const struct xo_plot *p, const struct cell *c, int us,
		double *y1, double *y2)
{
	struct xo_point x;

	if (!strcmp(p->what, "overhead")) {
		xo_point(p->run, c, us, &x);
		*y1 = x.ovh50 / 1000;
		*y2 = x.ovh99 / 1000;
	} else if (!strcmp(p->what, "cpu")) {
		*y1 = *y2 = xo_val(c, "cpu_per_io_ns") / 1000;
	} else {
		*y1 = *y2 = xo_val(c, "cyclictest_p99_us");
	}
	return !isnan(*y1);
}

static int xo_data(const void *arg, FILE *dat)
{
	const struct xo_plot *p = arg;
	const struct run *run = p->run;
	unsigned int i, k;
	double y1, y2;

	for (i = 0; i < run->nr_cells; i++) {
		const struct cell *d = run->cells[i];

		if (!xo_in(d) || strcmp(d->condition, p->cond) ||
		    !xo_first_of(run, i, 1))
			continue;
		fprintf(dat, "# %s/%s: device_us %s\n", d->variant, d->workload,
			p->what);
		for (k = 0; k < p->n; k++) {
			const struct cell *c = xo_cell(run, d->variant,
						       d->workload, p->cond,
						       p->pts[k]);

			if (c && xo_y(p, c, p->pts[k], &y1, &y2))
				fprintf(dat, "%d %.17g %.17g\n", p->pts[k], y1,
					y2);
		}
		fprintf(dat, "\n\n");
	}
	return 0;
}

static void xo_script(const void *arg, FILE *gp, const char *dat)
{
	const struct xo_plot *p = arg;
	const struct run *run = p->run;
	int ovh = !strcmp(p->what, "overhead");
	unsigned int i, idx = 0;

	if (ovh)
		fprintf(gp, "set title \"crossover (%s): software overhead, %s p50 solid, p99 dashed\\n\" . timing_model noenhanced\nset ylabel \"%s - device latency (us)\"\n",
			p->cond, run->has_tlat ? "lat" : "clat",
			run->has_tlat ? "lat" : "clat");
	else if (!strcmp(p->what, "cpu"))
		fprintf(gp, "set title \"crossover (%s): CPU per I/O (fio's vCPU + idle-loop polling)\\n\" . timing_model noenhanced\nset ylabel \"CPU per I/O (us)\"\n",
			p->cond);
	else
		fprintf(gp, "set title \"crossover (%s): cyclictest p99\\n\" . timing_model noenhanced\nset ylabel \"cyclictest p99 (us)\"\n",
			p->cond);
	/* One entry per design and percentile: below the plot, not over it. */
	fprintf(gp, "set xlabel \"device latency N (us)\"\nset logscale x\nset grid\nset key below noenhanced\n");
	if (p->n == 1)
		fprintf(gp, "set xrange [%g:%g]\n", p->pts[0] / 2.0,
			p->pts[0] * 2.0);
	else
		fprintf(gp, "set xrange [%g:%g]\n", p->pts[0] / 1.3,
			p->pts[p->n - 1] * 1.3);
	fprintf(gp, "plot ");
	for (i = 0; i < run->nr_cells; i++) {
		const struct cell *d = run->cells[i];

		if (!xo_in(d) || strcmp(d->condition, p->cond) ||
		    !xo_first_of(run, i, 1))
			continue;
		fprintf(gp, "%s\"%s\" index %u using 1:2 with linespoints lc %u pt 7 title \"%s/%s%s\"",
			idx ? ", " : "", dat, idx, idx + 1, d->variant,
			d->workload, ovh ? " p50" : "");
		if (ovh)
			fprintf(gp, ", \"%s\" index %u using 1:3 with linespoints lc %u dt 2 pt 6 title \"%s/%s p99\"",
				dat, idx, idx + 1, d->variant, d->workload);
		idx++;
	}
	fputc('\n', gp);
}

/* Some design of cond has a value of what on some N. */
static int xo_any(const struct xo_plot *p)
{
	unsigned int i;
	double y1, y2;

	for (i = 0; i < p->run->nr_cells; i++) {
		const struct cell *c = p->run->cells[i];

		if (xo_in(c) && !strcmp(c->condition, p->cond) &&
		    xo_y(p, c, nullb_us(c->device), &y1, &y2))
			return 1;
	}
	return 0;
}

int crossover_plots(const struct run *run, struct plot_sink *s)
{
	int *pts = calloc(run->nr_cells + 1, sizeof(*pts));
	unsigned int i;
	int r = 0;

	if (!pts)
		return -1;
	for (i = 0; !r && i < run->nr_cells; i++) {
		const struct cell *c = run->cells[i];
		struct xo_plot p = { run, c->condition, "overhead", pts, 0 };
		char file[300], safe[256];

		if (!xo_in(c) || !xo_first_of(run, i, 0))
			continue;
		p.n = xo_devices(run, pts);
		plot_safe_name(safe, sizeof(safe), c->condition);
		snprintf(file, sizeof(file), "crossover-overhead@%s", safe);
		r = plot_emit(s, file, xo_data, xo_script, &p);
		p.what = "cpu";
		if (!r && !strcmp(c->condition, "alone") && xo_any(&p))
			r = plot_emit(s, "crossover-cpu@alone", xo_data,
				      xo_script, &p);
		p.what = "cyclictest";
		if (!r && !strcmp(c->condition, "cyclictest") && xo_any(&p))
			r = plot_emit(s, "crossover-cyclictest", xo_data,
				      xo_script, &p);
	}
	free(pts);
	return r;
}
