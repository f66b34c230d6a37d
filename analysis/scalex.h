/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_SCALEX_H
#define PB_SCALEX_H

#include "scale.h"

/* Runs of one scale matrix at different vCPU counts (--scale). */
struct xs_set {
	const struct run **run;	/* ascending vCPU count */
	int *vcpus;
	unsigned int n;
	struct scale_group *g;	/* the tables of every run, merged */
	unsigned int nr_g;
};

int xs_open(struct xs_set *x, const struct run *runs, unsigned int n);
void xs_free(struct xs_set *x);

#endif
