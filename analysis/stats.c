// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics over repetitions: a seeded percentile bootstrap for
 * confidence intervals, the Mann-Whitney U test (exact when both groups
 * have at most MW_EXACT_MAX_N reps and there are no ties, otherwise the
 * normal approximation with tie and continuity correction), and Cliff's
 * delta as effect size.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* splitmix64: tiny, portable, and the same sequence everywhere. */
uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	r->s = seed;
}

/* Unbiased: reject the top partial range. */
unsigned int rng_below(struct rng *r, unsigned int n)
{
	uint64_t lim = UINT64_MAX - UINT64_MAX % n, v;

	do {
		v = rng_next(r);
	} while (v >= lim);
	return v % n;
}

/*
 * FNV-1a of a string folded into the seed: each (cell, metric) gets its
 * own stream, so results do not depend on the order of evaluation.
 */
uint64_t seed_mix(uint64_t seed, const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ seed;

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* Linear interpolation between order statistics (R's type 7). */
double quantile_sorted(const double *x, unsigned int n, double q)
{
	double h, lo;
	unsigned int i;

	if (!n)
		return NAN;
	h = (n - 1) * q;
	lo = floor(h);
	i = (unsigned int)lo;
	if (i + 1 >= n)
		return x[n - 1];
	return x[i] + (h - lo) * (x[i + 1] - x[i]);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int bootstrap_ci(unsigned int nreps, unsigned int resamples, uint64_t seed,
		 boot_stat_fn stat, void *ctx, double level, double *lo,
		 double *hi)
{
	unsigned int *w, b, i;
	double *est;
	struct rng r;

	*lo = *hi = NAN;
	if (!nreps || !resamples)
		return 0;
	w = calloc(nreps, sizeof(*w));
	est = calloc(resamples, sizeof(*est));
	if (!w || !est) {
		free(w);
		free(est);
		return -1;
	}
	rng_seed(&r, seed);
	for (b = 0; b < resamples; b++) {
		memset(w, 0, nreps * sizeof(*w));
		for (i = 0; i < nreps; i++)
			w[rng_below(&r, nreps)]++;
		est[b] = stat(w, nreps, ctx);
	}
	qsort(est, resamples, sizeof(*est), cmp_double);
	*lo = quantile_sorted(est, resamples, (1 - level) / 2);
	*hi = quantile_sorted(est, resamples, 1 - (1 - level) / 2);
	free(w);
	free(est);
	return 0;
}

/* ctx: const double[n] per-rep values. */
double weighted_mean(const unsigned int *w, unsigned int n, void *ctx)
{
	const double *x = ctx;
	double sum = 0;
	unsigned int i, cnt = 0;

	for (i = 0; i < n; i++) {
		sum += w[i] * x[i];
		cnt += w[i];
	}
	return cnt ? sum / cnt : NAN;
}

double weighted_max(const unsigned int *w, unsigned int n, void *ctx)
{
	const double *x = ctx;
	double max = NAN;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (w[i] && (isnan(max) || x[i] > max))
			max = x[i];
	return max;
}

struct ranked {
	double v;
	int group;
};

static int cmp_ranked(const void *a, const void *b)
{
	return cmp_double(&((const struct ranked *)a)->v,
			  &((const struct ranked *)b)->v);
}

/* Number of orderings of m x's and n y's with U = u, for all u. */
static double *mw_counts(unsigned int m, unsigned int n)
{
	unsigned int a, b, u, umax = m * n, stride = umax + 1;
	double *f = calloc((size_t)(m + 1) * (n + 1) * stride, sizeof(*f));

#define F(a, b, u) f[((size_t)(a) * (n + 1) + (b)) * stride + (u)]
	if (!f)
		return NULL;
	for (a = 0; a <= m; a++) {
		for (b = 0; b <= n; b++) {
			if (!a || !b) {
				F(a, b, 0) = 1;
				continue;
			}
			/* The largest value is an x (beats all b y's) or a y. */
			for (u = 0; u <= a * b; u++)
				F(a, b, u) = (u >= b ? F(a - 1, b, u - b) : 0) +
					     F(a, b - 1, u);
		}
	}
	memmove(f, &F(m, n, 0), stride * sizeof(*f));
#undef F
	return f;
}

/*
 * Two-sided p-value of H0 "x and y come from the same distribution".
 * *u is U of x: the number of pairs with x > y, ties counting 1/2.
 */
double mann_whitney(const double *x, unsigned int nx, const double *y,
		    unsigned int ny, double *u, bool *exact)
{
	unsigned int i, j, n = nx + ny;
	double rx = 0, tie = 0, mu, sigma, z, p;
	struct ranked *r;
	bool ties = false;

	*u = NAN;
	*exact = false;
	if (!nx || !ny)
		return NAN;
	r = calloc(n, sizeof(*r));
	if (!r)
		return NAN;
	for (i = 0; i < nx; i++)
		r[i] = (struct ranked){ x[i], 0 };
	for (i = 0; i < ny; i++)
		r[nx + i] = (struct ranked){ y[i], 1 };
	qsort(r, n, sizeof(*r), cmp_ranked);
	for (i = 0; i < n; i = j) {
		double mid, t;

		for (j = i + 1; j < n && r[j].v == r[i].v; j++)
			;
		mid = (i + 1 + j) / 2.0;	/* mean of ranks i+1 .. j */
		t = j - i;
		if (t > 1) {
			ties = true;
			tie += t * t * t - t;
		}
		for (; i < j; i++)
			if (!r[i].group)
				rx += mid;
		i = j;
	}
	free(r);
	*u = rx - nx * (nx + 1) / 2.0;

	if (!ties && nx <= MW_EXACT_MAX_N && ny <= MW_EXACT_MAX_N) {
		double *f = mw_counts(nx, ny), total = 0, below = 0;
		unsigned int k, uu = (unsigned int)*u;

		if (f) {
			for (k = 0; k <= nx * ny; k++) {
				total += f[k];
				if (k <= uu)
					below += f[k];
			}
			/* The distribution is symmetric about nx*ny/2. */
			if (uu * 2 > nx * ny) {
				below = 0;
				for (k = 0; k <= nx * ny - uu; k++)
					below += f[k];
			}
			free(f);
			*exact = true;
			p = 2 * below / total;
			return p > 1 ? 1 : p;
		}
	}
	mu = nx * ny / 2.0;
	sigma = sqrt(nx * ny / 12.0 * ((n + 1) - tie / ((double)n * (n - 1))));
	if (sigma == 0)
		return 1;
	z = fabs(*u - mu) - 0.5;
	if (z < 0)
		z = 0;
	z /= sigma;
	return erfc(z / sqrt(2));
}

/* P(x > y) - P(x < y) over all pairs. */
double cliffs_delta(const double *x, unsigned int nx, const double *y,
		    unsigned int ny)
{
	long long s = 0;
	unsigned int i, j;

	if (!nx || !ny)
		return NAN;
	for (i = 0; i < nx; i++)
		for (j = 0; j < ny; j++)
			s += (x[i] > y[j]) - (x[i] < y[j]);
	return (double)s / ((double)nx * ny);
}
