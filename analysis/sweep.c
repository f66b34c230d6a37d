// SPDX-License-Identifier: GPL-2.0
/*
 * The device-latency sweep: cells <workload>@<condition>@nullb-<N>us, a
 * null_blk disk with a poll queue completing N us after submission. Per
 * condition, p50 and p99 against N for every variant and workload: where
 * the curves of the polling variants meet the others, polling stops
 * paying. The emulated NVMe disk ("nvme") is not part of it. This file
 * selects the cells; sweep_out.c renders them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "sweep.h"

int sweep_in(const struct cell *c)
{
	return nullb_us(c->device) >= 0 && c->merged.n;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* The sorted distinct N of the sweep cells under one condition. */
unsigned int sweep_points(const struct run *run, const char *cond,
				 int *pts)
{
	unsigned int i, j, n = 0;

	for (i = 0; i < run->nr_cells; i++) {
		const struct cell *c = run->cells[i];
		int us = nullb_us(c->device);

		if (!sweep_in(c) || strcmp(c->condition, cond))
			continue;
		for (j = 0; j < n && pts[j] != us; j++)
			;
		if (j == n)
			pts[n++] = us;
	}
	qsort(pts, n, sizeof(*pts), cmp_int);
	return n;
}

/* Is c the first sweep cell of its (condition[, variant, workload])? */
int sweep_first_of(const struct run *run, unsigned int i, int series)
{
	const struct cell *c = run->cells[i];
	unsigned int j;

	for (j = 0; j < i; j++) {
		const struct cell *x = run->cells[j];

		if (sweep_in(x) && !strcmp(x->condition, c->condition) &&
		    (!series || (!strcmp(x->variant, c->variant) &&
				 !strcmp(x->workload, c->workload))))
			return 0;
	}
	return 1;
}

const struct cell *sweep_at(const struct run *run, const struct cell *c,
			     int us)
{
	char *name;
	const struct cell *x;

	if (asprintf(&name, "%s@%s@nullb-%dus", c->workload, c->condition,
		     us) < 0)
		return NULL;
	x = run_find(run, c->variant, name);
	free(name);
	return x && x->merged.n ? x : NULL;
}

