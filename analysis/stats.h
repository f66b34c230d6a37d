/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_STATS_H
#define PB_STATS_H

#include <stdbool.h>
#include <stdint.h>

#define DEFAULT_SEED		20261203ULL
#define DEFAULT_RESAMPLES	2000
#define SIGNIFICANCE_ALPHA	0.05
#define CI_LEVEL		0.95
/* Exact Mann-Whitney p when C(nx + ny, nx) is at most this. */
#define MW_EXACT_MAX_SPLITS	200000

struct rng {
	uint64_t s;
};

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
unsigned int rng_below(struct rng *r, unsigned int n);
uint64_t seed_mix(uint64_t seed, const char *s);

double median(const double *x, unsigned int n);
double quantile_sorted(const double *x, unsigned int n, double q);

/*
 * stat() computes the statistic of a resample given as a multiplicity per
 * rep (w[i] = how often rep i was drawn; sum of w = nreps).
 */
typedef double (*boot_stat_fn)(const unsigned int *w, unsigned int nreps,
			       void *ctx);
int bootstrap_ci(unsigned int nreps, unsigned int resamples, uint64_t seed,
		 boot_stat_fn stat, void *ctx, double level, double *lo,
		 double *hi);
double t_quantile(double p, unsigned int df);
double sample_sd(const double *x, unsigned int n);
void t_interval(const double *x, unsigned int n, double center, double level,
		double *lo, double *hi);
double weighted_mean(const unsigned int *w, unsigned int n, void *ctx);
double weighted_max(const unsigned int *w, unsigned int n, void *ctx);

double mann_whitney(const double *x, unsigned int nx, const double *y,
		    unsigned int ny, double *u, bool *exact);
double binomial(unsigned int n, unsigned int k);
void holm_adjust(const double *p, unsigned int n, double *adj);
double cliffs_delta(const double *x, unsigned int nx, const double *y,
		    unsigned int ny);

#endif
