/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's log-linear latency histogram (stat.h: FIO_IO_U_PLAT_*).
 *
 * Values below 2 * PLAT_VAL get one bin each; above that, every power of
 * two is split into PLAT_VAL bins, so a bin is at most 1/64 of its value
 * wide and fio reports the bin's midpoint: the error of a percentile is at
 * most half a bin, 1/2^(PLAT_BITS + 1) = 0.78% of the value.
 */
#ifndef PB_HIST_H
#define PB_HIST_H

#include <stdint.h>

#define PLAT_BITS	6
#define PLAT_VAL	(1 << PLAT_BITS)
#define PLAT_GROUP_NR	29
#define PLAT_NR		(PLAT_GROUP_NR * PLAT_VAL)

/* Widest bin relative to its lower edge, and the midpoint's error. */
#define PLAT_BIN_REL_WIDTH	(1.0 / PLAT_VAL)
#define PLAT_REL_ERROR		(1.0 / (2 * PLAT_VAL))

struct hist {
	uint64_t n;
	uint64_t cnt[PLAT_NR];
};

uint64_t hist_idx_to_val(unsigned int idx);
unsigned int hist_val_to_idx(uint64_t val);
int hist_bin_of_val(uint64_t val, unsigned int *idx);
void hist_clear(struct hist *h);
void hist_add(struct hist *dst, const struct hist *src, uint64_t weight);
uint64_t hist_percentile(const struct hist *h, double pct);
double hist_mean(const struct hist *h);
uint64_t hist_max(const struct hist *h);

#endif
