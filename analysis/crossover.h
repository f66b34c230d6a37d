/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_CROSSOVER_H
#define PB_CROSSOVER_H

#include "device.h"
#include "model.h"

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
int xo_in(const struct cell *c);
unsigned int xo_devices(const struct run *run, int *pts);
int xo_first_of(const struct run *run, unsigned int i, int design);
const struct cell *xo_cell(const struct run *run, const char *variant,
			   const char *workload, const char *cond, int us);
void xo_point(const struct run *run, const struct cell *c, int us,
	      struct xo_point *p);
double xo_val(const struct cell *c, const char *key);
const char *xo_headline_cond(const struct run *run);
void xo_gains(const struct run *run, const struct cell *d, const char *cond,
	      const int *pts, unsigned int n, double *gain);
int xo_is_ref(const struct run *run, const struct cell *d);

#endif
