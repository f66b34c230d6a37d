// SPDX-License-Identifier: GPL-2.0
/*
 * Latency histogram arithmetic on fio's bins. The mapping between values
 * and bin indices is fio's plat_val_to_idx()/plat_idx_to_val().
 */
#include <string.h>

#include "hist.h"

uint64_t hist_idx_to_val(unsigned int idx)
{
	unsigned int error_bits;
	uint64_t k, base;

	if (idx < (PLAT_VAL << 1))
		return idx;

	error_bits = (idx >> PLAT_BITS) - 1;
	base = (uint64_t)1 << (error_bits + PLAT_BITS);
	k = idx % PLAT_VAL;

	/* Midpoint of the bin, as fio computes it. */
	return base + (uint64_t)((k + 0.5) * (double)((uint64_t)1 << error_bits));
}

unsigned int hist_val_to_idx(uint64_t val)
{
	unsigned int msb, error_bits, base, offset, idx;

	msb = val ? 63 - __builtin_clzll(val) : 0;
	if (msb <= PLAT_BITS)
		return val;

	error_bits = msb - PLAT_BITS;
	base = (error_bits + 1) << PLAT_BITS;
	offset = (PLAT_VAL - 1) & (val >> error_bits);
	idx = base + offset;

	return idx < PLAT_NR - 1 ? idx : PLAT_NR - 1;
}

/*
 * fio's json+ keys are bin values, not raw samples. Accept only values
 * that are exactly a bin's reported value, so that a foreign histogram
 * is rejected instead of silently re-binned.
 */
int hist_bin_of_val(uint64_t val, unsigned int *idx)
{
	unsigned int i = hist_val_to_idx(val);

	if (hist_idx_to_val(i) != val)
		return -1;
	*idx = i;
	return 0;
}

void hist_clear(struct hist *h)
{
	memset(h, 0, sizeof(*h));
}

void hist_add(struct hist *dst, const struct hist *src, uint64_t weight)
{
	unsigned int i;

	if (!weight)
		return;
	for (i = 0; i < PLAT_NR; i++)
		dst->cnt[i] += weight * src->cnt[i];
	dst->n += weight * src->n;
}

/*
 * fio's rule (calc_clat_percentiles()): the value of the first bin at
 * which the cumulative count reaches pct% of all samples.
 */
uint64_t hist_percentile(const struct hist *h, double pct)
{
	long double want = (long double)pct / 100.0L * h->n;
	uint64_t sum = 0;
	unsigned int i;

	if (!h->n)
		return 0;
	for (i = 0; i < PLAT_NR; i++) {
		sum += h->cnt[i];
		if (h->cnt[i] && sum >= want)
			return hist_idx_to_val(i);
	}
	return hist_max(h);
}

double hist_mean(const struct hist *h)
{
	long double sum = 0;
	unsigned int i;

	if (!h->n)
		return 0;
	for (i = 0; i < PLAT_NR; i++)
		if (h->cnt[i])
			sum += (long double)h->cnt[i] * hist_idx_to_val(i);
	return (double)(sum / h->n);
}

uint64_t hist_max(const struct hist *h)
{
	unsigned int i;

	for (i = PLAT_NR; i-- > 0;)
		if (h->cnt[i])
			return hist_idx_to_val(i);
	return 0;
}
