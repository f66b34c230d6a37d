/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --compare: two runs read back from their summary.json, their cells
 * matched by (label, workload, condition, device), three primary
 * metrics of each matched cell side by side, and each label's kernel
 * series in both runs. runcmp_out.c renders it.
 */
#ifndef PB_RUNCMP_H
#define PB_RUNCMP_H

#include <jansson.h>

#include "timing.h"

enum { RC_P50, RC_MEAN, RC_CPU, RC_NR };

/* A label's kernel series: same, other patch files, same files rebuilt. */
enum rc_series { RC_SAME, RC_PATCHES, RC_COMMIT, RC_ONE_RUN };

struct rc_run {
	const char *dir;
	json_t *sum;		/* summary.json */
	struct timing timing;
};

struct rc_val {
	double a, b;		/* NAN: missing */
	double a_lo, a_hi, b_lo, b_hi;	/* 95 % intervals, NAN: none */
	double change_pct;	/* (b - a) / |a| x 100, NAN: not defined */
	int disjoint;		/* the intervals: 1, 0, -1 missing */
};

struct rc_cell {
	json_t *c[2];		/* the cell in A and B, NULL: not in that run */
	const char *invalid[2];	/* its invalid_reason there, if listed */
	struct rc_val v[RC_NR];	/* cells in both runs only */
};

struct rc_kernel {
	const char *kernel;	/* kernel_variant (older runs: the label) */
	const char *commit;	/* kernel_commit, "?" when not recorded */
	json_t *patches;	/* the series' patch file names, in order */
};

struct rc_label {
	const char *label;
	struct rc_kernel k[2];	/* k[i].kernel NULL: not in run i */
	enum rc_series series;
	json_t *added, *removed;	/* patch names only in B, only in A */
};

struct rc_set {
	struct rc_run run[2];
	const char *key[RC_NR];	/* lat (or clat) p50 and mean, CPU per I/O */
	int lat;		/* both runs have total-latency bins */
	int window;		/* both runs have cpu_per_io_ns */
	struct rc_cell *cells;	/* by label, device, workload, condition */
	unsigned int nr_cells;
	unsigned int nr_both;	/* cells in both runs, first in cells[] */
	struct rc_label *labels;
	unsigned int nr_labels;
};

int rc_open(struct rc_set *s, const char *dir_a, const char *dir_b);
void rc_free(struct rc_set *s);
const char *rc_str(json_t *o, const char *key);
double rc_change_pct(double a, double b);
int rc_disjoint(double a_lo, double a_hi, double b_lo, double b_hi);
json_t *rc_patches(json_t *series);

#endif
