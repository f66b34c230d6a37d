/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_SCALE_H
#define PB_SCALE_H

#include "compare.h"
#include "model.h"

/* A scale workload: <rw>-<bs>-r<N>[<suffix>]-<engine>. */
struct scale_wl {
	char prefix[64];	/* "randread-4k" */
	unsigned int readers;	/* N: one fio job each */
	char suffix[32];	/* "", "pin", "think", ... */
	const char *engine;	/* points into the workload: "pvsync2-hipri" */
};

/* One table: the cells of one prefix, suffix, device and condition. */
struct scale_group {
	const struct cell *first;	/* names the group */
	struct scale_wl wl;		/* of first; readers: any */
	unsigned int readers[32];	/* N, ascending */
	unsigned int nr_readers;
	const struct cell **designs;	/* a cell per label+engine, run order */
	unsigned int nr_designs;
};

/* Where a design's IOPS first falls below interrupts' at the same N. */
struct scale_below {
	int readers;		/* -1: at no N of the group */
	double iops, ref_iops;
	struct cmp cmp;		/* design against interrupts, iops */
	unsigned int reps, ref_reps;
};

int scale_parse(const char *workload, struct scale_wl *w);
int scale_in(const struct cell *c);
int scale_vcpus(const struct run *run);
int scale_same_group(const struct cell *a, const struct cell *b);
int scale_same_design(const struct cell *a, const struct cell *b);
unsigned int scale_groups(const struct run *run, struct scale_group **out);
void scale_groups_free(struct scale_group *g, unsigned int n);
const struct cell *scale_cell(const struct run *run,
			      const struct scale_group *g, const char *variant,
			      const char *engine, unsigned int readers);
double scale_value(const struct run *run, const struct scale_group *g,
		   const struct cell *d, unsigned int readers, const char *key);
const struct cell *scale_ref(const struct run *run,
			     const struct scale_group *g, unsigned int readers);
int scale_is_ref(const struct run *run, const struct cell *d);
void scale_below(const struct run *run, const struct scale_group *g,
		 const struct cell *d, struct scale_below *b);

#endif
