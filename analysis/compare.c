// SPDX-License-Identifier: GPL-2.0
/*
 * A cell against its baseline on one metric: the change (positive =
 * better), the Mann-Whitney p over per-rep values, its Holm-adjusted p
 * for secondary metrics (signif.c) and Cliff's delta. Significant: a
 * primary metric with p < alpha, a secondary one with Holm p < alpha;
 * metrics whose direction is none are not tested (p NAN).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "stats.h"

/* The raw two-sided p of mi, c against base; NAN without values. */
double compare_p(const struct cell *base, const struct cell *c,
		 unsigned int mi, int *exact)
{
	double *x = calloc(c->nr_reps + 1, sizeof(*x));
	double *y = calloc(base->nr_reps + 1, sizeof(*y));
	double p = NAN, u;
	bool ex = false;

	if (x && y)
		p = mann_whitney(x, rep_values(c, mi, x), y,
				 rep_values(base, mi, y), &u, &ex);
	free(x);
	free(y);
	if (exact)
		*exact = ex;
	return p;
}

static double holm_of(const struct run *run, const struct cell *base,
		      const struct cell *c, unsigned int mi)
{
	unsigned int i;

	for (i = 0; run && i < run->nr_holm; i++)
		if (run->holm[i].mi == mi && run->holm[i].base == base &&
		    run->holm[i].c == c)
			return run->holm[i].p_holm;
	return NAN;
}

void compare(const struct run *run, const struct cell *base,
	     const struct cell *c, unsigned int mi, struct cmp *out)
{
	const struct metric *m = minsts[mi].m;
	double b = base->agg[mi].value, v = c->agg[mi].value;
	double *x, *y;
	unsigned int nx, ny;
	int sign = m->better == BETTER_LOWER ? -1 : 1;

	memset(out, 0, sizeof(*out));
	out->change_pct = out->p = out->p_holm = out->cliff = NAN;
	out->primary = run && run->primary[mi];
	if (isnan(b) || isnan(v))
		return;
	out->valid = 1;
	if (b != 0)
		out->change_pct = sign * (v - b) / fabs(b) * 100 + 0.0;
	else if (v == 0)
		out->change_pct = 0;
	if (m->agg == AGG_SUM)
		return;
	x = calloc(c->nr_reps + 1, sizeof(*x));
	y = calloc(base->nr_reps + 1, sizeof(*y));
	if (x && y) {
		nx = rep_values(c, mi, x);
		ny = rep_values(base, mi, y);
		out->cliff = sign * cliffs_delta(x, nx, y, ny);
	}
	free(x);
	free(y);
	if (m->better == BETTER_NONE)
		return;		/* descriptive: no test, no star */
	out->p = compare_p(base, c, mi, &out->exact);
	if (out->primary) {
		out->significant = out->p < SIGNIFICANCE_ALPHA;
		return;
	}
	out->p_holm = holm_of(run, base, c, mi);
	out->significant = out->p_holm < SIGNIFICANCE_ALPHA;
}
