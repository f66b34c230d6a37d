// SPDX-License-Identifier: GPL-2.0
/* The device-latency sweep rendered: report.md table and plots. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "sweep_out.h"

void sweep_report(FILE *f, const struct run *run)
{
	int p50 = run_lat_mi(run, "p50"), p99 = run_lat_mi(run, "p99");
	int *pts = calloc(run->nr_cells + 1, sizeof(*pts));
	char a[64], b[64];
	unsigned int i, j, k, n, any = 0;

	for (i = 0; pts && i < run->nr_cells; i++) {
		const struct cell *c = run->cells[i];

		if (!sweep_in(c) || !sweep_first_of(run, i, 0))
			continue;
		if (!any++)
			fprintf(f, "## Device-latency sweep — %s%s\n\nCells "
				   "`<workload>@<condition>@nullb-<N>us` (null_blk with a poll queue, "
				   "requests complete N us after submission; the emulated NVMe disk is "
				   "left out): %s p50 / p99 in ns (each the median over boots of that "
				   "boot's own percentile) against N. Where the polling variants' "
				   "curves meet the others', polling stops paying. Plots: "
				   "`plots/device-sweep@<condition>`.\n\nA cell whose smallest latency "
				   "is below its device latency N did not delay its completions (an "
				   "unpatched null_blk completes polled requests at the first poll): it "
				   "is listed under Invalid cells and left out here.\n\n",
				run->timing_label, run_lat_note(run),
				run->has_tlat ? "lat" : "clat");
		n = sweep_points(run, c->condition, pts);
		fprintf(f, "### %s — %s\n\n| variant | workload |",
			c->condition, run->timing_label);
		for (k = 0; k < n; k++)
			fprintf(f, " %d us: p50 / p99 |", pts[k]);
		fprintf(f, "\n|---|---|");
		for (k = 0; k < n; k++)
			fprintf(f, "---:|");
		fputc('\n', f);
		for (j = i; j < run->nr_cells; j++) {
			const struct cell *s = run->cells[j];

			if (!sweep_in(s) || strcmp(s->condition, c->condition) ||
			    !sweep_first_of(run, j, 1))
				continue;
			fprintf(f, "| %s | %s |", s->variant, s->workload);
			for (k = 0; k < n; k++) {
				const struct cell *x = sweep_at(run, s, pts[k]);

				if (!x)
					fprintf(f, " - |");
				else
					fprintf(f, " %s / %s |",
						fmt_val(a, sizeof(a), x->agg[p50].value),
						fmt_val(b, sizeof(b), x->agg[p99].value));
			}
			fputc('\n', f);
		}
		fputc('\n', f);
	}
	free(pts);
}

struct sweep_plot {
	const struct run *run;
	const char *cond;
	int *pts;
	unsigned int n;
};

/* One index block per variant/workload: N p50_us p99_us. */
static int sweep_data(const void *arg, FILE *dat)
{
	const struct sweep_plot *p = arg;
	const struct run *run = p->run;
	int p50 = run_lat_mi(run, "p50"), p99 = run_lat_mi(run, "p99");
	unsigned int i, k;

	for (i = 0; i < run->nr_cells; i++) {
		const struct cell *s = run->cells[i];

		if (!sweep_in(s) || strcmp(s->condition, p->cond) ||
		    !sweep_first_of(run, i, 1))
			continue;
		fprintf(dat, "# %s/%s: device_us %s_p50_us %s_p99_us\n",
			s->variant, s->workload, run->has_tlat ? "lat" : "clat",
			run->has_tlat ? "lat" : "clat");
		for (k = 0; k < p->n; k++) {
			const struct cell *x = sweep_at(run, s, p->pts[k]);

			if (x)
				fprintf(dat, "%d %.17g %.17g\n", p->pts[k],
					x->agg[p50].value / 1000,
					x->agg[p99].value / 1000);
		}
		fprintf(dat, "\n\n");
	}
	return 0;
}

static void sweep_script(const void *arg, FILE *gp, const char *dat)
{
	const struct sweep_plot *p = arg;
	const struct run *run = p->run;
	unsigned int i, idx = 0;

	fprintf(gp, "set title \"device-latency sweep (%s): p50 solid, p99 dashed\\n\" . timing_model noenhanced\n",
		p->cond);
	fprintf(gp, "set xlabel \"null_blk completion delay (us)\"\nset ylabel \"%s (us)\"\nset logscale y\nset grid\nset key top left noenhanced\nset offsets graph 0.05, graph 0.05, 0, 0\n",
		run->has_tlat ? "lat" : "clat");
	if (p->n == 1)	/* one point: gnuplot cannot autoscale x */
		fprintf(gp, "set xrange [%d:%d]\n", p->pts[0] / 2 - 1,
			p->pts[0] * 3 / 2 + 1);
	fprintf(gp, "plot ");
	for (i = 0; i < run->nr_cells; i++) {
		const struct cell *s = run->cells[i];

		if (!sweep_in(s) || strcmp(s->condition, p->cond) ||
		    !sweep_first_of(run, i, 1))
			continue;
		fprintf(gp, "%s\"%s\" index %u using 1:2 with linespoints lc %u pt 7 title \"%s/%s p50\", \"%s\" index %u using 1:3 with linespoints lc %u dt 2 pt 6 title \"%s/%s p99\"",
			idx ? ", " : "", dat, idx, idx + 1, s->variant,
			s->workload, dat, idx, idx + 1, s->variant,
			s->workload);
		idx++;
	}
	fputc('\n', gp);
}

int sweep_plots(const struct run *run, struct plot_sink *s)
{
	int *pts = calloc(run->nr_cells + 1, sizeof(*pts));
	unsigned int i;
	int r = 0;

	if (!pts)
		return -1;
	for (i = 0; !r && i < run->nr_cells; i++) {
		const struct cell *c = run->cells[i];
		struct sweep_plot p = { run, c->condition, pts, 0 };
		char file[300], safe[256];

		if (!sweep_in(c) || !sweep_first_of(run, i, 0))
			continue;
		p.n = sweep_points(run, c->condition, pts);
		plot_safe_name(safe, sizeof(safe), c->condition);
		snprintf(file, sizeof(file), "device-sweep@%s", safe);
		r = plot_emit(s, file, sweep_data, sweep_script, &p);
	}
	free(pts);
	return r;
}
