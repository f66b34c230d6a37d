// SPDX-License-Identifier: GPL-2.0
/*
 * How evenly n readers shared the device: Jain's fairness index of their
 * rates, (sum x)^2 / (n sum x^2), from 1/n (one reader got everything) to
 * 1 (all equal), and the smallest reader's share of the total times n,
 * in % (100: fair; 0: a reader starved). Jain's index barely moves when
 * one reader of many starves (31 equal and one at 0: 0.97), so the
 * smallest share is reported beside it. Both NAN below 2 readers or
 * without any I/O.
 */
#include <math.h>

#include "jain.h"

static double sum_of(const double *x, unsigned int n, double *sq)
{
	double s = 0;
	unsigned int i;

	*sq = 0;
	for (i = 0; i < n; i++) {
		s += x[i];
		*sq += x[i] * x[i];
	}
	return s;
}

double jain_index(const double *x, unsigned int n)
{
	double sq, s = n >= 2 ? sum_of(x, n, &sq) : 0;

	return s > 0 ? s * s / (n * sq) : NAN;
}

double min_share_pct(const double *x, unsigned int n)
{
	double sq, min, s = n >= 2 ? sum_of(x, n, &sq) : 0;
	unsigned int i;

	if (!(s > 0))
		return NAN;
	for (min = x[0], i = 1; i < n; i++)
		if (x[i] < min)
			min = x[i];
	return min / s * n * 100;
}
