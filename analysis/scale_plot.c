// SPDX-License-Identifier: GPL-2.0
/*
 * The scale plots, per table of the Scale section (prefix, suffix,
 * device, condition): IOPS and CPU per I/O against the reader count N,
 * a line per design under its usual name, x on a log2 axis labelled at
 * the N that ran.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scale_out.h"
#include "scale_plot.h"

struct sc_plot {
	const struct run *run;
	const struct scale_group *g;
	const struct design *v;
	const char *key;	/* "iops" or "cpu_per_io_ns" */
	double scale;		/* y = value / scale */
};

/* log2 x with a tick at every N that ran, and room on both sides. */
void scale_xaxis(FILE *gp, const unsigned int *readers, unsigned int n)
{
	unsigned int k;

	fprintf(gp, "set logscale x 2\nset xtics (");
	for (k = 0; k < n; k++)
		fprintf(gp, "%s\"%u\" %u", k ? ", " : "", readers[k],
			readers[k]);
	fprintf(gp, ")\nset xrange [%g:%g]\n", readers[0] / 1.5,
		readers[n - 1] * 1.5);
}

/* "scale-iops@randread-4k-rNpin@busy@nullb-10us" */
void scale_plot_file(char *buf, size_t len, const char *what,
		     const struct scale_group *g)
{
	char name[256];

	snprintf(name, sizeof(name), "%s-rN%s@%s%s%s", g->wl.prefix,
		 g->wl.suffix, g->first->condition,
		 *g->first->device ? "@" : "", g->first->device);
	plot_safe_name(name, sizeof(name), name);
	snprintf(buf, len, "scale-%s@%s", what, name);
}

static double point(const struct sc_plot *p, const struct cell *d,
		    unsigned int n)
{
	return scale_value(p->run, p->g, d, n, p->key) / p->scale;
}

static int has_points(const struct sc_plot *p, const struct cell *d)
{
	unsigned int k;

	for (k = 0; k < p->g->nr_readers; k++)
		if (!isnan(point(p, d, p->g->readers[k])))
			return 1;
	return 0;
}

/* One index block per design with points, in the table's order. */
static int sc_data(const void *arg, FILE *dat)
{
	const struct sc_plot *p = arg;
	unsigned int r, k;
	double y;

	for (r = 0; r < p->g->nr_designs; r++) {
		if (!has_points(p, p->v[r].d))
			continue;
		fprintf(dat, "# %s: readers %s\n", p->v[r].name, p->key);
		for (k = 0; k < p->g->nr_readers; k++) {
			y = point(p, p->v[r].d, p->g->readers[k]);
			if (!isnan(y))
				fprintf(dat, "%u %.17g\n", p->g->readers[k], y);
		}
		fprintf(dat, "\n\n");
	}
	return 0;
}

static void sc_script(const void *arg, FILE *gp, const char *dat)
{
	const struct sc_plot *p = arg;
	int iops = !strcmp(p->key, "iops");
	unsigned int r, idx = 0;
	char name[256];

	fprintf(gp, "set title \"scale (%s): %s against readers\\n\" . timing_model noenhanced\n",
		scale_group_name(p->g, name, sizeof(name)),
		iops ? "IOPS" : "CPU per I/O");
	fprintf(gp, "set xlabel \"readers N (one fio job each)\"\nset ylabel \"%s\"\n",
		iops ? "IOPS (all readers)" :
		       "CPU busy per I/O, all vCPUs (us)");
	scale_xaxis(gp, p->g->readers, p->g->nr_readers);
	fprintf(gp, "set yrange [0:*]\nset grid\nset key below noenhanced\nplot ");
	for (r = 0; r < p->g->nr_designs; r++) {
		if (!has_points(p, p->v[r].d))
			continue;
		fprintf(gp, "%s\"%s\" index %u using 1:2 with linespoints lc %u pt 7 title \"%s\"",
			idx ? ", " : "", dat, idx, idx + 1, p->v[r].name);
		idx++;
	}
	fputc('\n', gp);
}

static int any_points(const struct sc_plot *p)
{
	unsigned int r;

	for (r = 0; r < p->g->nr_designs; r++)
		if (has_points(p, p->v[r].d))
			return 1;
	return 0;
}

int scale_plots(const struct run *run, struct plot_sink *s)
{
	struct scale_group *g;
	unsigned int n = scale_groups(run, &g), i;
	char file[400];
	int r = 0;

	for (i = 0; !r && i < n; i++) {
		struct design *v = calloc(g[i].nr_designs + 1, sizeof(*v));
		struct sc_plot p = { run, &g[i], v, "iops", 1 };

		if (!v) {
			r = -1;
			break;
		}
		scale_designs(run, &g[i], v);
		scale_plot_file(file, sizeof(file), "iops", &g[i]);
		if (any_points(&p))
			r = plot_emit(s, file, sc_data, sc_script, &p);
		p.key = "cpu_per_io_ns";
		p.scale = 1000;
		scale_plot_file(file, sizeof(file), "cpu", &g[i]);
		if (!r && any_points(&p))
			r = plot_emit(s, file, sc_data, sc_script, &p);
		free(v);
	}
	scale_groups_free(g, n);
	return r;
}
