/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_PRECISION_H
#define PB_PRECISION_H

#include "model.h"

/* The precision target: a 95% CI half-width of QD1 p50 under 3% of the value. */
#define PRECISION_TARGET_PCT 3.0

struct prec_row {
	const struct cell *c;
	double value, lo, hi;
	double hw_pct;		/* (hi - lo) / 2 / value x 100 */
	unsigned int n;		/* reps */
	unsigned int need;	/* reps for the target; 0 when n < 2 */
	int met;
};

double precision_hw_pct(const struct aggval *a);
unsigned int precision_reps_needed(unsigned int n, double hw_pct,
				   double target_pct);
unsigned int precision_rows(const struct run *run, struct prec_row **out);

#endif
