// SPDX-License-Identifier: GPL-2.0
/*
 * The path breakdown's plots, breakdown@<condition>: one bar per design
 * and device, stacked by step means (us per I/O). Means add up (a boot's
 * step means sum to its mean system call); medians would not.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "breakdown_plot.h"

struct bd_plot {
	const struct run *run;
	const char *cond;
	const struct cell **rows;
	unsigned int n;
};

static int bd_data(const void *arg, FILE *dat)
{
	const struct bd_plot *p = arg;
	struct bd_cell b;
	unsigned int i, k;
	char name[256];

	fprintf(dat, "# design@device");
	for (k = 0; k < TS_NR; k++)
		fprintf(dat, " %s_mean_us", trace_step_names[k]);
	fprintf(dat, " user_us edge_us\n");
	for (i = 0; i < p->n; i++) {
		bd_cell(p->run, p->rows[i], &b);
		if (b.status != BD_OK)
			continue;
		bd_row_name(p->run, &b, name, sizeof(name));
		fprintf(dat, "\"%s %s\"", name,
			*b.c->device ? b.c->device : "nvme");
		/* No set device latency (nvme): find holds the device's. */
		for (k = 0; k < TS_NR; k++)
			fprintf(dat, " %.17g",
				isnan(b.mean[k]) ? 0 : b.mean[k] / 1000);
		/* Outside the tracepoints; 0 where not measured. */
		fprintf(dat, " %.17g %.17g\n",
			isnan(b.user) ? 0 : b.user / 1000,
			isnan(b.edge) ? 0 : b.edge / 1000);
	}
	return 0;
}

static void bd_script(const void *arg, FILE *gp, const char *dat)
{
	const struct bd_plot *p = arg;
	unsigned int k;

	fprintf(gp, "set title \"where the microseconds go (%s): each step's mean per I/O, stacked\\n(means add up, with user and edge, to fio's mean; each the median over boots)\\n\" . timing_model noenhanced\n",
		p->cond);
	fprintf(gp, "set ylabel \"us per I/O\"\nset style data histograms\nset style histogram rowstacked\n"
		    "set style fill solid 0.8 border -1\nset boxwidth 0.7\nset grid ytics\n"
		    "set xtics rotate by -30 noenhanced\nset key outside right noenhanced\n");
	fprintf(gp, "plot ");
	for (k = 0; k < TS_NR; k++)
		fprintf(gp, "%s\"%s\" using %u%s title \"%s\"", k ? ", " : "",
			dat, k + 2, k ? "" : ":xtic(1)", trace_step_names[k]);
	fprintf(gp, ", \"%s\" using %u title \"user (fio)\", \"%s\" using %u title \"edge (syscall in/out)\"\n",
		dat, TS_NR + 2, dat, TS_NR + 3);
}

/* Some row of the condition has a breakdown. */
static int bd_any(const struct bd_plot *p)
{
	struct bd_cell b;
	unsigned int i;

	for (i = 0; i < p->n; i++) {
		bd_cell(p->run, p->rows[i], &b);
		if (b.status == BD_OK)
			return 1;
	}
	return 0;
}

int breakdown_plots(const struct run *run, struct plot_sink *s)
{
	const char **conds = calloc(run->nr_cells + 1, sizeof(*conds));
	const struct cell **rows = calloc(run->nr_cells + 1, sizeof(*rows));
	unsigned int nc = conds && rows ? bd_conds(run, conds) : 0, j;
	char file[300], safe[256];
	int r = conds && rows ? 0 : -1;

	for (j = 0; !r && j < nc; j++) {
		struct bd_plot p = { run, conds[j], rows, 0 };

		p.n = bd_rows(run, conds[j], rows);
		if (!bd_any(&p))
			continue;
		plot_safe_name(safe, sizeof(safe), conds[j]);
		snprintf(file, sizeof(file), "breakdown@%s", safe);
		r = plot_emit(s, file, bd_data, bd_script, &p);
	}
	free(conds);
	free(rows);
	return r;
}
