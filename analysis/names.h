/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_NAMES_H
#define PB_NAMES_H

#include "model.h"

#define DESIGN_NAME_LEN	64

/* A design (label + engine) under the name people use for it. */
struct design {
	const struct cell *d;	/* one of its cells: variant and workload */
	unsigned int rank;	/* order of the usual names; unnamed last */
	unsigned int order;	/* in the run: unnamed designs keep it */
	char name[DESIGN_NAME_LEN];
};

void designs_name(const struct run *run, struct design *v, unsigned int n);

#endif
