// SPDX-License-Identifier: GPL-2.0
/*
 * The metric declaration table. Add a metric here and every output
 * picks it up; the code computing it sets it by key (rep.c).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"

const struct metric metrics[] = {
	{ .key = "iops", .label = "IOPS",
	  .unit = "ops/s", .better = BETTER_HIGHER, .agg = AGG_MEAN },
	/* Total latency, submission to completion (fio lat_ns.bins). */
	{ .key = "lat_mean_ns", .label = "lat mean",
	  .unit = "ns", .better = BETTER_LOWER, .agg = AGG_HIST_MEAN,
	  .flags = M_LATENCY | M_TOTAL },
	{ .key = "lat_p50_ns", .label = "lat p50",
	  .unit = "ns", .better = BETTER_LOWER, .agg = AGG_HIST_PCT,
	  .pct = 50, .flags = M_LATENCY | M_TOTAL },
	{ .key = "lat_p90_ns", .label = "lat p90",
	  .unit = "ns", .better = BETTER_LOWER, .agg = AGG_HIST_PCT,
	  .pct = 90, .flags = M_LATENCY | M_TOTAL },
	{ .key = "lat_p99_ns", .label = "lat p99",
	  .unit = "ns", .better = BETTER_LOWER, .agg = AGG_HIST_PCT,
	  .pct = 99, .flags = M_LATENCY | M_TOTAL },
	{ .key = "lat_p99_9_ns", .label = "lat p99.9",
	  .unit = "ns", .better = BETTER_LOWER, .agg = AGG_HIST_PCT,
	  .pct = 99.9, .flags = M_LATENCY | M_TOTAL },
	{ .key = "lat_max_ns", .label = "lat max (bin)",
	  .unit = "ns", .better = BETTER_LOWER, .agg = AGG_HIST_MAX,
	  .flags = M_LATENCY | M_TOTAL },
	{ .key = "clat_mean_ns", .label = "clat mean",
	  .unit = "ns", .better = BETTER_LOWER, .agg = AGG_HIST_MEAN,
	  .flags = M_LATENCY },
	{ .key = "clat_p50_ns", .label = "clat p50",
	  .unit = "ns", .better = BETTER_LOWER, .agg = AGG_HIST_PCT,
	  .pct = 50, .flags = M_LATENCY },
	{ .key = "clat_p90_ns", .label = "clat p90",
	  .unit = "ns", .better = BETTER_LOWER, .agg = AGG_HIST_PCT,
	  .pct = 90, .flags = M_LATENCY },
	{ .key = "clat_p99_ns", .label = "clat p99",
	  .unit = "ns", .better = BETTER_LOWER, .agg = AGG_HIST_PCT,
	  .pct = 99, .flags = M_LATENCY },
	{ .key = "clat_p99_9_ns", .label = "clat p99.9",
	  .unit = "ns", .better = BETTER_LOWER, .agg = AGG_HIST_PCT,
	  .pct = 99.9, .flags = M_LATENCY },
	{ .key = "clat_p99_99_ns", .label = "clat p99.99",
	  .unit = "ns", .better = BETTER_LOWER, .agg = AGG_HIST_PCT,
	  .pct = 99.99, .flags = M_LATENCY },
	{ .key = "clat_max_ns", .label = "clat max (bin)",
	  .unit = "ns", .better = BETTER_LOWER, .agg = AGG_HIST_MAX,
	  .flags = M_LATENCY },
	{ .key = "clat_samples", .label = "I/Os sampled",
	  .unit = "I/Os", .better = BETTER_NONE, .agg = AGG_SUM,
	  .flags = M_SAMPLES },
	/* One fio job per reader (group_reporting=0): their rates, jain.c. */
	{ .key = "reader_jain", .label = "readers' fairness (Jain's index)",
	  .unit = "1 = fair", .better = BETTER_HIGHER, .agg = AGG_MEAN },
	{ .key = "reader_min_share_pct",
	  .label = "smallest reader's share x readers",
	  .unit = "% (100 = fair)", .better = BETTER_HIGHER, .agg = AGG_MEAN },
	{ .key = "fio_cpu_pct", .label = "fio CPU (usr+sys)",
	  .unit = "%", .better = BETTER_LOWER, .agg = AGG_MEAN },
	{ .key = "cpu_busy_ns_per_io", .label = "CPU busy per I/O",
	  .unit = "ns/I/O", .better = BETTER_LOWER, .agg = AGG_MEAN,
	  .flags = M_CPU },
	/* 1e9 / cpu_per_io_ns of the same rep (counted time, rep.c). */
	{ .key = "ios_per_busy_cpu_sec", .label = "I/Os per busy vCPU second",
	  .unit = "I/O/s", .better = BETTER_HIGHER, .agg = AGG_MEAN },
	/* Counted over the window (window-*.txt): exact under icount. */
	{ .key = "cpu_per_io_ns",
	  .label = "CPU per I/O incl. idle-loop polling",
	  .unit = "ns/I/O", .better = BETTER_LOWER, .agg = AGG_MEAN,
	  .flags = M_CPU },
	{ .key = "vcpu_busy_ns_per_io",
	  .label = "all vCPUs busy per I/O (counted)",
	  .unit = "ns/I/O", .better = BETTER_LOWER, .agg = AGG_MEAN,
	  .flags = M_CPU },
	{ .key = "fio_vcpu_busy_ns_per_io",
	  .label = "fio's vCPU busy per I/O (counted)",
	  .unit = "ns/I/O", .better = BETTER_LOWER, .agg = AGG_MEAN,
	  .flags = M_CPU },
	{ .key = "task_cpu_ns_per_io",
	  .label = "fio task CPU per I/O (counted)",
	  .unit = "ns/I/O", .better = BETTER_LOWER, .agg = AGG_MEAN,
	  .flags = M_CPU },
	{ .key = "ctx_per_io", .label = "fio ctx switches per I/O",
	  .unit = "1/I/O", .better = BETTER_LOWER, .agg = AGG_MEAN },
	{ .key = "perf_ctx_per_io", .label = "perf context-switches per I/O",
	  .unit = "1/I/O", .better = BETTER_LOWER, .agg = AGG_MEAN },
	{ .key = "intr_nvme_per_io", .label = "nvme interrupts per I/O",
	  .unit = "1/I/O", .better = BETTER_NONE, .agg = AGG_MEAN },
	{ .key = "intr_all_per_io", .label = "all interrupts per I/O",
	  .unit = "1/I/O", .better = BETTER_NONE, .agg = AGG_MEAN },
	{ .key = "cpu_user_pct", .label = "CPU user",
	  .unit = "%", .better = BETTER_NONE, .agg = AGG_MEAN },
	{ .key = "cpu_system_pct", .label = "CPU system",
	  .unit = "%", .better = BETTER_NONE, .agg = AGG_MEAN },
	{ .key = "cpu_idle_pct", .label = "CPU idle",
	  .unit = "%", .better = BETTER_NONE, .agg = AGG_MEAN },
	{ .key = "cpu_irq_pct", .label = "CPU irq",
	  .unit = "%", .better = BETTER_NONE, .agg = AGG_MEAN },
	{ .key = "cpu_softirq_pct", .label = "CPU softirq",
	  .unit = "%", .better = BETTER_NONE, .agg = AGG_MEAN },
	/* Condition outputs (cpuhog, cyclictest), see cond.c. */
	{ .key = "competitor_units_per_sec", .label = "competitor work rate",
	  .unit = "units/s", .better = BETTER_HIGHER, .agg = AGG_MEAN },
	{ .key = "competitor_loss_pct",
	  .label = "competitor loss vs competitor-only",
	  .unit = "%", .better = BETTER_LOWER, .agg = AGG_MEAN },
	{ .key = "competitor_cpu_share_pct", .label = "competitor CPU share",
	  .unit = "%", .better = BETTER_HIGHER, .agg = AGG_MEAN },
	{ .key = "busy_units_per_sec", .label = "busy hogs' work rate (sum)",
	  .unit = "units/s", .better = BETTER_HIGHER, .agg = AGG_MEAN },
	{ .key = "cyclictest_p50_us", .label = "cyclictest p50",
	  .unit = "us", .better = BETTER_LOWER, .agg = AGG_CYC_PCT,
	  .pct = 50, .flags = M_OVERFLOW },
	{ .key = "cyclictest_p99_us", .label = "cyclictest p99",
	  .unit = "us", .better = BETTER_LOWER, .agg = AGG_CYC_PCT,
	  .pct = 99, .flags = M_OVERFLOW },
	{ .key = "cyclictest_p99_9_us", .label = "cyclictest p99.9",
	  .unit = "us", .better = BETTER_LOWER, .agg = AGG_CYC_PCT,
	  .pct = 99.9, .flags = M_OVERFLOW },
	{ .key = "cyclictest_max_us", .label = "cyclictest max",
	  .unit = "us", .better = BETTER_LOWER, .agg = AGG_MAX_MEDIAN },
	{ .key = "cyclictest_overflows",
	  .label = "cyclictest overflows (>= range)",
	  .unit = "samples", .better = BETTER_NONE, .agg = AGG_SUM },
	{ .key = "cyclictest_samples", .label = "cyclictest samples",
	  .unit = "samples", .better = BETTER_NONE, .agg = AGG_SUM },
	{ .key = "kprobe_%s_per_io", .label = "kprobe %s per I/O",
	  .unit = "1/I/O", .better = BETTER_NONE, .agg = AGG_MEAN,
	  .flags = M_FAMILY },
	{ .key = "perf_%s_per_io", .label = "perf %s per I/O",
	  .unit = "count or ns/I/O", .better = BETTER_NONE, .agg = AGG_MEAN,
	  .flags = M_FAMILY },
	{ .key = "poll_%s_per_io", .label = "poll-stats %s per I/O",
	  .unit = "count or ns/I/O", .better = BETTER_NONE, .agg = AGG_MEAN,
	  .flags = M_FAMILY },
};

const unsigned int nr_metrics = sizeof(metrics) / sizeof(metrics[0]);

/*
 * The primary metrics of every comparison: tested at alpha on their own;
 * every other metric with a direction is secondary, Holm-corrected over
 * the report. The second key stands in when the run lacks the first:
 * clat without total-latency bins, /proc/stat busy without window files.
 */
const char *const primary_metrics[][2] = {
	{ "lat_p50_ns", "clat_p50_ns" },
	{ "lat_p99_ns", "clat_p99_ns" },
	{ "cpu_per_io_ns", "cpu_busy_ns_per_io" },
	{ "competitor_loss_pct", NULL },
};
const unsigned int nr_primary_metrics =
	sizeof(primary_metrics) / sizeof(primary_metrics[0]);

/* Is key a primary metric of a run that has the keys has() says it has? */
int metric_primary(const char *key, int (*has)(const char *key,
					       const void *ctx),
		   const void *ctx)
{
	unsigned int i;

	for (i = 0; i < nr_primary_metrics; i++) {
		if (!strcmp(key, primary_metrics[i][0]))
			return has(key, ctx);
		if (primary_metrics[i][1] &&
		    !strcmp(key, primary_metrics[i][1]))
			return !has(primary_metrics[i][0], ctx);
	}
	return 0;
}

struct minst minsts[MAX_MINST];
unsigned int nr_minsts;

void metrics_init(void)
{
	unsigned int i;

	nr_minsts = 0;
	for (i = 0; i < nr_metrics; i++) {
		if (metrics[i].flags & M_FAMILY)
			continue;
		snprintf(minsts[nr_minsts].key, sizeof(minsts[0].key), "%s",
			 metrics[i].key);
		snprintf(minsts[nr_minsts].label, sizeof(minsts[0].label),
			 "%s", metrics[i].label);
		minsts[nr_minsts++].m = &metrics[i];
	}
}

int minst_find(const char *key)
{
	unsigned int i;

	for (i = 0; i < nr_minsts; i++)
		if (!strcmp(minsts[i].key, key))
			return i;
	return -1;
}

/* Flat keys stay [a-z0-9_]: "context-switches" -> "context_switches". */
static void sanitize(char *dst, size_t len, const char *src)
{
	size_t i;

	for (i = 0; i + 1 < len && src[i]; i++)
		dst[i] = isalnum((unsigned char)src[i]) ?
			 tolower((unsigned char)src[i]) : '_';
	dst[i] = '\0';
}

/* Find or add the instance of a family metric for one name. */
int minst_family(const char *family_key, const char *name)
{
	const struct metric *m = NULL;
	char clean[64], key[128];
	unsigned int i;
	int idx;

	for (i = 0; i < nr_metrics; i++)
		if ((metrics[i].flags & M_FAMILY) &&
		    !strcmp(metrics[i].key, family_key))
			m = &metrics[i];
	if (!m) {
		fprintf(stderr, "BUG: undeclared metric family %s\n",
			family_key);
		abort();
	}
	sanitize(clean, sizeof(clean), name);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	snprintf(key, sizeof(key), m->key, clean);
	idx = minst_find(key);
	if (idx >= 0)
		return idx;
	if (nr_minsts >= MAX_MINST)
		return -1;
	snprintf(minsts[nr_minsts].key, sizeof(minsts[0].key), "%s", key);
	snprintf(minsts[nr_minsts].label, sizeof(minsts[0].label), m->label,
		 name);
#pragma GCC diagnostic pop
	minsts[nr_minsts].m = m;
	return nr_minsts++;
}

const char *better_str(enum better b)
{
	switch (b) {
	case BETTER_LOWER:
		return "lower";
	case BETTER_HIGHER:
		return "higher";
	default:
		return "none";
	}
}

const char *agg_str(enum agg a)
{
	switch (a) {
	case AGG_MEAN:
		return "mean of reps";
	case AGG_SUM:
		return "sum over reps";
	case AGG_HIST_PCT:
		return "median over reps of each rep's percentile";
	case AGG_HIST_MEAN:
		return "mean of merged bins";
	case AGG_CYC_PCT:
		return "median over reps of each rep's percentile of its cyclictest buckets";
	case AGG_MAX_MEDIAN:
		return "median over reps of each rep's maximum";
	default:
		return "max of merged bins";
	}
}

/*
 * The aggregations whose cell value is a median over reps, with the value
 * of all reps pooled kept beside it (struct aggval.pooled).
 */
bool agg_has_pooled(enum agg a)
{
	return a == AGG_HIST_PCT || a == AGG_CYC_PCT || a == AGG_MAX_MEDIAN;
}
