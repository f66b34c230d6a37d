/*
 * Engine families: cells whose workload differs only in its I/O engine,
 * the part after <rw>-<bs>-<qd> (randread-4k-qd1-psync@alone,
 * randread-4k-qd1-pvsync2-hipri@alone and randread-4k-qd1-iouring-hipri@alone
 * are all randread-4k-qd1-*@alone; a workload of fewer than four
 * components has its last one as the engine). One table per family holds
 * the family's cells of every variant, so the polled engines of each
 * variant (pvsync2 hipri, and io_uring hipri: upstream's polling) compare
 * against one interrupt-driven reference, the baseline variant's psync
 * cell. Shared by the markdown tables and summary.json.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

/* Length of the family prefix of a workload ("randread-4k-qd1"), or 0. */
static size_t family_len(const char *workload, size_t len)
{
	size_t i, dashes = 0, third = 0, last = 0;

	for (i = 0; i < len; i++) {
		if (workload[i] != '-')
			continue;
		if (++dashes == 3)
			third = i;
		last = i;
	}
	if (!dashes)
		return 0;
	return dashes >= 3 ? third : last;
}

/* "randread-4k-qd1-iouring-hipri@alone" -> "randread-4k-qd1-*@alone". */
char *engine_family(const char *cell)
{
	const char *at = strchr(cell, '@');
	size_t n;
	char *fam;

	if (!at)
		return NULL;
	n = family_len(cell, at - cell);
	if (!n)
		return NULL;
	if (asprintf(&fam, "%.*s-*%s", (int)n, cell, at) < 0)
		return NULL;
	return fam;
}

/* "randread-4k-qd1-iouring-hipri" -> "iouring-hipri" (the engine). */
const char *engine_name(const char *workload)
{
	size_t n = family_len(workload, strlen(workload));

	return n ? workload + n + 1 : workload;
}

/* The --baseline VARIANT/CELL given for family, as a cell of run, or NULL. */
static struct cell *engine_base(const struct run *run, const struct opts *o,
				const char *family)
{
	unsigned int i;

	for (i = 0; i < o->nr_base_cells; i++) {
		const char *s = o->base_cells[i], *slash = strchr(s, '/');
		char *fam, *variant;
		struct cell *c = NULL;

		if (!slash)
			continue;
		fam = engine_family(slash + 1);
		if (fam && !strcmp(fam, family)) {
			variant = strndup(s, slash - s);
			c = variant ? run_find(run, variant, slash + 1) : NULL;
			free(variant);
		}
		free(fam);
		if (c)
			return c;
	}
	return NULL;
}

/* The baseline variant's <family prefix>-psync cell, or NULL. */
static struct cell *psync_ref(const struct run *run, const char *family)
{
	const char *star = strstr(family, "-*@");
	struct cell *c = NULL;
	char *name;

	if (!star)
		return NULL;
	if (asprintf(&name, "%.*s-psync%s", (int)(star - family), family,
		     star + 2) < 0)
		return NULL;
	c = run_find(run, run->variants[0], name);
	free(name);
	return c;
}

/*
 * If cell i is the first (by sort order: cell name, then variant) of its
 * engine family and the family has at least two engines, fill cols with the
 * family's cells of every variant, the reference first (--baseline
 * VARIANT/CELL for the family, else the baseline variant's psync cell,
 * else the first), the rest by variant then cell name; set *fam (caller
 * frees) and return their number.
 */
unsigned int engine_group(const struct run *run, const struct opts *o,
			  unsigned int i, struct cell **cols, char **fam)
{
	char *f = engine_family(run->cells[i]->name), *g;
	unsigned int j, k, v, n = 0;
	struct cell *ref;

	*fam = NULL;
	if (!f)
		return 0;
	for (j = 0; j < i; j++) {
		g = engine_family(run->cells[j]->name);
		k = g && !strcmp(g, f);
		free(g);
		if (k) {
			free(f);
			return 0;	/* not the first of its family */
		}
	}
	ref = engine_base(run, o, f);
	if (!ref)
		ref = psync_ref(run, f);
	if (ref)
		cols[n++] = ref;
	for (v = 0; v < run->nr_variants; v++) {
		for (j = i; j < run->nr_cells; j++) {
			struct cell *c = run->cells[j];

			if (c == ref || strcmp(c->variant, run->variants[v]))
				continue;
			g = engine_family(c->name);
			if (g && !strcmp(g, f))
				cols[n++] = c;
			free(g);
		}
	}
	/* One engine only: the per-cell table already compares it. */
	for (j = 1; j < n && !strcmp(cols[j]->workload, cols[0]->workload); j++)
		;
	if (n < 2 || j == n) {
		free(f);
		return 0;
	}
	*fam = f;
	return n;
}
