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
 * to N / (3 x 2^shift) there; both are printed. This file computes the
 * points; crossover_out.c and crossover_plot.c render them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "crossover.h"
#include "device.h"
#include "fair.h"

int xo_in(const struct cell *c)
{
	return nullb_us(c->device) >= 0 && c->merged.n;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Sorted distinct N over every condition. */
unsigned int xo_devices(const struct run *run, int *pts)
{
	unsigned int i, j, n = 0;

	for (i = 0; i < run->nr_cells; i++) {
		int us = nullb_us(run->cells[i]->device);

		if (!xo_in(run->cells[i]))
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
int xo_first_of(const struct run *run, unsigned int i, int design)
{
	const struct cell *c = run->cells[i];
	unsigned int j;

	for (j = 0; j < i; j++) {
		const struct cell *x = run->cells[j];

		if (xo_in(x) && !strcmp(x->condition, c->condition) &&
		    (!design || (!strcmp(x->variant, c->variant) &&
				 !strcmp(x->workload, c->workload))))
			return 0;
	}
	return 1;
}

const struct cell *xo_cell(const struct run *run, const char *variant,
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

void xo_point(const struct run *run, const struct cell *c, int us,
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

double xo_val(const struct cell *c, const char *key)
{
	int mi = minst_find(key);

	return c && mi >= 0 && c->agg[mi].n ? c->agg[mi].value : NAN;
}

/* The headline condition: "alone" if any, else the first one. */
const char *xo_headline_cond(const struct run *run)
{
	unsigned int i;
	const char *first = NULL;

	for (i = 0; i < run->nr_cells; i++) {
		if (!xo_in(run->cells[i]))
			continue;
		if (!strcmp(run->cells[i]->condition, "alone"))
			return "alone";
		if (!first)
			first = run->cells[i]->condition;
	}
	return first;
}

void xo_gains(const struct run *run, const struct cell *d,
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

int xo_is_ref(const struct run *run, const struct cell *d)
{
	const struct cell *r = fair_psync_ref(run, d);

	return r == d;
}

/* The run has valid @nullb-<N>us cells: the crossover is its headline. */
int crossover_applies(const struct run *run)
{
	return xo_headline_cond(run) != NULL;
}

