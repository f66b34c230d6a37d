// SPDX-License-Identifier: GPL-2.0
/*
 * Plots: one data file per plot and cell, and one gnuplot script
 * (plots/plots.gp) that renders each as PNG and SVG. gnuplot runs as a
 * child process; when it is missing the data and script stay, with a
 * warning.
 *
 * Extension points: a per-cell plot is a struct plot_kind in
 * plot_kinds[]: applies() says whether the cell has the data,
 * write_data() writes the data file, script() the gnuplot commands that
 * draw it; the terminal and output are set by the caller. A run-level
 * plot (fair.c, sweep.c) calls plot_emit() from write_plots().
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plot.h"

struct plot_ctx {
	const struct run *run;
	struct cell **cols;	/* variants of one cell, baseline first */
	unsigned int n;
	const char *base;	/* file name stem: <dir>/<cell>-<kind> */
	const char *cell;
};

struct plot_kind {
	const char *name;
	int (*applies)(const struct plot_ctx *p);
	int (*write_data)(const struct plot_ctx *p, FILE *dat);
	void (*script)(const struct plot_ctx *p, FILE *gp, const char *dat);
};

/* fio latency plots: not for competitor-only cells (no fio run). */
static int has_lat(const struct plot_ctx *p)
{
	unsigned int i;

	for (i = 0; i < p->n; i++)
		if (p->cols[i]->merged.n)
			return 1;
	return 0;
}

static int has_cyc(const struct plot_ctx *p)
{
	unsigned int i;

	for (i = 0; i < p->n; i++)
		if (p->cols[i]->cyc.range)
			return 1;
	return 0;
}

static const double curve_pcts[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95,
	99.99, 99.995, 99.999,
};

#define NR_PCTS (sizeof(curve_pcts) / sizeof(curve_pcts[0]))

/* x = -log10(1 - p): 90% -> 1, 99% -> 2, 99.9% -> 3 ("nines"). */
static int latency_data(const struct plot_ctx *p, FILE *dat)
{
	unsigned int i, k;

	for (i = 0; i < p->n; i++) {
		const struct hist *h = &p->cols[i]->merged;

		fprintf(dat, "# %s: percentile_nines latency_ns pct\n",
			p->cols[i]->variant);
		for (k = 0; k < NR_PCTS; k++) {
			/* Only as deep as the samples reach. */
			if ((1 - curve_pcts[k] / 100) * h->n < 1)
				break;
			fprintf(dat, "%.6f %llu %g\n",
				-log10(1 - curve_pcts[k] / 100),
				(unsigned long long)hist_percentile(h, curve_pcts[k]),
				curve_pcts[k]);
		}
		fprintf(dat, "\n\n");
	}
	return 0;
}

static void latency_script(const struct plot_ctx *p, FILE *gp,
			   const char *dat)
{
	unsigned int i;

	fprintf(gp, "set title \"%s: completion latency percentiles, bins pooled over boots\\n\" . timing_model noenhanced\n",
		p->cell);
	fprintf(gp, "set xlabel \"percentile\"\nset ylabel \"clat (ns)\"\nset logscale y\nset key top left noenhanced\nset grid\n");
	fprintf(gp, "set xtics (\"50\" 0.30103, \"90\" 1, \"99\" 2, \"99.9\" 3, \"99.99\" 4, \"99.999\" 5)\n");
	fprintf(gp, "plot ");
	for (i = 0; i < p->n; i++)
		fprintf(gp, "%s\"%s\" index %u using 1:2 with linespoints title \"%s\"",
			i ? ", " : "", dat, i, p->cols[i]->variant);
	fputc('\n', gp);
}

static void bar_row(FILE *dat, const struct cell *c, const char *key)
{
	int mi = minst_find(key);
	const struct aggval *a = &c->agg[mi];

	fprintf(dat, " %.17g %.17g %.17g", a->value,
		isnan(a->lo) ? a->value : a->lo,
		isnan(a->hi) ? a->value : a->hi);
}

static int pct_data(const struct plot_ctx *p, FILE *dat)
{
	unsigned int i;

	fprintf(dat, "# variant p50 lo hi p99 lo hi (ns)\n");
	for (i = 0; i < p->n; i++) {
		fprintf(dat, "\"%s\"", p->cols[i]->variant);
		bar_row(dat, p->cols[i], "clat_p50_ns");
		bar_row(dat, p->cols[i], "clat_p99_ns");
		fputc('\n', dat);
	}
	return 0;
}

static void bars_common(FILE *gp)
{
	fprintf(gp, "set style data histograms\nset style histogram errorbars gap 1 lw "
		    "1\nset style fill solid 0.6 border -1\nset yrange [0:*]\nset key "
		    "top left noenhanced\nset grid y\nset xtics noenhanced\n");
}

static void pct_script(const struct plot_ctx *p, FILE *gp, const char *dat)
{
	fprintf(gp, "set title \"%s: p50 and p99 with 95%% CI (t over boots)\\n\" . timing_model noenhanced\n",
		p->cell);
	fprintf(gp, "set ylabel \"clat (ns)\"\nunset xlabel\n");
	bars_common(gp);
	fprintf(gp, "plot \"%s\" using 2:3:4:xtic(1) title \"p50\", \"\" using 5:6:7 title \"p99\"\n",
		dat);
}

/* An M_CPU metric some column has: only those get bars. */
static int cpu_bar(const struct plot_ctx *p, unsigned int mi)
{
	unsigned int i;

	if (!(minsts[mi].m->flags & M_CPU))
		return 0;
	for (i = 0; i < p->n; i++)
		if (p->cols[i]->agg[mi].n)
			return 1;
	return 0;
}

static int has_cpu(const struct plot_ctx *p)
{
	unsigned int mi;

	for (mi = 0; mi < nr_minsts; mi++)
		if (cpu_bar(p, mi))
			return 1;
	return 0;
}

static int cpu_data(const struct plot_ctx *p, FILE *dat)
{
	unsigned int i, mi;

	fprintf(dat, "# variant then value lo hi per M_CPU metric\n");
	for (i = 0; i < p->n; i++) {
		fprintf(dat, "\"%s\"", p->cols[i]->variant);
		for (mi = 0; mi < nr_minsts; mi++)
			if (cpu_bar(p, mi))
				bar_row(dat, p->cols[i], minsts[mi].key);
		fputc('\n', dat);
	}
	return 0;
}

static void cpu_script(const struct plot_ctx *p, FILE *gp, const char *dat)
{
	unsigned int mi, col = 2;

	fprintf(gp, "set title \"%s: CPU per I/O with 95%% CI (t over boots)\\n\" . timing_model noenhanced\n",
		p->cell);
	fprintf(gp, "set ylabel \"ns per I/O\"\nunset xlabel\n");
	bars_common(gp);
	fprintf(gp, "plot ");
	for (mi = 0; mi < nr_minsts; mi++) {
		if (!cpu_bar(p, mi))
			continue;
		fprintf(gp, "%s\"%s\" using %u:%u:%u%s title \"%s\"",
			col > 2 ? ", " : "", dat, col, col + 1, col + 2,
			col == 2 ? ":xtic(1)" : "", minsts[mi].label);
		col += 3;
	}
	fputc('\n', gp);
}

/*
 * cyclictest buckets merged over reps, one block per variant: us,
 * fraction of that variant's samples (overflows included), count.
 */
static int cyc_data(const struct plot_ctx *p, FILE *dat)
{
	unsigned int i, k, last;

	for (i = 0; i < p->n; i++) {
		const struct cyclic *c = &p->cols[i]->cyc;
		double all = c->n + c->overflows;

		fprintf(dat, "# %s: us fraction count (overflows >= %u us: %llu)\n",
			p->cols[i]->variant, c->range,
			(unsigned long long)c->overflows);
		for (last = c->range; last > 0 && !c->cnt[last - 1]; last--)
			;
		for (k = 0; k < last; k++)
			fprintf(dat, "%u %.17g %llu\n", k, c->cnt[k] / all,
				(unsigned long long)c->cnt[k]);
		if (!last)
			fprintf(dat, "0 NaN 0\n");
		fprintf(dat, "\n\n");
	}
	return 0;
}

static void cyc_script(const struct plot_ctx *p, FILE *gp, const char *dat)
{
	unsigned int i;

	fprintf(gp, "set title \"%s: cyclictest wakeup latency on fio's CPU\\n\" . timing_model noenhanced\n",
		p->cell);
	fprintf(gp, "set xlabel \"latency (us)\"\nset ylabel \"fraction of wakeups\"\nset logscale y\nset key top right noenhanced\nset grid\n");
	fprintf(gp, "plot ");
	for (i = 0; i < p->n; i++) {
		const struct cyclic *c = &p->cols[i]->cyc;

		fprintf(gp, "%s\"%s\" index %u using 1:2 with histeps title \"%s (%llu samples, %llu >= %u us)\"",
			i ? ", " : "", dat, i, p->cols[i]->variant,
			(unsigned long long)(c->n + c->overflows),
			(unsigned long long)c->overflows, c->range);
	}
	fputc('\n', gp);
}

static const struct plot_kind plot_kinds[] = {
	{ "latency", has_lat, latency_data, latency_script },
	{ "p50-p99", has_lat, pct_data, pct_script },
	{ "cpu", has_cpu, cpu_data, cpu_script },
	{ "cyclictest", has_cyc, cyc_data, cyc_script },
};

/* File names: the cell name with anything but [A-Za-z0-9._@-] as '_'. */
void plot_safe_name(char *dst, size_t len, const char *src)
{
	size_t i;

	for (i = 0; i + 1 < len && src[i]; i++)
		dst[i] = (isalnum((unsigned char)src[i]) || strchr("._@-", src[i])) ?
			 src[i] : '_';
	dst[i] = '\0';
}

static int run_gnuplot(const char *dir)
{
	pid_t pid;
	int st;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (chdir(dir))
			_exit(126);
		execlp("gnuplot", "gnuplot", "plots.gp", (char *)NULL);
		_exit(errno == ENOENT ? 127 : 126);
	}
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		return 1;
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -1;
}

static int emit(FILE *gp, const char *timing, const char *dpath,
		const char *file,
		int (*data)(const void *arg, FILE *dat),
		void (*script)(const void *arg, FILE *gp, const char *dat),
		const void *arg)
{
	char rel[700];
	FILE *dat = fopen(dpath, "w");
	int f;

	if (!dat || data(arg, dat) || fclose(dat)) {
		fprintf(stderr, "%s: %s\n", dpath, strerror(errno));
		return -1;
	}
	snprintf(rel, sizeof(rel), "%s.dat", file);
	for (f = 0; f < 2; f++) {
		fprintf(gp, "\nreset\nset terminal %s size 900,600 noenhanced\nset output \"%s.%s\"\ntiming_model = \"%s\"\n",
			f ? "svg" : "pngcairo", file, f ? "svg" : "png",
			timing);
		script(arg, gp, rel);
		fprintf(gp, "set output\n");
	}
	return 0;
}

int plot_emit(struct plot_sink *s, const char *file, plot_data_fn data,
	      plot_script_fn script, const void *arg)
{
	char dpath[4096];

	snprintf(dpath, sizeof(dpath), "%s/%s.dat", s->dir, file);
	return emit(s->gp, s->timing, dpath, file, data, script, arg);
}

/* Per-cell kinds go through emit() too: one kind and one cell. */
struct kind_arg {
	const struct plot_kind *pk;
	const struct plot_ctx *p;
};

static int kind_data(const void *arg, FILE *dat)
{
	const struct kind_arg *a = arg;

	return a->pk->write_data(a->p, dat);
}

static void kind_script(const void *arg, FILE *gp, const char *dat)
{
	const struct kind_arg *a = arg;

	a->pk->script(a->p, gp, dat);
}

/* Start plots.gp in dir; 0 or -1 (message printed). */
int plot_open(struct plot_sink *s, const struct run *run, const char *dir)
{
	return plot_open_label(s, run->timing_label, dir);
}

/* plot_open() for plots of several runs of one timing model. */
int plot_open_label(struct plot_sink *s, const char *timing, const char *dir)
{
	char gpath[4096];

	memset(s, 0, sizeof(*s));
	s->dir = dir;
	s->timing = timing;
	if (mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "%s: %s\n", dir, strerror(errno));
		return -1;
	}
	snprintf(gpath, sizeof(gpath), "%s/plots.gp", dir);
	s->gp = fopen(gpath, "w");
	if (!s->gp) {
		fprintf(stderr, "%s: %s\n", gpath, strerror(errno));
		return -1;
	}
	fprintf(s->gp, "# Generated by pollbench-report; run in this directory: gnuplot plots.gp\n");
	return 0;
}

/* The per-cell plots (plot_kinds[]) of every cell. */
int plot_cells(struct plot_sink *s, const struct run *run)
{
	struct cell **cols = calloc(run->nr_variants, sizeof(*cols));
	char dpath[4096], stem[512];
	unsigned int i, j, k, n;

	if (!cols)
		return -1;
	for (i = 0; i < run->nr_cells; i = j) {
		struct plot_ctx p = { .run = run, .cols = cols,
				      .cell = run->cells[i]->name };

		for (j = i, n = 0; j < run->nr_cells; j++) {
			if (strcmp(run->cells[j]->name, p.cell))
				break;
			cols[n++] = run->cells[j];
		}
		p.n = n;
		for (k = 0; k < sizeof(plot_kinds) / sizeof(plot_kinds[0]);
		     k++) {
			const struct plot_kind *pk = &plot_kinds[k];
			struct kind_arg ka = { pk, &p };
			char file[600];

			if (!pk->applies(&p))
				continue;
			plot_safe_name(stem, sizeof(stem), p.cell);
			snprintf(file, sizeof(file), "%s-%s", stem, pk->name);
			snprintf(dpath, sizeof(dpath), "%s/%s.dat", s->dir,
				 file);
			p.base = file;
			if (emit(s->gp, s->timing, dpath, file, kind_data,
				 kind_script, &ka)) {
				free(cols);
				return -1;
			}
		}
	}
	free(cols);
	return 0;
}

/*
 * Close plots.gp (failed: just close) and run gnuplot: 1 plots written,
 * 0 gnuplot missing (warning; data and script kept), -1 error.
 */
int plot_close(struct plot_sink *s, int failed)
{
	char gpath[4096];
	int r;

	snprintf(gpath, sizeof(gpath), "%s/plots.gp", s->dir);
	if (fclose(s->gp) && !failed) {
		fprintf(stderr, "%s: %s\n", gpath, strerror(errno));
		return -1;
	}
	if (failed)
		return -1;
	r = run_gnuplot(s->dir);
	if (r == 1) {
		fprintf(stderr, "warning: gnuplot not found: plots skipped (data and %s kept)\n",
			gpath);
		return 0;
	}
	if (r < 0) {
		fprintf(stderr, "%s: gnuplot failed\n", gpath);
		return -1;
	}
	return 1;
}
