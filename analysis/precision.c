// SPDX-License-Identifier: GPL-2.0
/*
 * Precision of the headline number: for every QD1 cell run alone (the
 * workload has a "qd1" component, the condition is "alone"), the 95 %
 * CI half-width of lat p50 (clat p50 in a run without total-latency
 * bins) as a percentage of the value, whether it meets the target
 * (PRECISION_TARGET_PCT), and how many boots would meet it: the CI is a
 * t-interval, half-width t_{0.975, n-1} s / sqrt(n), so the smallest m
 * with t_{0.975, m-1} s / sqrt(m) / value <= target, searched upward.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "precision.h"
#include "stats.h"

double precision_hw_pct(const struct aggval *a)
{
	if (!a->n || isnan(a->value) || isnan(a->lo) || isnan(a->hi) ||
	    a->value == 0)
		return NAN;
	return (a->hi - a->lo) / 2 / fabs(a->value) * 100;
}

/*
 * The boots the target needs: the half-width is t_{0.975, n-1} s / sqrt(n),
 * so the relative sd s / value is hw x sqrt(n) / t_{0.975, n-1}; the
 * smallest m with t_{0.975, m-1} (s / value) / sqrt(m) <= target. t > z,
 * so the search starts at the normal-theory bound (z s / value / target)^2.
 */
unsigned int precision_reps_needed(unsigned int n, double hw_pct,
				   double target_pct)
{
	double q = (1 + CI_LEVEL) / 2, rsd, start;
	unsigned int m;

	if (n < 2 || isnan(hw_pct) || target_pct <= 0)
		return 0;	/* one boot has no spread to scale */
	if (hw_pct <= target_pct)
		return n;
	rsd = hw_pct * sqrt(n) / t_quantile(q, n - 1);
	start = floor(pow(1.959963984540054 * rsd / target_pct, 2));
	m = start > n + 1 ? (start > 1e6 ? 1000000 : (unsigned int)start) :
			     n + 1;
	for (; m < 1000000; m++)
		if (t_quantile(q, m - 1) * rsd / sqrt(m) <= target_pct)
			return m;
	return 1000000;
}

/* True if one "-"-separated component of the workload is "qd1". */
static int is_qd1(const char *workload)
{
	const char *p = workload;
	size_t len = strlen(workload);

	while ((p = strstr(p, "qd1"))) {
		int start = p == workload || p[-1] == '-';
		int end = p + 3 == workload + len || p[3] == '-';

		if (start && end)
			return 1;
		p += 3;
	}
	return 0;
}

unsigned int precision_rows(const struct run *run, struct prec_row **out)
{
	int mi = run_lat_mi(run, "p50");
	struct prec_row *rows;
	unsigned int i, n = 0;

	*out = NULL;
	if (mi < 0)
		return 0;
	rows = calloc(run->nr_cells ? run->nr_cells : 1, sizeof(*rows));
	if (!rows)
		return 0;
	for (i = 0; i < run->nr_cells; i++) {
		const struct cell *c = run->cells[i];
		const struct aggval *a = &c->agg[mi];
		struct prec_row *r = &rows[n];

		if (!a->n || strcmp(c->condition, "alone") ||
		    !is_qd1(c->workload))
			continue;
		r->c = c;
		r->value = a->value;
		r->lo = a->lo;
		r->hi = a->hi;
		r->n = a->n;
		r->hw_pct = precision_hw_pct(a);
		r->met = r->n >= 2 && r->hw_pct <= PRECISION_TARGET_PCT;
		r->need = precision_reps_needed(r->n, r->hw_pct,
						PRECISION_TARGET_PCT);
		n++;
	}
	*out = rows;
	return n;
}

