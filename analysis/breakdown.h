/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_BREAKDOWN_H
#define PB_BREAKDOWN_H

#include <stddef.h>

#include "model.h"

/* The traced steps must cover fio's total latency within this. */
#define BD_COVER_TOL_PCT	5.0
/* The trace's I/Os must be the window's within this, else invalid. */
#define BD_COUNT_TOL_PCT	1.0

enum bd_status {
	BD_OK,
	BD_INVALID,	/* the trace's I/O count is not the window's */
	BD_MISSING,	/* a rep without a trace or without its markers */
};

/* One traced cell, medians over reps (one boot, one vote). */
struct bd_cell {
	const struct cell *c;
	const struct cell *untraced;	/* the same cell, untraced label */
	char design[128];		/* the label without ".traced" */
	enum bd_status status;
	char reason[256];
	unsigned int reps;		/* reps with a usable trace */
	double median[TS_NR];		/* of each rep's median over I/Os */
	double mean[TS_NR];		/* of each rep's mean over I/Os */
	double median_sum;		/* sum of median[] */
	double total_median_sum;	/* + user + edge, unless partial */
	double syscall_mean, syscall_median;
	double fio_mean, fio_p50;	/* lat (clat) of the same reps */
	double outside;			/* of each rep's fio - syscall mean */
	/* Measured outside the tracepoints (NAN: not in every rep). */
	double user;			/* fio's null engine: fio's own code */
	double edge;			/* the call's way in and out */
	double total_mean;		/* user + edge + syscall mean */
	int partial;			/* user or edge unknown: coverage is
					 * the system call's alone */
	double coverage_pct;		/* of each rep's total / fio mean */
	double syscall_coverage_pct;	/* of each rep's syscall / fio mean */
	double p50_coverage_pct;	/* median_sum / fio_p50 */
	unsigned int ios, neg_find, at[TA_NR];	/* summed over reps */
	/* Tracing's cost: traced - untraced, median over boots. */
	double p50_untraced, cost_p50_ns, cost_p50_pct;
	double mean_untraced, cost_mean_ns, cost_mean_pct;
};

int bd_traced(const struct run *run, const struct cell *c);
const char *bd_untraced_label(const struct run *run, const char *variant);
void bd_cell(const struct run *run, const struct cell *c, struct bd_cell *b);
int bd_applies(const struct run *run);
unsigned int bd_rows(const struct run *run, const char *cond,
		     const struct cell **out);
unsigned int bd_conds(const struct run *run, const char **out);
void bd_row_name(const struct run *run, const struct bd_cell *b, char *buf,
		 size_t len);
int bd_covered(double pct);
void run_breakdown_check(struct run *run);

#endif
