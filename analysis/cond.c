// SPDX-License-Identifier: GPL-2.0
/*
 * Parsers for the condition outputs guest/cell.sh keeps next to fio's:
 * cpuhog reports (competitor.txt, busy-cpu<N>.txt) and cyclictest's -h
 * histogram (cyclictest.txt), and the arithmetic on that histogram.
 * Each parser returns -1 after printing "<file>[:<line>]: <what>".
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cond.h"

static FILE *open_or_complain(const char *path)
{
	FILE *f = fopen(path, "r");

	if (!f)
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
	return f;
}

/* "cpu 1", "units 154560", ..., "units_per_sec 51498.647", ... */
int cpuhog_load(const char *path, struct cpuhog *h)
{
	static const struct {
		const char *key;
		size_t off;
	} fields[] = {
		{ "units", offsetof(struct cpuhog, units) },
		{ "wall_seconds", offsetof(struct cpuhog, wall_seconds) },
		{ "units_per_sec", offsetof(struct cpuhog, units_per_sec) },
		{ "cpu_seconds", offsetof(struct cpuhog, cpu_seconds) },
		{ "cpu_share", offsetof(struct cpuhog, cpu_share) },
	};
	char line[512], key[64], val[64], extra[2], *end;
	FILE *f = open_or_complain(path);
	int lineno = 0;
	unsigned int i;

	if (!f)
		return -1;
	h->units = h->wall_seconds = h->units_per_sec = NAN;
	h->cpu_seconds = h->cpu_share = NAN;
	while (fgets(line, sizeof(line), f)) {
		double v;
		int got;

		lineno++;
		got = sscanf(line, " %63s %63s %1s", key, val, extra);
		if (got < 1 || key[0] == '#')
			continue;
		errno = 0;
		v = got == 2 ? strtod(val, &end) : 0;
		if (got != 2 || errno || *end || isnan(v) || v < 0) {
			fprintf(stderr,
				"%s:%d: expected \"<key> <non-negative number>\", got \"%.*s\"\n",
				path, lineno, (int)strcspn(line, "\n"), line);
			fclose(f);
			return -1;
		}
		for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
			if (!strcmp(key, fields[i].key))
				*(double *)((char *)h + fields[i].off) = v;
	}
	fclose(f);
	if (isnan(h->units_per_sec)) {
		fprintf(stderr, "%s: no units_per_sec line (cpuhog cut short?)\n",
			path);
		return -1;
	}
	return 0;
}

/* The numbers after the ':' of a "# <what>: n n n" summary line. */
static int summary_nums(const char *s, double *min, double *max, double *sum)
{
	const char *p = strchr(s, ':');
	int n = 0;

	*sum = 0;
	*min = INFINITY;
	*max = -INFINITY;
	while (p && *++p) {
		char *end;
		double v = strtod(p, &end);

		if (end == p)
			break;
		*sum += v;
		*min = fmin(*min, v);
		*max = fmax(*max, v);
		n++;
		p = end - 1;
	}
	return n;
}

static int grow(uint64_t **a, unsigned int *cap, unsigned int need)
{
	unsigned int ncap = *cap ? *cap : 1024;
	uint64_t *n;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	n = realloc(*a, ncap * sizeof(*n));
	if (!n)
		return -1;
	memset(n + *cap, 0, (ncap - *cap) * sizeof(*n));
	*a = n;
	*cap = ncap;
	return 0;
}

/*
 * Bucket lines "<us> <count per thread> [<all threads>]", then summary
 * lines "# Total:", "# Min Latencies:", "# Avg Latencies:", "# Max
 * Latencies:", "# Histogram Overflows:" (one number per thread), and the
 * "# Thread <n>: <cycle> ..." overflow lists, which are ignored.
 */
int cyclic_load(const char *path, struct cyclic *c)
{
	uint64_t *sum = NULL, *last = NULL;
	unsigned int cap = 0, cap2 = 0, i;
	int lineno = 0, ncols = -1, nthreads = 0, has_max = 0, has_ovf = 0;
	int ntotal = 0;
	double total = NAN, mn, mx, s;
	long prev = -1;
	char *line = NULL;
	size_t len = 0;
	FILE *f = open_or_complain(path);

	memset(c, 0, sizeof(*c));
	c->min_us = c->max_us = NAN;
	if (!f)
		return -1;
	while (getline(&line, &len, f) > 0) {
		char *p = line, *end;
		unsigned long idx;
		int cols = 0;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		p += strspn(p, " \t");
		if (!*p)
			continue;
		if (*p == '#') {
			if (!strncmp(p, "# Min Latencies:", 16)) {
				nthreads = summary_nums(p, &mn, &mx, &s);
				c->min_us = mn;
			} else if (!strncmp(p, "# Max Latencies:", 16)) {
				has_max = summary_nums(p, &mn, &mx, &s) > 0;
				c->max_us = mx;
			} else if (!strncmp(p, "# Histogram Overflows:", 22)) {
				has_ovf = summary_nums(p, &mn, &mx, &s) > 0;
				c->overflows = s;
			} else if (!strncmp(p, "# Total:", 8)) {
				ntotal = summary_nums(p, &mn, &mx, &s);
				if (ntotal > 0)
					total = s;
			}
			continue;
		}
		errno = 0;
		idx = strtoul(p, &end, 10);
		if (end == p || errno || idx > 10000000 || (long)idx <= prev) {
			fprintf(stderr,
				"%s:%d: expected \"<us> <count>...\" with rising <us>, got \"%.60s\"\n",
				path, lineno, line);
			goto err;
		}
		prev = idx;
		if (grow(&sum, &cap, idx + 1) || grow(&last, &cap2, idx + 1))
			goto err;
		for (p = end;; p = end) {
			uint64_t v = strtoull(p, &end, 10);

			if (end == p)
				break;
			sum[idx] += v;
			last[idx] = v;
			cols++;
		}
		if (*end || !cols || (ncols >= 0 && cols != ncols)) {
			fprintf(stderr,
				"%s:%d: expected \"<us>\" and %s counts, got \"%.60s\"\n",
				path, lineno, ncols >= 0 ? "the same number of" : "one or more",
				line);
			goto err;
		}
		ncols = cols;
		c->range = idx + 1;
	}
	if (!c->range) {
		fprintf(stderr, "%s: no histogram lines \"<us> <count>\" (cyclictest -h failed?)\n",
			path);
		goto err;
	}
	if (!has_max || !has_ovf) {
		fprintf(stderr, "%s: no \"# %s\" line (cut short?)\n", path,
			has_max ? "Histogram Overflows" : "Max Latencies");
		goto err;
	}
	c->cnt = calloc(c->range, sizeof(*c->cnt));
	if (!c->cnt)
		goto err;
	/* With --histofall the last column is the sum of the threads'. */
	for (i = 0; i < c->range; i++) {
		c->cnt[i] = nthreads > 1 && ncols == nthreads + 1 ?
			    last[i] : sum[i];
		c->n += c->cnt[i];
	}
	if (nthreads > 1 && ntotal == nthreads + 1)
		total /= 2;	/* the threads' totals and theirs summed */
	if (!isnan(total) && total != (double)c->n) {
		fprintf(stderr, "%s: \"# Total\" says %.0f, the buckets hold %llu\n",
			path, total, (unsigned long long)c->n);
		goto err;
	}
	if (!c->n && !c->overflows) {
		fprintf(stderr, "%s: empty histogram (no samples)\n", path);
		goto err;
	}
	free(sum);
	free(last);
	free(line);
	fclose(f);
	return 0;
err:
	free(sum);
	free(last);
	free(line);
	fclose(f);
	cyclic_free(c);
	return -1;
}

void cyclic_free(struct cyclic *c)
{
	free(c->cnt);
	c->cnt = NULL;
	c->range = 0;
	c->n = c->overflows = 0;
}

/*
 * dst += src. The sum keeps the smaller range: samples of the other
 * histogram at or above it become overflows.
 */
int cyclic_add(struct cyclic *dst, const struct cyclic *src)
{
	unsigned int i, range;

	if (!src->range)
		return 0;
	if (!dst->range) {
		dst->cnt = calloc(src->range, sizeof(*dst->cnt));
		if (!dst->cnt)
			return -1;
		dst->range = src->range;
		dst->min_us = src->min_us;
		dst->max_us = src->max_us;
	} else {
		dst->min_us = fmin(dst->min_us, src->min_us);
		dst->max_us = fmax(dst->max_us, src->max_us);
	}
	range = dst->range < src->range ? dst->range : src->range;
	for (i = range; i < dst->range; i++) {
		dst->overflows += dst->cnt[i];
		dst->n -= dst->cnt[i];
	}
	dst->range = range;
	for (i = 0; i < src->range; i++) {
		if (i < range) {
			dst->cnt[i] += src->cnt[i];
			dst->n += src->cnt[i];
		} else {
			dst->overflows += src->cnt[i];
		}
	}
	dst->overflows += src->overflows;
	return 0;
}

/*
 * fio's rule: the first bucket where the cumulative count reaches pct %
 * of all samples, overflows included. A percentile among the overflows
 * is returned as the range: a lower bound (">= range").
 */
double cyclic_percentile(const struct cyclic *c, double pct)
{
	long double want = (long double)pct / 100 * (c->n + c->overflows);
	uint64_t cum = 0;
	unsigned int i;

	if (!c->range || !(c->n + c->overflows))
		return NAN;
	for (i = 0; i < c->range; i++) {
		cum += c->cnt[i];
		if (c->cnt[i] && cum >= want)
			return i;
	}
	return c->range;
}
