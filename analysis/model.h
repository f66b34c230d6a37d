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
#include "opts.h"
#include "timing.h"
#include "trace.h"
#include "warn.h"

struct rep {
	char *dir;
	unsigned int num;
	struct hist *lat;	/* NULL without fio.json (competitor-only) */
	struct hist *tlat;	/* total latency; NULL without lat_ns.bins */
	double lat_min_ns;	/* fio's exact lat_ns.min (else clat), or NAN */
	struct cyclic *cyc;	/* NULL without cyclictest.txt */
	struct trace *trace;	/* NULL without trace.txt.gz */
	/* Outside the tracepoints (trace:1), NAN without their files: */
	double user_ns;		/* fio-null.json: fio's own code, mean */
	double edge_ns;		/* syscall-edge.txt minus its traced part */
	double win_ios;		/* Δdev_ios over the window, else fio's total_ios */
	json_t *meta;
	double val[MAX_MINST];	/* NAN when the rep has no such data */
};

struct aggval {
	double value;		/* percentiles, cyclictest max: median of the reps' */
	double lo, hi;		/* 95% CI over reps (aggregate.c) */
	double pooled;		/* agg_has_pooled(): over all reps pooled */
	unsigned int n;		/* reps that have the metric */
	bool lower;		/* value is a lower bound (cyclictest overflows) */
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
	struct warnings warn;
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
#define run_warn(run, ...) warn_add(&(run)->warn, __VA_ARGS__)
struct cell *run_find(const struct run *run, const char *variant,
		      const char *cell);
const char *cell_kernel_variant(const struct cell *c);
int run_lat_mi(const struct run *run, const char *stat);
const char *run_lat_note(const struct run *run);
const struct hist *rep_hist(const struct rep *r, const struct metric *m);
const struct hist *cell_hist(const struct cell *c, const struct metric *m);
const struct cell *cell_baseline(const struct run *run, const struct cell *c);
char *cell_compose(const char *workload, const char *cond,
		   const char *device);

/* rep.c */
int rep_load(struct run *run, struct rep *rep, const char *dir,
	     const char *condition, const char *device);
int cond_no_fio(const char *condition);
void rep_free(struct rep *rep);
int rep_values(const struct cell *c, unsigned int mi, double *out);

#endif
