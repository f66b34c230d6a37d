/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_CROSSOVER_H
#define PB_CROSSOVER_H

#include <stdio.h>

#include <jansson.h>

#include "model.h"
#include "plot.h"

/* Where a design's p50 gain over interrupts falls below these. */
#define XO_GAIN_SMALL_PCT	10.0
/* Instructions per ns of the real core the device axis is read for. */
#define XO_CORE_IPNS		3.0

/* One design (label/workload) on one device under one condition. */
struct xo_point {
	int us;				/* device latency N */
	const struct cell *c, *ref;	/* ref: the interrupts design */
	double p50, p99;		/* lat (clat fallback), ns */
	double ovh50, ovh99;		/* p50 - N us, p99 - N us, ns */
	double gain50;			/* (ref p50 - p50) / ref p50, % */
	double spread;			/* (max - min) / median of rep p50, % */
};

double xo_spread_pct(const struct cell *c, int mi);
int xo_first_below(const int *us, const double *gain, unsigned int n,
		   double limit);
double xo_core_us(const struct run *run, int us);
int crossover_applies(const struct run *run);
void crossover_report(FILE *f, const struct run *run);
json_t *crossover_json(const struct run *run);
int crossover_plots(const struct run *run, struct plot_sink *s);

#endif
