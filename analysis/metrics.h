/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one declaration of every metric: key (flat, unit in the name),
 * label, unit, which direction is better and how reps are aggregated.
 * Tables, plots, summary.json, summary.csv and the tests read it.
 */
#ifndef PB_METRICS_H
#define PB_METRICS_H

#include <stdbool.h>

enum better {
	BETTER_LOWER,
	BETTER_HIGHER,
	BETTER_NONE,		/* descriptive: change shown, not normalised */
};

enum agg {
	AGG_MEAN,		/* mean of per-rep values */
	AGG_SUM,		/* sum over reps (sample counts); no CI */
	AGG_HIST_PCT,		/* median over reps of each rep's percentile */
	AGG_HIST_MEAN,		/* mean of the merged histogram */
	AGG_HIST_MAX,		/* highest non-empty bin of the merged histogram */
	AGG_CYC_PCT,		/* median over reps of each rep's cyclictest percentile */
	AGG_MAX_MEDIAN,		/* median over reps of each rep's own maximum */
};

#define M_LATENCY	0x1	/* latency percentile curve / bars */
#define M_CPU		0x2	/* CPU-per-I/O bars */
#define M_FAMILY	0x4	/* key is a pattern: one metric per name found */
#define M_SAMPLES	0x8	/* sample count shown next to tail latencies */
#define M_OVERFLOW	0x10	/* value >= the cell's cyclictest range: ">=" */
#define M_TOTAL		0x20	/* AGG_HIST_*: of the total-latency bins (lat_ns) */

struct metric {
	const char *key;	/* e.g. "clat_p99_ns"; "kprobe_%s_per_io" */
	const char *label;
	const char *unit;
	enum better better;
	enum agg agg;
	double pct;		/* AGG_HIST_PCT and AGG_CYC_PCT only */
	unsigned int flags;
};

#define MAX_MINST	256

/* A metric instance: a declared metric, or one member of a family. */
struct minst {
	char key[128];
	char label[128];
	const struct metric *m;
};

extern const char *const primary_metrics[][2];
extern const unsigned int nr_primary_metrics;
int metric_primary(const char *key, int (*has)(const char *key,
					       const void *ctx),
		   const void *ctx);

extern const struct metric metrics[];
extern const unsigned int nr_metrics;
extern struct minst minsts[MAX_MINST];
extern unsigned int nr_minsts;

void metrics_init(void);
int minst_find(const char *key);
int minst_family(const char *family_key, const char *name);
const char *better_str(enum better b);
const char *agg_str(enum agg a);
bool agg_has_pooled(enum agg a);

#endif
