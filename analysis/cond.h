/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The outputs of a cell's condition load (guest/cell.sh): cpuhog's
 * "key value" reports (competitor.txt, busy-cpu<N>.txt) and cyclictest's
 * -h histogram (cyclictest.txt).
 */
#ifndef PB_COND_H
#define PB_COND_H

#include <stdint.h>

/* guest/tools/cpuhog.c: fields absent from the file are NAN. */
struct cpuhog {
	double units;
	double wall_seconds;
	double units_per_sec;	/* required */
	double cpu_seconds;
	double cpu_share;	/* 0..1 */
};

/*
 * cyclictest -h: bucket i counts wakeup latencies in [i, i + 1) us;
 * latencies >= range are only counted as overflows.
 */
struct cyclic {
	uint64_t *cnt;		/* range buckets, threads summed */
	unsigned int range;	/* us; buckets 0 .. range - 1 */
	uint64_t n;		/* samples in the buckets */
	uint64_t overflows;	/* samples >= range */
	double min_us;		/* "# Min Latencies", min over threads */
	double max_us;		/* "# Max Latencies", max over threads */
};

int cpuhog_load(const char *path, struct cpuhog *h);
int cyclic_load(const char *path, struct cyclic *c);
void cyclic_free(struct cyclic *c);
int cyclic_add(struct cyclic *dst, const struct cyclic *src);
double cyclic_percentile(const struct cyclic *c, double pct);

#endif
