// SPDX-License-Identifier: GPL-2.0
/*
 * --scale's plots: per table and design, IOPS and CPU per I/O against
 * the reader count (log2 axis labelled at the N that ran), a line per
 * vCPU count.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "scale_out.h"
#include "scale_plot.h"
#include "scalex_out.h"
#include "scalex_plot.h"

struct xs_plot {
	const struct xs_set *x;
	const struct scale_group *g;
	const struct design *d;
	const char *key;	/* "iops" or "cpu_per_io_ns" */
	double scale;
};

static double point(const struct xs_plot *p, unsigned int i, unsigned int n)
{
	return scale_value(p->x->run[i], p->g, p->d->d, n, p->key) / p->scale;
}

static int has_points(const struct xs_plot *p, unsigned int i)
{
	unsigned int k;

	for (k = 0; k < p->g->nr_readers; k++)
		if (!isnan(point(p, i, p->g->readers[k])))
			return 1;
	return 0;
}

/* One index block per vCPU count with points. */
static int xs_data(const void *arg, FILE *dat)
{
	const struct xs_plot *p = arg;
	unsigned int i, k;
	double y;

	for (i = 0; i < p->x->n; i++) {
		if (!has_points(p, i))
			continue;
		fprintf(dat, "# %d vCPUs: readers %s\n", p->x->vcpus[i], p->key);
		for (k = 0; k < p->g->nr_readers; k++) {
			y = point(p, i, p->g->readers[k]);
			if (!isnan(y))
				fprintf(dat, "%u %.17g\n", p->g->readers[k], y);
		}
		fprintf(dat, "\n\n");
	}
	return 0;
}

static void xs_script(const void *arg, FILE *gp, const char *dat)
{
	const struct xs_plot *p = arg;
	int iops = !strcmp(p->key, "iops");
	unsigned int i, idx = 0;
	char name[256];

	fprintf(gp, "set title \"%s, %s: %s against readers, per vCPU count\\n\" . timing_model noenhanced\n",
		p->d->name, scale_group_name(p->g, name, sizeof(name)),
		iops ? "IOPS" : "CPU per I/O");
	fprintf(gp, "set xlabel \"readers N (one fio job each)\"\nset ylabel \"%s\"\n",
		iops ? "IOPS (all readers)" :
		       "CPU busy per I/O, all vCPUs (us)");
	scale_xaxis(gp, p->g->readers, p->g->nr_readers);
	fprintf(gp, "set yrange [0:*]\nset grid\nset key below noenhanced\nplot ");
	for (i = 0; i < p->x->n; i++) {
		if (!has_points(p, i))
			continue;
		fprintf(gp, "%s\"%s\" index %u using 1:2 with linespoints lc %u pt 7 title \"%d vCPUs\"",
			idx ? ", " : "", dat, idx, idx + 1, p->x->vcpus[i]);
		idx++;
	}
	fputc('\n', gp);
}

static int emit(struct plot_sink *s, struct xs_plot *p, const char *what)
{
	char file[600], tail[300], safe[300];
	unsigned int i;

	for (i = 0; i < p->x->n && !has_points(p, i); i++)
		;
	if (i == p->x->n)
		return 0;
	scale_plot_file(file, sizeof(file), what, p->g);
	snprintf(tail, sizeof(tail), "@%s-%s", p->d->d->variant,
		 engine_name(p->d->d->workload));
	plot_safe_name(safe, sizeof(safe), tail);
	strncat(file, safe, sizeof(file) - strlen(file) - 1);
	return plot_emit(s, file, xs_data, xs_script, p);
}

int scalex_plots(const struct xs_set *x, struct plot_sink *s)
{
	unsigned int i, r;
	int ret = 0;

	for (i = 0; !ret && i < x->nr_g; i++) {
		const struct scale_group *g = &x->g[i];
		struct design *v = calloc(g->nr_designs + 1, sizeof(*v));

		if (!v)
			return -1;
		xs_designs(x, g, v);
		for (r = 0; !ret && r < g->nr_designs; r++) {
			struct xs_plot p = { x, g, &v[r], "iops", 1 };

			ret = emit(s, &p, "iops");
			p.key = "cpu_per_io_ns";
			p.scale = 1000;
			if (!ret)
				ret = emit(s, &p, "cpu");
		}
		free(v);
	}
	return ret;
}
