/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_AGGREGATE_H
#define PB_AGGREGATE_H

#include "model.h"

bool cyc_median_censored(const double *vals, unsigned int n,
			 unsigned int range);
int run_aggregate(struct run *run, const struct opts *o);

#endif
