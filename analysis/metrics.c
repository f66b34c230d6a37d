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
	{ "iops", "IOPS", "ops/s", BETTER_HIGHER, AGG_MEAN, 0, 0 },
	/* Total latency, submission to completion (fio lat_ns.bins). */
	{ "lat_mean_ns", "lat mean", "ns", BETTER_LOWER, AGG_HIST_MEAN, 0,
	  M_LATENCY | M_TOTAL },
	{ "lat_p50_ns", "lat p50", "ns", BETTER_LOWER, AGG_HIST_PCT, 50,
	  M_LATENCY | M_TOTAL },
	{ "lat_p90_ns", "lat p90", "ns", BETTER_LOWER, AGG_HIST_PCT, 90,
	  M_LATENCY | M_TOTAL },
	{ "lat_p99_ns", "lat p99", "ns", BETTER_LOWER, AGG_HIST_PCT, 99,
	  M_LATENCY | M_TOTAL },
	{ "lat_p99_9_ns", "lat p99.9", "ns", BETTER_LOWER, AGG_HIST_PCT, 99.9,
	  M_LATENCY | M_TOTAL },
	{ "lat_max_ns", "lat max (bin)", "ns", BETTER_LOWER, AGG_HIST_MAX, 0,
	  M_LATENCY | M_TOTAL },
	{ "clat_mean_ns", "clat mean", "ns", BETTER_LOWER, AGG_HIST_MEAN, 0,
	  M_LATENCY },
	{ "clat_p50_ns", "clat p50", "ns", BETTER_LOWER, AGG_HIST_PCT, 50,
	  M_LATENCY },
	{ "clat_p90_ns", "clat p90", "ns", BETTER_LOWER, AGG_HIST_PCT, 90,
	  M_LATENCY },
	{ "clat_p99_ns", "clat p99", "ns", BETTER_LOWER, AGG_HIST_PCT, 99,
	  M_LATENCY },
	{ "clat_p99_9_ns", "clat p99.9", "ns", BETTER_LOWER, AGG_HIST_PCT,
	  99.9, M_LATENCY },
	{ "clat_p99_99_ns", "clat p99.99", "ns", BETTER_LOWER, AGG_HIST_PCT,
	  99.99, M_LATENCY },
	{ "clat_max_ns", "clat max (bin)", "ns", BETTER_LOWER, AGG_HIST_MAX, 0,
	  M_LATENCY },
	{ "clat_samples", "I/Os sampled", "I/Os", BETTER_NONE, AGG_SUM, 0,
	  M_SAMPLES },
	{ "fio_cpu_pct", "fio CPU (usr+sys)", "%", BETTER_LOWER, AGG_MEAN, 0,
	  0 },
	{ "cpu_busy_ns_per_io", "CPU busy per I/O", "ns/I/O", BETTER_LOWER,
	  AGG_MEAN, 0, M_CPU },
	/* Counted over the window (window-*.txt): exact under icount. */
	{ "cpu_per_io_ns", "CPU per I/O incl. idle-loop polling", "ns/I/O",
	  BETTER_LOWER, AGG_MEAN, 0, M_CPU },
	{ "vcpu_busy_ns_per_io", "all vCPUs busy per I/O (counted)", "ns/I/O",
	  BETTER_LOWER, AGG_MEAN, 0, M_CPU },
	{ "fio_vcpu_busy_ns_per_io", "fio's vCPU busy per I/O (counted)",
	  "ns/I/O", BETTER_LOWER, AGG_MEAN, 0, M_CPU },
	{ "task_cpu_ns_per_io", "fio task CPU per I/O (counted)", "ns/I/O",
	  BETTER_LOWER, AGG_MEAN, 0, M_CPU },
	{ "ctx_per_io", "fio ctx switches per I/O", "1/I/O", BETTER_LOWER,
	  AGG_MEAN, 0, 0 },
	{ "perf_ctx_per_io", "perf context-switches per I/O", "1/I/O",
	  BETTER_LOWER, AGG_MEAN, 0, 0 },
	{ "intr_nvme_per_io", "nvme interrupts per I/O", "1/I/O",
	  BETTER_NONE, AGG_MEAN, 0, 0 },
	{ "intr_all_per_io", "all interrupts per I/O", "1/I/O", BETTER_NONE,
	  AGG_MEAN, 0, 0 },
	{ "cpu_user_pct", "CPU user", "%", BETTER_NONE, AGG_MEAN, 0, 0 },
	{ "cpu_system_pct", "CPU system", "%", BETTER_NONE, AGG_MEAN, 0, 0 },
	{ "cpu_idle_pct", "CPU idle", "%", BETTER_NONE, AGG_MEAN, 0, 0 },
	{ "cpu_irq_pct", "CPU irq", "%", BETTER_NONE, AGG_MEAN, 0, 0 },
	{ "cpu_softirq_pct", "CPU softirq", "%", BETTER_NONE, AGG_MEAN, 0, 0 },
	/* Condition outputs (cpuhog, cyclictest), see cond.c. */
	{ "competitor_units_per_sec", "competitor work rate", "units/s",
	  BETTER_HIGHER, AGG_MEAN, 0, 0 },
	{ "competitor_loss_pct", "competitor loss vs competitor-only", "%",
	  BETTER_LOWER, AGG_MEAN, 0, 0 },
	{ "competitor_cpu_share_pct", "competitor CPU share", "%",
	  BETTER_HIGHER, AGG_MEAN, 0, 0 },
	{ "busy_units_per_sec", "busy hogs' work rate (sum)", "units/s",
	  BETTER_HIGHER, AGG_MEAN, 0, 0 },
	{ "cyclictest_p50_us", "cyclictest p50", "us", BETTER_LOWER,
	  AGG_CYC_PCT, 50, M_OVERFLOW },
	{ "cyclictest_p99_us", "cyclictest p99", "us", BETTER_LOWER,
	  AGG_CYC_PCT, 99, M_OVERFLOW },
	{ "cyclictest_p99_9_us", "cyclictest p99.9", "us", BETTER_LOWER,
	  AGG_CYC_PCT, 99.9, M_OVERFLOW },
	{ "cyclictest_max_us", "cyclictest max", "us", BETTER_LOWER, AGG_MAX,
	  0, 0 },
	{ "cyclictest_overflows", "cyclictest overflows (>= range)", "samples",
	  BETTER_NONE, AGG_SUM, 0, 0 },
	{ "cyclictest_samples", "cyclictest samples", "samples", BETTER_NONE,
	  AGG_SUM, 0, 0 },
	{ "kprobe_%s_per_io", "kprobe %s per I/O", "1/I/O", BETTER_NONE,
	  AGG_MEAN, 0, M_FAMILY },
	{ "perf_%s_per_io", "perf %s per I/O", "count or ns/I/O", BETTER_NONE,
	  AGG_MEAN,
	  0, M_FAMILY },
	{ "poll_%s_per_io", "poll-stats %s per I/O", "count or ns/I/O",
	  BETTER_NONE, AGG_MEAN, 0, M_FAMILY },
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
		return "percentile of merged cyclictest buckets";
	case AGG_MAX:
		return "max over reps";
	default:
		return "max of merged bins";
	}
}
