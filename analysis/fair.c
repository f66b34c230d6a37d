// SPDX-License-Identifier: GPL-2.0
/*
 * The fairness trade-off: per <workload>@competitor cell its reference
 * (the interrupt-driven psync cell, or --fair-ref) and the latency gained
 * over it, beside the competitor's loss (loss.c). Rendered by fair_out.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fair.h"
#include "loss.h"

/* randread-4k-qd1-iouring-hipri -> randread-4k-qd1-psync */
static char *psync_of(const char *w)
{
	const char *p = w;
	char *out;
	int dashes = 0;

	while (*p && dashes < 3)
		if (*p++ == '-')
			dashes++;
	if (dashes < 3)
		return NULL;
	if (asprintf(&out, "%.*spsync", (int)(p - w), w) < 0)
		return NULL;
	return out;
}

static int prefix_len(const char *w)
{
	return strcspn(w, "-");
}

/*
 * --fair-ref [VARIANT/]WORKLOAD, else the baseline variant's psync cell
 * with the same <rw>-<bs>-<qd> (or, failing that, the same <rw>), both
 * under the same condition and device.
 */
static const struct cell *fair_ref(const struct run *run,
				   const struct opts *o, const struct cell *c)
{
	const char *var = run->variants[0], *w = NULL, *slash;
	char *v = NULL, *name;
	const struct cell *r = NULL;

	if (o->fair_ref) {
		slash = strchr(o->fair_ref, '/');
		if (slash) {
			v = strndup(o->fair_ref, slash - o->fair_ref);
			var = v;
			w = slash + 1;
		} else {
			w = o->fair_ref;
		}
		name = cell_compose(w, c->condition, c->device);
		r = name ? run_find(run, var, name) : NULL;
		free(name);
		free(v);
		return r;
	}
	return fair_psync_ref(run, c);
}

/*
 * The interrupt-driven reference of c: the baseline variant's psync cell
 * with the same <rw>-<bs>-<qd> (or, failing that, the same <rw>), under
 * the same condition and device; NULL if there is none.
 */
const struct cell *fair_psync_ref(const struct run *run,
				  const struct cell *c)
{
	const char *var = run->variants[0];
	const struct cell *r;
	char *want, *name;
	unsigned int i;

	want = psync_of(c->workload);
	name = want ? cell_compose(want, c->condition, c->device) : NULL;
	r = name ? run_find(run, var, name) : NULL;
	free(want);
	free(name);
	for (i = 0; !r && i < run->nr_cells; i++) {
		const struct cell *x = run->cells[i];
		size_t l = strlen(x->workload);

		if (!strcmp(x->variant, var) &&
		    !strcmp(x->condition, c->condition) &&
		    !strcmp(x->device, c->device) && x->merged.n &&
		    prefix_len(x->workload) == prefix_len(c->workload) &&
		    !strncmp(x->workload, c->workload,
			     prefix_len(c->workload)) &&
		    l > 6 && !strcmp(x->workload + l - 6, "-psync"))
			r = x;
	}
	return r;
}

static double gain(const struct cell *ref, const struct cell *c, int mi)
{
	double b, v;

	if (!ref)
		return NAN;
	b = ref->agg[mi].value;
	v = c->agg[mi].value;
	return b > 0 ? (b - v) / b * 100 + 0.0 : NAN;
}

/* Rows by device, then cell name, then variant (the cells' order). */
unsigned int fair_rows(const struct run *run, const struct opts *o,
		       struct fair_row **rows)
{
	struct fair_row *r = calloc(run->nr_cells + 1, sizeof(*r));
	unsigned int i, j, n = 0;

	*rows = r;
	if (!r)
		return 0;
	for (i = 0; i < run->nr_cells; i++) {
		const struct cell *c = run->cells[i];
		int first = 1;

		/* First cell of its device: emit that device's rows. */
		for (j = 0; j < i; j++)
			if (!strcmp(run->cells[j]->device, c->device))
				first = 0;
		if (!first)
			continue;
		for (j = i; j < run->nr_cells; j++) {
			const struct cell *x = run->cells[j];

			if (!cell_is_competitor(x) || !x->merged.n ||
			    strcmp(x->device, c->device))
				continue;
			r[n].c = x;
			r[n].ref = fair_ref(run, o, x);
			r[n].p50_gain_pct = gain(r[n].ref, x,
						 run_lat_mi(run, "p50"));
			r[n].p99_gain_pct = gain(r[n].ref, x,
						 run_lat_mi(run, "p99"));
			n++;
		}
	}
	return n;
}

