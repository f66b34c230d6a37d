// SPDX-License-Identifier: GPL-2.0
/*
 * A cell against its baseline on one metric: the change (positive =
 * better), the Mann-Whitney p over per-rep values and Cliff's delta.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "stats.h"

void compare(const struct cell *base, const struct cell *c, unsigned int mi,
	     struct cmp *out)
{
	const struct metric *m = minsts[mi].m;
	double b = base->agg[mi].value, v = c->agg[mi].value, u;
	double *x, *y;
	unsigned int nx, ny;
	bool exact;
	int sign = m->better == BETTER_LOWER ? -1 : 1;

	memset(out, 0, sizeof(*out));
	out->change_pct = out->p = out->cliff = NAN;
	if (isnan(b) || isnan(v))
		return;
	out->valid = 1;
	if (b != 0)
		out->change_pct = sign * (v - b) / fabs(b) * 100 + 0.0;
	else if (v == 0)
		out->change_pct = 0;
	if (m->agg == AGG_SUM)
		return;
	x = calloc(c->nr_reps, sizeof(*x));
	y = calloc(base->nr_reps, sizeof(*y));
	if (x && y) {
		nx = rep_values(c, mi, x);
		ny = rep_values(base, mi, y);
		out->p = mann_whitney(x, nx, y, ny, &u, &exact);
		out->exact = exact;
		out->cliff = sign * cliffs_delta(x, nx, y, ny);
		out->significant = out->p < SIGNIFICANCE_ALPHA;
	}
	free(x);
	free(y);
}

