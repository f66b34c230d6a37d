// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics over repetitions: a seeded percentile bootstrap, the
 * Mann-Whitney U test (exact permutation distribution on mid-ranks, ties
 * included, when there are at most MW_EXACT_MAX_SPLITS splits of the
 * pooled reps, otherwise the normal approximation with tie and
 * continuity correction), and Cliff's delta as effect size.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "stats.h"

/* Memory bound of the exact distribution's table (doubles). */
#define MW_EXACT_MAX_CELLS	(1u << 22)

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

/* The median of n values (mean of the middle two for even n); NAN if none. */
double median(const double *x, unsigned int n)
{
	double *s, m;

	if (!n)
		return NAN;
	s = malloc(n * sizeof(*s));
	if (!s)
		return NAN;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
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

/* The upper p quantile of Student's t with df degrees of freedom. */
double t_quantile(double p, unsigned int df)
{
	return df ? gsl_cdf_tdist_Pinv(p, df) : NAN;
}

/* Sample standard deviation (n - 1 in the denominator); NAN below 2. */
double sample_sd(const double *x, unsigned int n)
{
	double m = 0, ss = 0;
	unsigned int i;

	if (n < 2)
		return NAN;
	for (i = 0; i < n; i++)
		m += x[i];
	m /= n;
	for (i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	return sqrt(ss / (n - 1));
}

/*
 * The t-interval of level around center from the spread of the n per-rep
 * values x: center -+ t_{(1+level)/2, n-1} s / sqrt(n). One rep has no
 * spread: NAN (n/a).
 */
void t_interval(const double *x, unsigned int n, double center, double level,
		double *lo, double *hi)
{
	double hw;

	*lo = *hi = NAN;
	if (n < 2 || isnan(center))
		return;
	hw = t_quantile((1 + level) / 2, n - 1) * sample_sd(x, n) / sqrt(n);
	*lo = center - hw;
	*hi = center + hw;
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

/* C(n, k) as a double (exact far beyond MW_EXACT_MAX_SPLITS). */
double binomial(unsigned int n, unsigned int k)
{
	double r = 1;
	unsigned int i;

	if (k > n)
		return 0;
	if (k > n - k)
		k = n - k;
	for (i = 1; i <= k; i++)
		r = r * (n - k + i) / i;
	return floor(r + 0.5);
}

/*
 * The permutation distribution of twice the rank sum of the first group:
 * f[s] = number of ways to choose k of the n items (doubled mid-ranks
 * r2[], integers) whose r2 sum to s. The same as enumerating every split
 * of the pooled values into groups of k and n - k, in O(n k max(s)).
 */
static double *rank_sum_counts(const unsigned int *r2, unsigned int n,
			       unsigned int k, unsigned int smax)
{
	size_t stride = smax + 1;
	double *f = calloc((size_t)(k + 1) * stride, sizeof(*f));
	unsigned int i, j, s;

	if (!f)
		return NULL;
	f[0] = 1;	/* f[j * stride + s]: j items chosen, sum s */
	for (i = 0; i < n; i++)
		for (j = (i + 1 < k ? i + 1 : k); j > 0; j--)
			for (s = r2[i]; s <= smax; s++)
				f[j * stride + s] += f[(j - 1) * stride +
						       s - r2[i]];
	memmove(f, f + (size_t)k * stride, stride * sizeof(*f));
	return f;
}

/*
 * Two-sided p-value of H0 "x and y come from the same distribution".
 * *u is U of x: the number of pairs with x > y, ties counting 1/2.
 * Ranks are mid-ranks. When there are at most MW_EXACT_MAX_SPLITS ways to
 * split the pooled values into groups of nx and ny, p is exact: the
 * share of splits with |U - nx ny / 2| >= |u - nx ny / 2| under that
 * permutation distribution (ties included). Above, the normal
 * approximation with tie and continuity correction (*exact = false).
 */
double mann_whitney(const double *x, unsigned int nx, const double *y,
		    unsigned int ny, double *u, bool *exact)
{
	unsigned int i, j, n = nx + ny, *r2, rx2 = 0, rs2 = 0;
	unsigned int k = nx <= ny ? nx : ny, smax = n * (n + 1);
	double tie = 0, mu, sigma, z;
	struct ranked *r;

	*u = NAN;
	*exact = false;
	if (!nx || !ny)
		return NAN;
	r = calloc(n, sizeof(*r));
	r2 = calloc(n, sizeof(*r2));
	if (!r || !r2) {
		free(r);
		free(r2);
		return NAN;
	}
	for (i = 0; i < nx; i++)
		r[i] = (struct ranked){ x[i], 0 };
	for (i = 0; i < ny; i++)
		r[nx + i] = (struct ranked){ y[i], 1 };
	qsort(r, n, sizeof(*r), cmp_ranked);
	for (i = 0; i < n; i = j) {
		unsigned int mid2, t, m;

		for (j = i + 1; j < n && r[j].v == r[i].v; j++)
			;
		mid2 = i + 1 + j;	/* twice the mean of ranks i+1 .. j */
		t = j - i;
		tie += (double)t * t * t - t;
		for (m = i; m < j; m++) {
			r2[m] = mid2;
			if (!r[m].group)
				rx2 += mid2;
			/* The smaller group's doubled rank sum. */
			if (r[m].group == (nx <= ny ? 0 : 1))
				rs2 += mid2;
		}
	}
	free(r);
	*u = rx2 / 2.0 - nx * (nx + 1) / 2.0;

	/*
	 * Exact: U of the smaller group (size k) is R - k (k + 1) / 2, and
	 * |U - nx ny / 2| is the same for either group. Doubled to integers.
	 */
	if (binomial(n, nx) <= MW_EXACT_MAX_SPLITS &&
	    (size_t)(k + 1) * (smax + 1) <= MW_EXACT_MAX_CELLS) {
		long long off = (long long)k * (k + 1) + (long long)nx * ny;
		long long dobs = llabs((long long)rs2 - off);
		double *f = rank_sum_counts(r2, n, k, smax), hit = 0, all = 0;
		unsigned int s;

		if (f) {
			for (s = 0; s <= smax; s++) {
				all += f[s];
				if (llabs((long long)s - off) >= dobs)
					hit += f[s];
			}
			free(f);
			free(r2);
			*exact = true;
			return hit / all;
		}
	}
	free(r2);
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

/*
 * Holm's step-down adjustment of the n p-values p[] (NAN entries are not
 * tests and stay NAN): with the m real ones sorted ascending, adj(i) =
 * max over j <= i of min(1, (m - j + 1) p(j)).
 */
void holm_adjust(const double *p, unsigned int n, double *adj)
{
	unsigned int *ord = calloc(n + 1, sizeof(*ord)), i, j, m = 0;
	double run = 0;

	for (i = 0; i < n; i++)
		adj[i] = NAN;
	if (!ord)
		return;
	for (i = 0; i < n; i++)
		if (!isnan(p[i]))
			ord[m++] = i;
	/* Insertion sort by p, ties in input order: m is small enough. */
	for (i = 1; i < m; i++)
		for (j = i; j > 0 && p[ord[j - 1]] > p[ord[j]]; j--) {
			unsigned int t = ord[j];

			ord[j] = ord[j - 1];
			ord[j - 1] = t;
		}
	for (i = 0; i < m; i++) {
		double a = fmin(1, (m - i) * p[ord[i]]);

		run = fmax(run, a);
		adj[ord[i]] = run;
	}
	free(ord);
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
