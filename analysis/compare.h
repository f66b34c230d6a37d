/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_COMPARE_H
#define PB_COMPARE_H

#include "model.h"

struct cmp {
	double change_pct;	/* normalised: positive = better */
	double p;		/* Mann-Whitney two-sided; NAN: direction none */
	double p_holm;		/* secondary metrics: Holm over the report */
	int primary;
	double cliff;		/* Cliff's delta, positive = better */
	int exact;
	int significant;
	int valid;
};

void compare(const struct run *run, const struct cell *base,
	     const struct cell *c, unsigned int mi, struct cmp *out);
double compare_p(const struct cell *base, const struct cell *c,
		 unsigned int mi, int *exact);

#endif
