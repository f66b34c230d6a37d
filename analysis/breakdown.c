// SPDX-License-Identifier: GPL-2.0
/*
 * Where the microseconds go: the per-I/O steps of a traced cell's reps
 * (trace.c) as one figure per cell and step, one boot one vote: each
 * rep's median and mean over its I/Os, then the median over reps. Beside
 * them fio's own total latency of the same reps, which the traced system
 * call must cover (BD_COVER_TOL_PCT), and the cost of tracing: the same
 * cell of the label with the same settings but no trace:1 (run.json
 * "configs"; without them the label less its ".traced" suffix).
 *
 * A cell's breakdown is missing (not guessed) when a rep has no trace or
 * no two pb_clock markers to scale its ticks, and invalid when a rep's
 * trace lost events or holds more or fewer I/Os than the device completed
 * over the window (BD_COUNT_TOL_PCT of Δdev_ios; fio's total_ios without
 * window files).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "breakdown.h"
#include "device.h"
#include "stats.h"

#define TRACED_SUFFIX ".traced"

static json_t *config_of(const struct run *run, const char *label)
{
	json_t *o = json_object_get(json_object_get(run->runjson, "configs"),
				    label);

	return json_is_object(o) ? o : NULL;
}

static int config_traced(const struct run *run, const char *label)
{
	json_t *t = json_object_get(config_of(run, label), "trace");

	return json_is_integer(t) && json_integer_value(t) != 0;
}

/* A label's settings less "trace", for comparing labels. */
static json_t *settings(const struct run *run, const char *label)
{
	json_t *o = config_of(run, label);

	o = o ? json_deep_copy(o) : NULL;
	if (o)
		json_object_del(o, "trace");
	return o;
}

static int has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n > m && !strcmp(s + n - m, suf);
}

/* A cell with a fio run whose label has trace:1 or whose reps have traces. */
int bd_traced(const struct run *run, const struct cell *c)
{
	unsigned int i;

	if (!c->merged.n)
		return 0;
	if (config_traced(run, c->variant))
		return 1;
	for (i = 0; i < c->nr_reps; i++)
		if (c->reps[i].trace)
			return 1;
	return 0;
}

/*
 * The untraced label with the traced one's settings (kernel_variant,
 * cmdline_extra, queue_settings, workloads): run.json "configs", the one
 * named like it less ".traced" first; without configs, that name if it
 * is a label of the run. NULL: none.
 */
const char *bd_untraced_label(const struct run *run, const char *variant)
{
	json_t *mine = settings(run, variant), *other;
	size_t n = strlen(variant) - strlen(TRACED_SUFFIX);
	const char *found = NULL;
	unsigned int i;

	for (i = 0; i < run->nr_variants; i++) {
		const char *v = run->variants[i];
		int stripped = has_suffix(variant, TRACED_SUFFIX) &&
			       strlen(v) == n && !strncmp(v, variant, n);

		if (!strcmp(v, variant) || config_traced(run, v))
			continue;
		if (mine) {
			other = settings(run, v);
			if (!other || !json_equal(mine, other)) {
				json_decref(other);
				continue;
			}
			json_decref(other);
		} else if (!stripped) {
			continue;
		}
		if (!found || stripped)
			found = v;
		if (stripped)
			break;
	}
	json_decref(mine);
	return found;
}

static void set_reason(struct bd_cell *b, enum bd_status st, const char *fmt,
		       ...) __attribute__((format(printf, 3, 4)));

static void set_reason(struct bd_cell *b, enum bd_status st, const char *fmt,
		       ...)
{
	va_list ap;

	if (b->status == BD_MISSING ||
	    (b->status == BD_INVALID && st != BD_MISSING))
		return;		/* the first, most serious reason stays */
	b->status = st;
	va_start(ap, fmt);
	vsnprintf(b->reason, sizeof(b->reason), fmt, ap);
	va_end(ap);
}

/* The rep's trace against the window; 1: it has steps to count. */
static int rep_check(const struct rep *r, struct bd_cell *b)
{
	const struct trace *t = r->trace;
	double off;

	if (!t) {
		set_reason(b, BD_MISSING, "rep %u has no trace.txt.gz", r->num);
		return 0;
	}
	if (isnan(t->tick_ns)) {
		set_reason(b, BD_MISSING,
			   "rep %u: %u pb_clock markers, not 2 or 4: no tick scale",
			   r->num, t->markers);
		return 0;
	}
	if (t->lost)
		set_reason(b, BD_INVALID, "rep %u: the ring buffer lost %u events",
			   r->num, t->lost);
	off = fabs(t->nr_io - r->win_ios);
	if (isnan(r->win_ios) || off > BD_COUNT_TOL_PCT / 100 * r->win_ios)
		set_reason(b, BD_INVALID,
			   "rep %u: %u I/Os in the trace, %.0f in the window (more than %.0f%% apart: events lost or the window differs)",
			   r->num, t->nr_io, r->win_ios, BD_COUNT_TOL_PCT);
	return 1;
}

void bd_cell(const struct run *run, const struct cell *c, struct bd_cell *b)
{
	int mmi = run_lat_mi(run, "mean"), pmi = run_lat_mi(run, "p50");
	const char *ul = bd_untraced_label(run, c->variant);
	double *v = calloc(c->nr_reps + 1, sizeof(*v) * (2 * TS_NR + 10));
	unsigned int i, k, n = 0;
	double *med, *mean, *sys, *sysmed, *fm, *fp, *cov, *outside;
	double *user, *edge, *tot, *scov;

	memset(b, 0, sizeof(*b));
	b->c = c;
	b->untraced = ul ? run_find(run, ul, c->name) : NULL;
	if (has_suffix(c->variant, TRACED_SUFFIX))
		snprintf(b->design, sizeof(b->design), "%.*s",
			 (int)(strlen(c->variant) - strlen(TRACED_SUFFIX)),
			 c->variant);
	else
		snprintf(b->design, sizeof(b->design), "%s", ul ? ul : c->variant);
	for (k = 0; k < TS_NR; k++)
		b->median[k] = b->mean[k] = NAN;
	b->median_sum = b->total_median_sum = NAN;
	b->syscall_mean = b->syscall_median = NAN;
	b->fio_mean = b->fio_p50 = b->outside = NAN;
	b->user = b->edge = b->total_mean = b->syscall_coverage_pct = NAN;
	b->coverage_pct = b->p50_coverage_pct = NAN;
	b->p50_untraced = b->cost_p50_ns = b->cost_p50_pct = NAN;
	b->mean_untraced = b->cost_mean_ns = b->cost_mean_pct = NAN;
	if (!v)
		return;
	/* Per rep, one array of nr_reps each. */
	med = v;
	mean = med + TS_NR * c->nr_reps;
	sys = mean + TS_NR * c->nr_reps;
	sysmed = sys + c->nr_reps;
	fm = sysmed + c->nr_reps;
	fp = fm + c->nr_reps;
	cov = fp + c->nr_reps;
	outside = cov + c->nr_reps;
	user = outside + c->nr_reps;
	edge = user + c->nr_reps;
	tot = edge + c->nr_reps;
	scov = tot + c->nr_reps;
	for (i = 0; i < c->nr_reps; i++) {
		const struct rep *r = &c->reps[i];
		const struct trace *t = r->trace;

		if (!rep_check(r, b))
			continue;
		for (k = 0; k < TS_NR; k++) {
			med[k * c->nr_reps + n] = t->median[k];
			mean[k * c->nr_reps + n] = t->mean[k];
		}
		sys[n] = t->syscall_mean;
		sysmed[n] = t->syscall_median;
		fm[n] = r->val[mmi];
		fp[n] = r->val[pmi];
		scov[n] = sys[n] / fm[n] * 100;
		outside[n] = fm[n] - sys[n];
		user[n] = r->user_ns;
		edge[n] = r->edge_ns;
		if (isnan(user[n]) || isnan(edge[n]))
			b->partial = 1;
		tot[n] = sys[n] + (isnan(user[n]) ? 0 : user[n]) +
			 (isnan(edge[n]) ? 0 : edge[n]);
		cov[n] = tot[n] / fm[n] * 100;
		b->ios += t->nr_io;
		b->neg_find += t->neg_find;
		for (k = 0; k < TA_NR; k++)
			b->at[k] += t->at[k];
		n++;
	}
	b->reps = n;
	if (b->status != BD_MISSING && n) {
		b->median_sum = 0;
		for (k = 0; k < TS_NR; k++) {
			b->median[k] = median(med + k * c->nr_reps, n);
			b->mean[k] = median(mean + k * c->nr_reps, n);
			if (!isnan(b->median[k]))
				b->median_sum += b->median[k];
		}
		b->syscall_mean = median(sys, n);
		b->syscall_median = median(sysmed, n);
		b->fio_mean = median(fm, n);
		b->fio_p50 = median(fp, n);
		b->coverage_pct = median(cov, n);
		b->syscall_coverage_pct = median(scov, n);
		b->outside = median(outside, n);
		b->total_mean = median(tot, n);
		if (!b->partial) {
			b->user = median(user, n);
			b->edge = median(edge, n);
		}
		b->total_median_sum = b->median_sum +
				      (b->partial ? 0 : b->user + b->edge);
		b->p50_coverage_pct = b->total_median_sum / b->fio_p50 * 100;
	}
	free(v);
	if (b->untraced && b->untraced->agg[pmi].n) {
		b->p50_untraced = b->untraced->agg[pmi].value;
		b->cost_p50_ns = c->agg[pmi].value - b->p50_untraced;
		b->cost_p50_pct = b->cost_p50_ns / b->p50_untraced * 100;
		b->mean_untraced = b->untraced->agg[mmi].value;
		b->cost_mean_ns = c->agg[mmi].value - b->mean_untraced;
		b->cost_mean_pct = b->cost_mean_ns / b->mean_untraced * 100;
	}
}

/* The traced cells of cond: by device latency, then label and workload. */
static int cmp_row(const void *a, const void *b)
{
	const struct cell *x = *(const struct cell *const *)a;
	const struct cell *y = *(const struct cell *const *)b;
	int ux = nullb_us(x->device), uy = nullb_us(y->device), d;

	if (ux != uy)
		return (ux > uy) - (ux < uy);
	d = strcmp(x->device, y->device);
	if (!d)
		d = strcmp(x->variant, y->variant);
	return d ? d : strcmp(x->workload, y->workload);
}

unsigned int bd_rows(const struct run *run, const char *cond,
		     const struct cell **out)
{
	unsigned int i, n = 0;

	for (i = 0; i < run->nr_cells; i++)
		if (!strcmp(run->cells[i]->condition, cond) &&
		    bd_traced(run, run->cells[i]))
			out[n++] = run->cells[i];
	qsort(out, n, sizeof(*out), cmp_row);
	return n;
}

/* Conditions with traced cells: "alone" first, then as they come. */
unsigned int bd_conds(const struct run *run, const char **out)
{
	unsigned int i, j, n = 0;

	for (i = 0; i < run->nr_cells; i++) {
		const char *cond = run->cells[i]->condition;

		if (!bd_traced(run, run->cells[i]))
			continue;
		for (j = 0; j < n && strcmp(out[j], cond); j++)
			;
		if (j < n)
			continue;
		if (!strcmp(cond, "alone")) {
			memmove(out + 1, out, n * sizeof(*out));
			out[0] = cond;
		} else {
			out[n] = cond;
		}
		n++;
	}
	return n;
}

/* The row's name: the design, with the workload if its label has several. */
void bd_row_name(const struct run *run, const struct bd_cell *b, char *buf,
		 size_t len)
{
	unsigned int i;

	for (i = 0; i < run->nr_cells; i++) {
		const struct cell *x = run->cells[i];

		if (!strcmp(x->variant, b->c->variant) &&
		    strcmp(x->workload, b->c->workload) && bd_traced(run, x)) {
			snprintf(buf, len, "%s/%s", b->design, b->c->workload);
			return;
		}
	}
	snprintf(buf, len, "%s", b->design);
}

int bd_applies(const struct run *run)
{
	unsigned int i;

	for (i = 0; i < run->nr_cells; i++)
		if (bd_traced(run, run->cells[i]))
			return 1;
	return 0;
}

/* A coverage (%) within BD_COVER_TOL_PCT of 100. */
int bd_covered(double pct)
{
	return !isnan(pct) && fabs(pct - 100) <= BD_COVER_TOL_PCT;
}

/* Warnings, once per run: cells without a usable breakdown, and why. */
void run_breakdown_check(struct run *run)
{
	struct bd_cell b;
	unsigned int i;

	for (i = 0; i < run->nr_cells; i++) {
		const struct cell *c = run->cells[i];

		if (!bd_traced(run, c))
			continue;
		bd_cell(run, c, &b);
		if (b.status != BD_OK)
			run_warn(run, "%s/%s: path breakdown %s: %s", c->variant,
				 c->name, b.status == BD_MISSING ? "missing" :
				 "invalid", b.reason);
		if (b.neg_find)
			run_warn(run, "%s/%s: %u I/Os completed before issue + the device's latency (negative find): the step model does not hold for them",
				 c->variant, c->name, b.neg_find);
		if (b.status == BD_OK && !bd_covered(b.coverage_pct))
			run_warn(run, "%s/%s: the breakdown (%s, mean %.0f ns) covers %.1f%% of fio's mean total latency (%.0f ns), outside 100 +- %.0f%%",
				 c->variant, c->name,
				 b.partial ? "the traced system call alone" :
				 "user + edge + the traced system call",
				 b.total_mean, b.coverage_pct, b.fio_mean,
				 BD_COVER_TOL_PCT);
		if (!b.untraced)
			run_warn(run, "%s/%s: no untraced label with the same settings: tracing's cost unknown",
				 c->variant, c->name);
	}
}
