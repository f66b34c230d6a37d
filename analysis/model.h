/* SPDX-License-Identifier: GPL-2.0 */
/*
 * In-memory form of one run: variants x cells x reps, the per-rep metric
 * values and the aggregates over reps.
 */
#ifndef PB_MODEL_H
#define PB_MODEL_H

#include <jansson.h>

#include "cond.h"
#include "hist.h"
#include "metrics.h"
#include "timing.h"

struct rep {
	char *dir;
	unsigned int num;
	struct hist *lat;	/* NULL without fio.json (competitor-only) */
	struct hist *tlat;	/* total latency; NULL without lat_ns.bins */
	double lat_min_ns;	/* fio's exact lat_ns.min (else clat), or NAN */
	struct cyclic *cyc;	/* NULL without cyclictest.txt */
	json_t *meta;
	double val[MAX_MINST];	/* NAN when the rep has no such data */
};

struct aggval {
	double value;		/* latency percentiles: median of the reps' */
	double lo, hi;		/* 95% CI over reps (aggregate.c) */
	double pooled;		/* AGG_HIST_PCT: of the bins merged over reps */
	unsigned int n;		/* reps that have the metric */
};

struct cell {
	char *variant;		/* the label: RUN_DIR/<variant>/ */
	char *name;		/* <workload>@<condition> */
	char *workload;
	char *condition;
	char *device;		/* "" for the emulated NVMe disk */
	struct rep *reps;
	unsigned int nr_reps;
	struct hist merged;
	struct hist tmerged;	/* total latency merged over reps */
	struct cyclic cyc;	/* cyclictest buckets merged over reps */
	struct aggval agg[MAX_MINST];
	struct timing timing;	/* the same in every rep (else refused) */
	char *invalid_reason;	/* set: in run->invalid, not in run->cells */
};

struct run {
	char *dir;
	json_t *runjson;	/* run.json, NULL when absent */
	const char *base_variant;	/* the baseline label used */
	struct cell **cells;
	unsigned int nr_cells;
	char **variants;	/* baseline first */
	unsigned int nr_variants;
	char **warnings;
	unsigned int nr_warnings;
	unsigned int boots_ok;
	char **boots_failed;	/* "<boot-id>: <status>" */
	unsigned int nr_boots_failed;
	struct timing timing;	/* the same in every cell (else refused) */
	int has_tlat;		/* every fio rep has total-latency bins */
	struct cell **invalid;	/* cells left out of every table and plot */
	unsigned int nr_invalid;
	char timing_label[96];	/* timing_label() of it */
	unsigned char primary[MAX_MINST];	/* signif.c */
	struct holm_entry *holm;	/* secondary tests of the report */
	unsigned int nr_holm;
};

/* One secondary comparison of the report and its Holm-adjusted p. */
struct holm_entry {
	const struct cell *base, *c;
	unsigned int mi;
	double p, p_holm;
};

/* rundir.c */
int run_load(struct run *run, const char *dir, const char *base_variant);
void run_free(struct run *run);
void run_warn(struct run *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
struct cell *run_find(const struct run *run, const char *variant,
		      const char *cell);
const char *cell_kernel_variant(const struct cell *c);
int run_lat_mi(const struct run *run, const char *stat);
const char *run_lat_note(const struct run *run);
const struct hist *rep_hist(const struct rep *r, const struct metric *m);
const struct hist *cell_hist(const struct cell *c, const struct metric *m);

/* rep.c */
int rep_load(struct run *run, struct rep *rep, const char *dir,
	     const char *condition);
int cond_no_fio(const char *condition);
void rep_free(struct rep *rep);
int rep_values(const struct cell *c, unsigned int mi, double *out);

/* fair.c */
void fair_link(struct run *run);

/* summary.c */
struct opts {
	const char *run_dir;
	const char *out_dir;
	uint64_t seed;
	unsigned int resamples;
	const char *base_variant;
	char **base_cells;	/* --baseline VARIANT/CELL */
	unsigned int nr_base_cells;
	int validate;
	int no_plots;
	const char *fair_ref;	/* --fair-ref [VARIANT/]WORKLOAD, or NULL */
};

struct cmp {
	double change_pct;	/* normalised: positive = better */
	double p;		/* Mann-Whitney two-sided; NAN: direction none */
	double p_holm;		/* secondary metrics: Holm over the report */
	int primary;
	double cliff;		/* Cliff's delta, positive = better */
	int exact;
	int significant;
	int valid;
};

int run_aggregate(struct run *run, const struct opts *o);
void compare(const struct run *run, const struct cell *base,
	     const struct cell *c, unsigned int mi, struct cmp *out);
double compare_p(const struct cell *base, const struct cell *c,
		 unsigned int mi, int *exact);
int run_significance(struct run *run, const struct opts *o);
const struct cell *cell_baseline(const struct run *run, const struct cell *c);
/*
 * summary.json's schema: bump when keys change. 2: latency percentiles
 * as medians over boots with _pooled, t-interval CIs, _p_value_holm,
 * _primary, primary_metrics, holm_tests, ci_method, significance_rule.
 */
#define SUMMARY_FORMAT_VERSION 2

json_t *summary_json(const struct run *run, const struct opts *o);
int summary_validate(json_t *want, json_t *got);
int summary_diff(json_t *want, json_t *got, const char *path);

#endif
