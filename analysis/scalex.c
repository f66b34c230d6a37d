// SPDX-License-Identifier: GPL-2.0
/*
 * --scale: runs of the same scale matrix at different vCPU counts, read
 * side by side. Their numbers compare only under one timing model, on
 * the same devices and against the same interrupts label, and each run
 * must be one vCPU count: anything else is refused. The tables (prefix,
 * suffix, device, condition) of every run are merged, with the union of
 * their reader counts and designs, so scale.c's lookups work on each
 * run. scalex_out.c and scalex_plot.c render them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scalex.h"

/* The sorted distinct devices of run's scale cells, ", "-separated. */
static void devices_of(const struct run *run, char *buf, size_t len)
{
	unsigned int i, j;
	size_t l = 0;

	buf[0] = '\0';
	for (i = 0; i < run->nr_cells; i++) {
		const struct cell *c = run->cells[i];
		int seen = 0;

		if (!scale_in(c))
			continue;
		for (j = 0; j < i && !seen; j++)
			seen = scale_in(run->cells[j]) &&
			       !strcmp(run->cells[j]->device, c->device);
		if (seen || l >= len)
			continue;
		l += snprintf(buf + l, len - l, "%s%s", l ? ", " : "",
			      *c->device ? c->device : "nvme");
	}
}

/*
 * 0: the runs can be read side by side; 2: refused (message printed,
 * naming the runs); 1: broken input (a run without vcpus).
 */
static int xs_check(const struct run *runs, unsigned int n, int *vcpus)
{
	char a[512], b[512], ta[96], tb[96];
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		struct scale_group *g;
		unsigned int ng = scale_groups(&runs[i], &g);

		scale_groups_free(g, ng);
		if (!ng) {
			fprintf(stderr, "--scale: %s has no r<N> workloads (<rw>-<bs>-r<N>[<suffix>]-<engine>): not a run of the scale matrix\n",
				runs[i].dir);
			return 2;
		}
		vcpus[i] = scale_vcpus(&runs[i]);
		if (vcpus[i] < 0) {
			fprintf(stderr, "--scale: %s: neither run.json nor meta.json says \"vcpus\"\n",
				runs[i].dir);
			return 1;
		}
	}
	devices_of(&runs[0], a, sizeof(a));
	for (i = 1; i < n; i++) {
		if (!timing_equal(&runs[i].timing, &runs[0].timing)) {
			fprintf(stderr, "--scale: %s is %s, %s is %s; never compare numbers across timing models\n",
				runs[0].dir,
				timing_label(&runs[0].timing, ta, sizeof(ta)),
				runs[i].dir,
				timing_label(&runs[i].timing, tb, sizeof(tb)));
			return 2;
		}
		devices_of(&runs[i], b, sizeof(b));
		if (strcmp(a, b)) {
			fprintf(stderr, "--scale: %s ran on %s, %s on %s; the runs must share their devices\n",
				runs[0].dir, a, runs[i].dir, b);
			return 2;
		}
		if (strcmp(runs[i].variants[0], runs[0].variants[0])) {
			fprintf(stderr, "--scale: %s's interrupts label is %s, %s's %s; use the same --baseline\n",
				runs[0].dir, runs[0].variants[0], runs[i].dir,
				runs[i].variants[0]);
			return 2;
		}
		for (j = 0; j < i; j++)
			if (vcpus[j] == vcpus[i]) {
				fprintf(stderr, "--scale: %s and %s both ran %d vCPUs; give one run per vCPU count\n",
					runs[j].dir, runs[i].dir, vcpus[i]);
				return 2;
			}
	}
	return 0;
}

static void add_reader(struct scale_group *g, unsigned int n)
{
	unsigned int k, i;
	const unsigned int max = sizeof(g->readers) / sizeof(g->readers[0]);

	for (k = 0; k < g->nr_readers && g->readers[k] < n; k++)
		;
	if ((k < g->nr_readers && g->readers[k] == n) || g->nr_readers == max)
		return;
	for (i = g->nr_readers; i > k; i--)
		g->readers[i] = g->readers[i - 1];
	g->readers[k] = n;
	g->nr_readers++;
}

/* Merge src (a table of one run) into the set's tables. */
static int merge(struct xs_set *x, const struct scale_group *src,
		 unsigned int cap)
{
	struct scale_group *g = NULL, *ng;
	unsigned int i, k;

	for (i = 0; i < x->nr_g && !g; i++)
		if (scale_same_group(x->g[i].first, src->first))
			g = &x->g[i];
	if (!g) {
		ng = realloc(x->g, (x->nr_g + 1) * sizeof(*ng));
		if (!ng)
			return -1;
		x->g = ng;
		g = &ng[x->nr_g];
		*g = *src;
		g->nr_readers = g->nr_designs = 0;
		g->designs = calloc(cap, sizeof(*g->designs));
		if (!g->designs)
			return -1;
		x->nr_g++;
	}
	for (k = 0; k < src->nr_readers; k++)
		add_reader(g, src->readers[k]);
	for (k = 0; k < src->nr_designs; k++) {
		for (i = 0; i < g->nr_designs &&
			    !scale_same_design(g->designs[i], src->designs[k]); i++)
			;
		if (i == g->nr_designs && i < cap)
			g->designs[g->nr_designs++] = src->designs[k];
	}
	return 0;
}

/* Check runs[0..n-1], order them by vCPU count and merge their tables. */
int xs_open(struct xs_set *x, const struct run *runs, unsigned int n)
{
	int *v = calloc(n, sizeof(*v)), r = 1;
	unsigned int i, j, cap = 0;

	memset(x, 0, sizeof(*x));
	x->run = calloc(n, sizeof(*x->run));
	x->vcpus = calloc(n, sizeof(*x->vcpus));
	if (!v || !x->run || !x->vcpus)
		goto out;
	r = xs_check(runs, n, v);
	if (r)
		goto out;
	/* By vCPU count, by insertion: a handful of runs. */
	for (i = 0; i < n; i++) {
		for (j = x->n; j > 0 && x->vcpus[j - 1] > v[i]; j--) {
			x->run[j] = x->run[j - 1];
			x->vcpus[j] = x->vcpus[j - 1];
		}
		x->run[j] = &runs[i];
		x->vcpus[j] = v[i];
		x->n++;
		cap += runs[i].nr_cells;
	}
	for (i = 0; !r && i < n; i++) {
		struct scale_group *g;
		unsigned int k, ng = scale_groups(x->run[i], &g);

		for (k = 0; !r && k < ng; k++)
			r = merge(x, &g[k], cap) ? 1 : 0;
		scale_groups_free(g, ng);
	}
out:
	free(v);
	return r;
}

void xs_free(struct xs_set *x)
{
	scale_groups_free(x->g, x->nr_g);
	free(x->run);
	free(x->vcpus);
	memset(x, 0, sizeof(*x));
}
