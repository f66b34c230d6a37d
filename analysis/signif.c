// SPDX-License-Identifier: GPL-2.0
/*
 * Multiple comparisons: which metrics are primary in this run
 * (metrics.c primary_metrics, with their fallbacks), and Holm's
 * correction over every secondary metric's p-value of the report: the
 * per-cell comparisons (each cell against the baseline label's) and the
 * engine comparisons (each column against the family's first), each
 * (baseline cell, cell, metric) counted once.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "engine.h"
#include "signif.h"
#include "stats.h"

/* Does the run have key? lat_*: only when every rep has lat bins. */
static int run_has(const char *key, const void *ctx)
{
	const struct run *run = ctx;
	int mi = minst_find(key);
	unsigned int i;

	if (!strncmp(key, "lat_", 4))
		return run->has_tlat;
	for (i = 0; mi >= 0 && i < run->nr_cells; i++)
		if (run->cells[i]->agg[mi].n)
			return 1;
	return 0;
}

static int secondary(const struct run *run, unsigned int mi)
{
	const struct metric *m = minsts[mi].m;

	return !run->primary[mi] && m->better != BETTER_NONE &&
	       m->agg != AGG_SUM;
}

static int add_pair(struct run *run, const struct cell *base,
		    const struct cell *c)
{
	struct holm_entry *h;
	unsigned int i, mi;

	if (!base || base == c)
		return 0;
	for (i = 0; i < run->nr_holm; i++)
		if (run->holm[i].base == base && run->holm[i].c == c)
			return 0;	/* already in */
	for (mi = 0; mi < nr_minsts; mi++) {
		int exact;
		double p;

		if (!secondary(run, mi) || isnan(base->agg[mi].value) ||
		    isnan(c->agg[mi].value))
			continue;
		p = compare_p(base, c, mi, &exact);
		if (isnan(p))
			continue;
		h = realloc(run->holm, (run->nr_holm + 1) * sizeof(*h));
		if (!h)
			return -1;
		run->holm = h;
		h[run->nr_holm++] = (struct holm_entry){ base, c, mi, p, NAN };
	}
	return 0;
}

int run_significance(struct run *run, const struct opts *o)
{
	struct cell **cols = calloc(run->nr_cells + 1, sizeof(*cols));
	double *p, *adj;
	unsigned int i, j, n;
	char *fam;

	for (i = 0; i < nr_minsts; i++)
		run->primary[i] = metric_primary(minsts[i].key, run_has, run);
	if (!cols)
		return -1;
	for (i = 0; i < run->nr_cells; i++)
		if (add_pair(run, cell_baseline(run, run->cells[i]),
			     run->cells[i]))
			goto oom;
	for (i = 0; i < run->nr_cells; i++) {
		n = engine_group(run, o, i, cols, &fam);
		free(fam);
		for (j = 1; j < n; j++)
			if (add_pair(run, cols[0], cols[j]))
				goto oom;
	}
	free(cols);
	p = calloc(run->nr_holm + 1, sizeof(*p));
	adj = calloc(run->nr_holm + 1, sizeof(*adj));
	if (!p || !adj) {
		free(p);
		free(adj);
		return -1;
	}
	for (i = 0; i < run->nr_holm; i++)
		p[i] = run->holm[i].p;
	holm_adjust(p, run->nr_holm, adj);
	for (i = 0; i < run->nr_holm; i++)
		run->holm[i].p_holm = adj[i];
	free(p);
	free(adj);
	return 0;
oom:
	free(cols);
	return -1;
}
