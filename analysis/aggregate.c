// SPDX-License-Identifier: GPL-2.0
/*
 * Aggregate the reps of every cell: per metric the cell value and its
 * 95 % CI. The CI is a t-interval on the per-rep values, value -+
 * t_{0.975, n-1} s / sqrt(n): around the mean for mean-aggregated
 * metrics, around the cell value for latency and cyclictest percentiles,
 * cyclictest's maximum and histogram means. One boot, one vote: a latency
 * percentile's cell value, the primary estimator, is the median of the
 * per-rep percentiles, each from its rep's own bins, and so are
 * cyclictest's percentiles (each from its rep's own buckets) and its
 * maximum (each rep's "# Max Latencies"); the value of all reps pooled
 * (percentile of the merged bins or buckets, max over reps) is kept
 * beside it as "pooled". Maxima of the bins keep a seeded percentile
 * bootstrap over reps (descriptive). One rep: no interval.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "aggregate.h"
#include "stats.h"

static uint64_t cell_seed(const struct opts *o, const struct cell *c,
			  const char *key)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s/%s/%s", c->variant, c->name, key);
	return seed_mix(o->seed, buf);
}

/*
 * A rep's cyclictest percentile among its overflows is its range, a lower
 * bound; the median of n such values is one too when the upper middle
 * value is, i.e. when at least half of them are at or above the range.
 */
bool cyc_median_censored(const double *vals, unsigned int n,
			 unsigned int range)
{
	unsigned int i, k = 0;

	for (i = 0; range && i < n; i++)
		if (vals[i] >= range)
			k++;
	return n && 2 * k >= n;
}

static double max_of(const double *vals, unsigned int n)
{
	double m = vals[0];
	unsigned int i;

	for (i = 1; i < n; i++)
		if (vals[i] > m)
			m = vals[i];
	return m;
}

static int aggregate_cell(struct cell *c, const struct opts *o)
{
	double *vals = calloc(c->nr_reps + 1, sizeof(*vals));
	unsigned int mi, i;

	if (!vals)
		return -1;
	for (mi = 0; mi < nr_minsts; mi++) {
		const struct metric *m = minsts[mi].m;
		struct aggval *a = &c->agg[mi];
		unsigned int n = rep_values(c, mi, vals);
		double sum = 0;

		a->n = n;
		a->value = a->lo = a->hi = a->pooled = NAN;
		a->lower = false;
		if (!n)
			continue;
		for (i = 0; i < n; i++)
			sum += vals[i];
		switch (m->agg) {
		case AGG_SUM:
			a->value = sum;
			continue;
		case AGG_MEAN:
			a->value = sum / n;
			break;
		case AGG_HIST_MAX:
			/* A rep's max bin is its own; merged = max of them. */
			a->value = hist_max(cell_hist(c, m));
			if (bootstrap_ci(n, o->resamples,
					 cell_seed(o, c, minsts[mi].key),
					 weighted_max, vals, CI_LEVEL, &a->lo,
					 &a->hi)) {
				free(vals);
				return -1;
			}
			continue;
		case AGG_CYC_PCT:
			/* One boot, one vote, as for latency percentiles. */
			a->value = median(vals, n);
			a->pooled = cyclic_percentile(&c->cyc, m->pct);
			a->lower = cyc_median_censored(vals, n, c->cyc.range);
			break;
		case AGG_MAX_MEDIAN:
			a->value = median(vals, n);
			a->pooled = max_of(vals, n);
			break;
		case AGG_HIST_PCT:
			/* One boot, one vote: the median of per-rep values. */
			a->value = median(vals, n);
			a->pooled = hist_percentile(cell_hist(c, m), m->pct);
			break;
		case AGG_HIST_MEAN:
			a->value = hist_mean(cell_hist(c, m));
			break;
		}
		t_interval(vals, n, a->value, CI_LEVEL, &a->lo, &a->hi);
	}
	free(vals);
	return 0;
}

int run_aggregate(struct run *run, const struct opts *o)
{
	unsigned int i;

	for (i = 0; i < run->nr_cells + run->nr_invalid; i++)
		if (aggregate_cell(i < run->nr_cells ? run->cells[i] :
				   run->invalid[i - run->nr_cells], o)) {
			fprintf(stderr, "out of memory\n");
			return -1;
		}
	return 0;
}
