/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_FAIR_H
#define PB_FAIR_H

#include <stdio.h>

#include "model.h"

/* One <workload>@competitor[@device] cell against its reference. */
struct fair_row {
	const struct cell *c;
	const struct cell *ref;	/* NULL: no reference cell found */
	double p50_gain_pct;	/* (ref - c) / ref: positive = lower latency */
	double p99_gain_pct;
};

unsigned int fair_rows(const struct run *run, const struct opts *o,
		       struct fair_row **rows);
const struct cell *fair_psync_ref(const struct run *run,
				  const struct cell *c);

#endif
