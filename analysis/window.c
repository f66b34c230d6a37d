// SPDX-License-Identifier: GPL-2.0
/*
 * window-{before,after}.txt: "key value" lines, clock_ns, dev_ios,
 * fio_task_ns and cpu<K>_idle_ns for every vCPU K, read on that vCPU
 * with its clock cpu<K>_clock_ns (guest/window.sh). Under
 * icount every one of them is counted virtual time, exact; they give the
 * per-I/O denominators (the device's own count over exactly the window
 * the other captures span, ramp included, unlike fio's total_ios) and the
 * counted CPU per I/O.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "procstat.h"
#include "window.h"

static int is_idle_key(const char *k)
{
	unsigned int cpu;
	int end = 0;

	return sscanf(k, "cpu%u_idle_ns%n", &cpu, &end) == 1 && end &&
	       !k[end];
}

/* 0: *d filled; -1: broken (message names the file). */
int window_delta(const char *before, const char *after, struct window *d)
{
	static const char *const need[] = { "clock_ns", "dev_ios",
					    "fio_task_ns" };
	struct kvlist b = { 0 }, a = { 0 }, x = { 0 };
	double *dst[] = { &d->clock_ns, &d->dev_ios, &d->task_ns };
	unsigned int i;
	int r = -1;

	memset(d, 0, sizeof(*d));
	d->fio_busy_ns = NAN;
	if (kvfile_load(before, &b) || kvfile_load(after, &a))
		goto out;
	for (i = 0; i < 3; i++) {
		if (!kv_find(&b, need[i]) || !kv_find(&a, need[i])) {
			fprintf(stderr, "%s: no %s line\n",
				kv_find(&b, need[i]) ? after : before, need[i]);
			goto out;
		}
	}
	/* Every key of after must be in before and must not go backwards. */
	if (kv_delta(&b, before, &a, after, 0, NULL, &x))
		goto out;
	for (i = 0; i < 3; i++)
		*dst[i] = kv_find(&x, need[i])->v;
	for (i = 0; i < x.n; i++) {
		const struct kv *clk;
		char key[64];
		unsigned int cpu;

		if (!is_idle_key(x.v[i].name))
			continue;
		d->idle_ns += x.v[i].v;
		d->ncpu++;
		/*
		 * A vCPU's idle time is read on that vCPU, with that read's
		 * own clock (cpu<K>_clock_ns): busy is that clock's advance
		 * less the idle time's. Older files have only clock_ns.
		 */
		sscanf(x.v[i].name, "cpu%u", &cpu);
		snprintf(key, sizeof(key), "cpu%u_clock_ns", cpu);
		clk = kv_find(&x, key);
		d->busy_ns += (clk ? clk->v : d->clock_ns) - x.v[i].v;
		/* fio_cpu (the vCPU fio is pinned to) in newer files. */
		if (kv_find(&a, "fio_cpu") && kv_find(&a, "fio_cpu")->v == cpu)
			d->fio_busy_ns = (clk ? clk->v : d->clock_ns) - x.v[i].v;
	}
	if (!d->ncpu) {
		fprintf(stderr, "%s: no cpu<K>_idle_ns line\n", after);
		goto out;
	}
	if (d->dev_ios <= 0) {
		fprintf(stderr, "%s: dev_ios did not advance over the window (before %.17g)\n",
			after, kv_find(&b, "dev_ios")->v);
		goto out;
	}
	r = 0;
out:
	kv_free(&b);
	kv_free(&a);
	kv_free(&x);
	return r;
}
