// SPDX-License-Identifier: GPL-2.0
/*
 * The crossover, report.md's headline: on null_blk disks with a set
 * latency N (cells <workload>@<condition>@nullb-<N>us), each design (a
 * label/workload pair) against the interrupt-driven reference (the
 * baseline label's <rw>-<bs>-<qd>-psync cell, as fair.c finds it): its
 * software overhead (lat p50 and p99 minus N), its p50 gain over
 * interrupts, the CPU it costs per I/O, what a competitor loses beside it
 * and cyclictest's wakeup latency, and the smallest N at which the gain
 * falls below 10 % and below 0: where polling stops paying. Under icount
 * one instruction takes 2^shift ns, about 3 x 2^shift times as long as on
 * a core retiring 3 instructions per ns, so a crossover at N corresponds
 * to N / (3 x 2^shift) there; both are printed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "crossover.h"
#include "fair.h"
#include "sweep.h"
#include "table.h"

static int in_xo(const struct cell *c)
{
	return sweep_us(c->device) >= 0 && c->merged.n;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Sorted distinct N over every condition. */
static unsigned int xo_devices(const struct run *run, int *pts)
{
	unsigned int i, j, n = 0;

	for (i = 0; i < run->nr_cells; i++) {
		int us = sweep_us(run->cells[i]->device);

		if (!in_xo(run->cells[i]))
			continue;
		for (j = 0; j < n && pts[j] != us; j++)
			;
		if (j == n)
			pts[n++] = us;
	}
	qsort(pts, n, sizeof(*pts), cmp_int);
	return n;
}

/* Is cell i the first crossover cell of its condition [and design]? */
static int first_of(const struct run *run, unsigned int i, int design)
{
	const struct cell *c = run->cells[i];
	unsigned int j;

	for (j = 0; j < i; j++) {
		const struct cell *x = run->cells[j];

		if (in_xo(x) && !strcmp(x->condition, c->condition) &&
		    (!design || (!strcmp(x->variant, c->variant) &&
				 !strcmp(x->workload, c->workload))))
			return 0;
	}
	return 1;
}

static const struct cell *xo_cell(const struct run *run, const char *variant,
				  const char *workload, const char *cond,
				  int us)
{
	const struct cell *c;
	char *name;

	if (asprintf(&name, "%s@%s@nullb-%dus", workload, cond, us) < 0)
		return NULL;
	c = run_find(run, variant, name);
	free(name);
	return c && c->merged.n ? c : NULL;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* (max - min) / median of the per-rep values of mi, %; NAN below 2 reps. */
double xo_spread_pct(const struct cell *c, int mi)
{
	double *v = calloc(c->nr_reps + 1, sizeof(*v)), med, r = NAN;
	int n = v ? rep_values(c, mi, v) : 0;

	if (n >= 2) {
		qsort(v, n, sizeof(*v), cmp_dbl);
		med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
		if (med > 0)
			r = (v[n - 1] - v[0]) / med * 100;
	}
	free(v);
	return r;
}

/* The smallest us[k] (ascending) whose gain is below limit, or -1. */
int xo_first_below(const int *us, const double *gain, unsigned int n,
		   double limit)
{
	unsigned int k;

	for (k = 0; k < n; k++)
		if (!isnan(gain[k]) && gain[k] < limit)
			return us[k];
	return -1;
}

/* Device latency N read for a core retiring XO_CORE_IPNS per ns. */
double xo_core_us(const struct run *run, int us)
{
	if (run->timing.kind != TIMING_ICOUNT)
		return NAN;
	return us / (XO_CORE_IPNS * (1 << run->timing.shift));
}

static void xo_point(const struct run *run, const struct cell *c, int us,
		     struct xo_point *p)
{
	int p50 = run_lat_mi(run, "p50"), p99 = run_lat_mi(run, "p99");

	memset(p, 0, sizeof(*p));
	p->us = us;
	p->c = c;
	p->p50 = p->p99 = p->ovh50 = p->ovh99 = p->gain50 = p->spread = NAN;
	if (!c)
		return;
	p->ref = fair_psync_ref(run, c);
	p->p50 = c->agg[p50].value;
	p->p99 = c->agg[p99].value;
	p->ovh50 = p->p50 - us * 1000.0;
	p->ovh99 = p->p99 - us * 1000.0;
	if (p->ref && p->ref->agg[p50].value > 0)
		p->gain50 = (p->ref->agg[p50].value - p->p50) /
			    p->ref->agg[p50].value * 100 + 0.0;
	p->spread = xo_spread_pct(c, p50);
}

static double val(const struct cell *c, const char *key)
{
	int mi = minst_find(key);

	return c && mi >= 0 && c->agg[mi].n ? c->agg[mi].value : NAN;
}

/* The headline condition: "alone" if any, else the first one. */
static const char *headline_cond(const struct run *run)
{
	unsigned int i;
	const char *first = NULL;

	for (i = 0; i < run->nr_cells; i++) {
		if (!in_xo(run->cells[i]))
			continue;
		if (!strcmp(run->cells[i]->condition, "alone"))
			return "alone";
		if (!first)
			first = run->cells[i]->condition;
	}
	return first;
}

static void num(char *buf, size_t len, double v, double scale,
		const char *fmt)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, fmt, v / scale);
}

/* "50 us (16.67 us on a 3-instruction-per-ns core)" or "not within". */
static void where(char *buf, size_t len, const struct run *run, int us,
		  const int *pts, unsigned int n)
{
	double core = xo_core_us(run, us);

	if (us < 0)
		snprintf(buf, len, "not within %d-%d us", pts[0], pts[n - 1]);
	else if (isnan(core))
		snprintf(buf, len, "from %d us", us);
	else
		snprintf(buf, len, "from %d us (%.2f us on a core retiring %.0f instructions per ns)",
			 us, core, XO_CORE_IPNS);
}

static void xo_gains(const struct run *run, const struct cell *d,
		     const char *cond, const int *pts, unsigned int n,
		     double *gain)
{
	struct xo_point p;
	unsigned int k;

	for (k = 0; k < n; k++) {
		xo_point(run, xo_cell(run, d->variant, d->workload, cond,
				      pts[k]), pts[k], &p);
		gain[k] = p.gain50;
	}
}

static int is_ref(const struct run *run, const struct cell *d)
{
	const struct cell *r = fair_psync_ref(run, d);

	return r == d;
}

#define XO_COLS 9

static void xo_table(FILE *f, const struct run *run, const char *cond,
		     int us)
{
	static const char *const head[XO_COLS] = {
		"design", "overhead p50 us", "overhead p99 us",
		"p50 gain vs interrupts", "CPU per I/O us",
		"competitor loss %", "fio task CPU per I/O us (competitor)",
		"cyclictest p99 us", "p50 spread over boots",
	};
	char cell[64][XO_COLS][160];
	unsigned int w[XO_COLS], i, k, rows = 0;

	for (k = 0; k < XO_COLS; k++)
		w[k] = strlen(head[k]);
	for (i = 0; i < run->nr_cells && rows < 64; i++) {
		const struct cell *d = run->cells[i];
		const struct cell *comp, *cyc;
		struct xo_point p;
		char (*r)[160] = cell[rows];

		if (!in_xo(d) || strcmp(d->condition, cond) ||
		    sweep_us(d->device) != us)
			continue;
		xo_point(run, d, us, &p);
		comp = xo_cell(run, d->variant, d->workload, "competitor", us);
		cyc = xo_cell(run, d->variant, d->workload, "cyclictest", us);
		snprintf(r[0], 160, "%s/%s%s", d->variant, d->workload,
			 is_ref(run, d) ? " (interrupts)" : "");
		num(r[1], 160, p.ovh50, 1000, "%.2f");
		num(r[2], 160, p.ovh99, 1000, "%.2f");
		num(r[3], 160, p.gain50, 1, "%+.2f%%");
		num(r[4], 160, val(d, "cpu_per_io_ns"), 1000, "%.2f");
		num(r[5], 160, val(comp, "competitor_loss_pct"), 1, "%.2f");
		num(r[6], 160, val(comp, "task_cpu_ns_per_io"), 1000, "%.2f");
		num(r[7], 160, val(cyc, "cyclictest_p99_us"), 1, "%.0f");
		num(r[8], 160, p.spread, 1, "%.2f%%");
		for (k = 0; k < XO_COLS; k++)
			if (strlen(r[k]) > w[k])
				w[k] = strlen(r[k]);
		rows++;
	}
	fprintf(f, "#### %d us device latency\n\n|", us);
	for (k = 0; k < XO_COLS; k++)
		fprintf(f, " %-*s |", w[k], head[k]);
	fprintf(f, "\n|");
	for (k = 0; k < XO_COLS; k++) {
		unsigned int j;

		fputc(k ? ' ' : ':', f);
		for (j = 0; j < w[k]; j++)
			fputc('-', f);
		fputs(k ? ":|" : " |", f);
	}
	fputc('\n', f);
	for (i = 0; i < rows; i++) {
		fputc('|', f);
		for (k = 0; k < XO_COLS; k++)
			fprintf(f, k ? " %*s |" : " %-*s |", w[k], cell[i][k]);
		fputc('\n', f);
	}
	fputc('\n', f);
}

static void xo_statements(FILE *f, const struct run *run, const char *cond,
			  const int *pts, unsigned int n)
{
	double *gain = calloc(n, sizeof(*gain));
	char a[160], b[160];
	unsigned int i;

	for (i = 0; gain && i < run->nr_cells; i++) {
		const struct cell *d = run->cells[i];

		if (!in_xo(d) || strcmp(d->condition, cond) ||
		    !first_of(run, i, 1) || is_ref(run, d))
			continue;
		xo_gains(run, d, cond, pts, n, gain);
		where(a, sizeof(a), run,
		      xo_first_below(pts, gain, n, XO_GAIN_SMALL_PCT), pts, n);
		where(b, sizeof(b), run, xo_first_below(pts, gain, n, 0),
		      pts, n);
		fprintf(f, "- `%s/%s`: p50 gain over interrupts below %.0f%% %s; below 0 %s.\n",
			d->variant, d->workload, XO_GAIN_SMALL_PCT, a, b);
	}
	fputc('\n', f);
	free(gain);
}

/* The run has valid @nullb-<N>us cells: the crossover is its headline. */
int crossover_applies(const struct run *run)
{
	return headline_cond(run) != NULL;
}

void crossover_report(FILE *f, const struct run *run)
{
	const char *cond = headline_cond(run);
	int *pts = calloc(run->nr_cells + 1, sizeof(*pts));
	unsigned int n = pts ? xo_devices(run, pts) : 0, k;

	fprintf(f, "## Headline\n\nTiming model: **%s**.\n\n",
		run->timing_label);
	if (!cond || !n) {
		fprintf(f, "No valid `<workload>@<condition>@nullb-<N>us` cells: no crossover.\n\n");
		free(pts);
		return;
	}
	fprintf(f, "The crossover%s on null_blk disks completing N us after submission, condition `%s`: per design (label/workload), **overhead** = %s p50 (p99) - N, p50 and p99 being the median over boots of each boot's own percentile (one boot, one vote), **gain** = (interrupts p50 - p50) / interrupts p50, where *interrupts* is the `%s` label's `<rw>-<bs>-<qd>-psync` cell; **CPU per I/O** = `cpu_per_io_ns` (fio's vCPU busy, plus polling in any idle loop, counted over the window); competitor loss and fio's task CPU per I/O from the `competitor` cells, cyclictest p99 from the `cyclictest` cells of the same design and N; spread = (max - min) / median of the per-boot p50. Plots: `plots/crossover-overhead@<condition>`, `plots/crossover-cpu@alone`, `plots/crossover-cyclictest`.\n\n",
		run_lat_note(run), cond, run->has_tlat ? "lat" : "clat",
		run->variants[0]);
	for (k = 0; k < n; k++)
		xo_table(f, run, cond, pts[k]);
	fprintf(f, "**Crossovers** (`%s`; device axis as measured, and read for a core retiring %.0f instructions per ns%s):\n\n",
		cond, XO_CORE_IPNS,
		run->timing.kind == TIMING_ICOUNT ?
		", where software takes 1/(3 x 2^shift) of the time it takes here relative to the device, so N here is N / (3 x 2^shift) there" :
		"; not instruction-count time, so no conversion");
	xo_statements(f, run, cond, pts, n);
	if (run->nr_invalid)
		fprintf(f, "%u invalid cell%s left out (below).\n\n",
			run->nr_invalid, run->nr_invalid == 1 ? "" : "s");
	free(pts);
}

static json_t *jnum(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static json_t *jwhere(int us)
{
	return us < 0 ? json_null() : json_integer(us);
}

static json_t *xo_design_json(const struct run *run, const struct cell *d,
			      const int *pts, unsigned int n, double *gain)
{
	json_t *o = json_object(), *arr = json_array();
	unsigned int k;
	int below;

	json_object_set_new(o, "variant", json_string(d->variant));
	json_object_set_new(o, "workload", json_string(d->workload));
	json_object_set_new(o, "is_reference", json_boolean(is_ref(run, d)));
	for (k = 0; k < n; k++) {
		const struct cell *c = xo_cell(run, d->variant, d->workload,
					       d->condition, pts[k]);
		json_t *p;
		struct xo_point x;

		xo_point(run, c, pts[k], &x);
		gain[k] = x.gain50;
		if (!c)
			continue;
		p = json_object();
		json_object_set_new(p, "device_us", json_integer(pts[k]));
		json_object_set_new(p, "cell", json_string(c->name));
		json_object_set_new(p, "reference_cell", x.ref ?
			json_string(x.ref->name) : json_null());
		json_object_set_new(p, "p50_ns", jnum(x.p50));
		json_object_set_new(p, "p99_ns", jnum(x.p99));
		json_object_set_new(p, "overhead_p50_ns", jnum(x.ovh50));
		json_object_set_new(p, "overhead_p99_ns", jnum(x.ovh99));
		json_object_set_new(p, "gain_p50_pct", jnum(x.gain50));
		json_object_set_new(p, "p50_spread_pct", jnum(x.spread));
		json_object_set_new(p, "cpu_per_io_ns",
				    jnum(val(c, "cpu_per_io_ns")));
		json_object_set_new(p, "task_cpu_ns_per_io",
				    jnum(val(c, "task_cpu_ns_per_io")));
		json_object_set_new(p, "competitor_loss_pct",
				    jnum(val(c, "competitor_loss_pct")));
		json_object_set_new(p, "cyclictest_p50_us",
				    jnum(val(c, "cyclictest_p50_us")));
		json_object_set_new(p, "cyclictest_p99_us",
				    jnum(val(c, "cyclictest_p99_us")));
		json_object_set_new(p, "cyclictest_max_us",
				    jnum(val(c, "cyclictest_max_us")));
		json_array_append_new(arr, p);
	}
	json_object_set_new(o, "points", arr);
	below = xo_first_below(pts, gain, n, XO_GAIN_SMALL_PCT);
	json_object_set_new(o, "gain_below_10pct_from_us", jwhere(below));
	json_object_set_new(o, "gain_below_10pct_from_us_core_3ipns",
			    below < 0 ? json_null() :
			    jnum(xo_core_us(run, below)));
	below = xo_first_below(pts, gain, n, 0);
	json_object_set_new(o, "gain_below_0_from_us", jwhere(below));
	json_object_set_new(o, "gain_below_0_from_us_core_3ipns",
			    below < 0 ? json_null() :
			    jnum(xo_core_us(run, below)));
	return o;
}

json_t *crossover_json(const struct run *run)
{
	int *pts = calloc(run->nr_cells + 1, sizeof(*pts));
	double *gain = calloc(run->nr_cells + 1, sizeof(*gain));
	unsigned int n = pts ? xo_devices(run, pts) : 0, i, k;
	const char *cond = headline_cond(run);
	json_t *o = json_object(), *devs = json_array(), *conds = json_array();

	json_object_set_new(o, "timing_model",
			    json_string(timing_key(&run->timing)));
	json_object_set_new(o, "timing_label", json_string(run->timing_label));
	json_object_set_new(o, "latency", json_string(run->has_tlat ?
						       "lat" : "clat"));
	json_object_set_new(o, "reference_variant",
			    json_string(run->variants[0]));
	json_object_set_new(o, "headline_condition",
			    cond ? json_string(cond) : json_null());
	json_object_set_new(o, "gain_small_pct", json_real(XO_GAIN_SMALL_PCT));
	json_object_set_new(o, "core_instructions_per_ns",
			    json_real(XO_CORE_IPNS));
	for (k = 0; k < n; k++)
		json_array_append_new(devs, json_integer(pts[k]));
	json_object_set_new(o, "devices_us", devs);
	for (i = 0; gain && i < run->nr_cells; i++) {
		const struct cell *c = run->cells[i];
		json_t *co, *ds;
		unsigned int j;

		if (!in_xo(c) || !first_of(run, i, 0))
			continue;
		co = json_object();
		ds = json_array();
		json_object_set_new(co, "condition", json_string(c->condition));
		for (j = i; j < run->nr_cells; j++)
			if (in_xo(run->cells[j]) &&
			    !strcmp(run->cells[j]->condition, c->condition) &&
			    first_of(run, j, 1))
				json_array_append_new(ds,
					xo_design_json(run, run->cells[j], pts,
						       n, gain));
		json_object_set_new(co, "designs", ds);
		json_array_append_new(conds, co);
	}
	json_object_set_new(o, "conditions", conds);
	free(pts);
	free(gain);
	return o;
}

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
		*y1 = *y2 = val(c, "cpu_per_io_ns") / 1000;
	} else {
		*y1 = *y2 = val(c, "cyclictest_p99_us");
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

		if (!in_xo(d) || strcmp(d->condition, p->cond) ||
		    !first_of(run, i, 1))
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
		fprintf(gp, "set title \"crossover (%s): CPU per I/O incl. idle-loop polling\\n\" . timing_model noenhanced\nset ylabel \"CPU per I/O (us)\"\n",
			p->cond);
	else
		fprintf(gp, "set title \"crossover (%s): cyclictest p99\\n\" . timing_model noenhanced\nset ylabel \"cyclictest p99 (us)\"\n",
			p->cond);
	fprintf(gp, "set xlabel \"device latency N (us)\"\nset logscale x\nset grid\nset key top left noenhanced\n");
	if (p->n == 1)
		fprintf(gp, "set xrange [%g:%g]\n", p->pts[0] / 2.0,
			p->pts[0] * 2.0);
	fprintf(gp, "plot ");
	for (i = 0; i < run->nr_cells; i++) {
		const struct cell *d = run->cells[i];

		if (!in_xo(d) || strcmp(d->condition, p->cond) ||
		    !first_of(run, i, 1))
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

		if (in_xo(c) && !strcmp(c->condition, p->cond) &&
		    xo_y(p, c, sweep_us(c->device), &y1, &y2))
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

		if (!in_xo(c) || !first_of(run, i, 0))
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
