// SPDX-License-Identifier: GPL-2.0
/*
 * Engine families: cells of one variant whose workload differs only in
 * its last '-' component (randread-4k-qd1-psync@alone and
 * randread-4k-qd1-pvsync2@alone are both randread-4k-qd1-*@alone).
 * Shared by the markdown tables and summary.json.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"

/* "randread-4k-qd1-psync@alone" -> "randread-4k-qd1-*@alone". */
char *engine_family(const char *cell)
{
	const char *at = strchr(cell, '@'), *dash;
	char *fam;

	if (!at)
		return NULL;
	for (dash = at; dash > cell && *dash != '-'; dash--)
		;
	if (dash == cell)
		return NULL;
	if (asprintf(&fam, "%.*s-*%s", (int)(dash - cell), cell, at) < 0)
		return NULL;
	return fam;
}

const char *engine_base(const struct opts *o, const char *variant,
			       const char *family)
{
	unsigned int i;

	for (i = 0; i < o->nr_base_cells; i++) {
		const char *s = o->base_cells[i], *slash = strchr(s, '/');
		char *fam;
		int match;

		if (!slash || strncmp(s, variant, slash - s) ||
		    variant[slash - s])
			continue;
		fam = engine_family(slash + 1);
		match = fam && !strcmp(fam, family);
		free(fam);
		if (match)
			return slash + 1;
	}
	return NULL;
}

/*
 * If cell i is the first (by sort order) of its engine family within its
 * variant and the family has at least two cells, fill cols with them,
 * baseline first, set *fam (caller frees) and return their number.
 */
unsigned int engine_group(const struct run *run, const struct opts *o,
			  unsigned int i, struct cell **cols, char **fam)
{
	const char *var = run->cells[i]->variant, *base;
	unsigned int j, n = 0;
	char *f = engine_family(run->cells[i]->name), *g;

	*fam = NULL;
	if (!f)
		return 0;
	for (j = 0; j < run->nr_cells; j++) {
		if (strcmp(run->cells[j]->variant, var))
			continue;
		g = engine_family(run->cells[j]->name);
		if (g && !strcmp(g, f)) {
			if (j < i) {
				free(g);
				free(f);
				return 0;	/* not the first of its family */
			}
			cols[n++] = run->cells[j];
		}
		free(g);
	}
	if (n < 2) {
		free(f);
		return 0;
	}
	base = engine_base(o, var, f);
	for (j = 1; base && j < n; j++) {
		if (!strcmp(cols[j]->name, base)) {
			struct cell *t = cols[0];

			cols[0] = cols[j];
			cols[j] = t;
		}
	}
	*fam = f;
	return n;
}
