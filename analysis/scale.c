// SPDX-License-Identifier: GPL-2.0
/*
 * The scale matrix: N synchronous QD1 readers (N fio jobs, one entry
 * each in fio.json), workloads <rw>-<bs>-r<N>[<suffix>]-<engine>
 * (randread-4k-r8-psync, randread-4k-r8pin-pvsync2-hipri, ...). Per
 * prefix, suffix, device and condition, every label+engine against the
 * reader count N, and where each design's IOPS first falls below the
 * interrupt-driven reference's at the same N: the baseline label's
 * <rw>-<bs>-r<N><suffix>-psync cell (exactly that N: fair.c's looser
 * fallback to another psync cell would compare different reader counts).
 * This file selects and compares; scale_out.c and scale_plot.c render.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale.h"

/* 0: workload is <rw>-<bs>-r<N>[<suffix>]-<engine> (w filled); -1 not. */
int scale_parse(const char *workload, struct scale_wl *w)
{
	const char *d1 = strchr(workload, '-'), *d2, *d3, *p, *s;
	unsigned long n = 0;

	d2 = d1 ? strchr(d1 + 1, '-') : NULL;
	d3 = d2 ? strchr(d2 + 1, '-') : NULL;
	if (!d3 || d2[1] != 'r' || d2[2] < '1' || d2[2] > '9' || !d3[1] ||
	    (size_t)(d2 - workload) >= sizeof(w->prefix))
		return -1;
	for (p = d2 + 2; p < d3 && *p >= '0' && *p <= '9'; p++) {
		n = n * 10 + (*p - '0');
		if (n > 1000000)
			return -1;
	}
	if ((size_t)(d3 - p) >= sizeof(w->suffix))
		return -1;
	for (s = p; s < d3; s++)
		if (*s < 'a' || *s > 'z')
			return -1;
	snprintf(w->prefix, sizeof(w->prefix), "%.*s", (int)(d2 - workload),
		 workload);
	snprintf(w->suffix, sizeof(w->suffix), "%.*s", (int)(d3 - p), p);
	w->readers = n;
	w->engine = d3 + 1;
	return 0;
}

int scale_in(const struct cell *c)
{
	struct scale_wl w;

	return c->merged.n && !scale_parse(c->workload, &w);
}

/* A meta.json or run.json "vcpus": a number or a string of one; -1 none. */
static int vcpus_of(json_t *j)
{
	json_t *v = json_object_get(j, "vcpus");
	char *end;
	long n;

	if (json_is_integer(v))
		return json_integer_value(v) > 0 ? json_integer_value(v) : -1;
	if (!json_is_string(v))
		return -1;
	n = strtol(json_string_value(v), &end, 10);
	return *end || n <= 0 || n > 4096 ? -1 : n;
}

/*
 * The guest's vCPUs: run.json's "vcpus", else the first scale cell's
 * meta.json; -1 when neither says.
 */
int scale_vcpus(const struct run *run)
{
	unsigned int i;
	int v = vcpus_of(run->runjson);

	for (i = 0; v < 0 && i < run->nr_cells; i++)
		if (scale_in(run->cells[i]))
			v = vcpus_of(run->cells[i]->reps[0].meta);
	return v;
}

/* Same table: prefix, suffix, device and condition. */
int scale_same_group(const struct cell *a, const struct cell *b)
{
	struct scale_wl x, y;

	return !scale_parse(a->workload, &x) && !scale_parse(b->workload, &y) &&
	       !strcmp(x.prefix, y.prefix) && !strcmp(x.suffix, y.suffix) &&
	       !strcmp(a->device, b->device) &&
	       !strcmp(a->condition, b->condition);
}

/* Same row: label and engine. */
int scale_same_design(const struct cell *a, const struct cell *b)
{
	struct scale_wl x, y;

	return !scale_parse(a->workload, &x) && !scale_parse(b->workload, &y) &&
	       !strcmp(a->variant, b->variant) && !strcmp(x.engine, y.engine);
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return (x > y) - (x < y);
}

static int fill_group(const struct run *run, unsigned int i,
		      struct scale_group *g)
{
	unsigned int j, k;

	memset(g, 0, sizeof(*g));
	g->first = run->cells[i];
	scale_parse(g->first->workload, &g->wl);
	g->designs = calloc(run->nr_cells, sizeof(*g->designs));
	if (!g->designs)
		return -1;
	for (j = i; j < run->nr_cells; j++) {
		const struct cell *c = run->cells[j];
		struct scale_wl w;

		if (!scale_in(c) || !scale_same_group(c, g->first))
			continue;
		scale_parse(c->workload, &w);
		for (k = 0; k < g->nr_readers && g->readers[k] != w.readers; k++)
			;
		if (k == g->nr_readers) {
			if (k == sizeof(g->readers) / sizeof(g->readers[0])) {
				fprintf(stderr, "%s: more than %u reader counts\n",
					c->name, k);
				return -1;
			}
			g->readers[g->nr_readers++] = w.readers;
		}
		for (k = 0; k < g->nr_designs &&
			    !scale_same_design(g->designs[k], c); k++)
			;
		if (k == g->nr_designs)
			g->designs[g->nr_designs++] = c;
	}
	qsort(g->readers, g->nr_readers, sizeof(g->readers[0]), cmp_uint);
	return 0;
}

/* Every group of the run, in the order of their first cells; 0: none. */
unsigned int scale_groups(const struct run *run, struct scale_group **out)
{
	struct scale_group *g = NULL;
	unsigned int i, j, n = 0;

	*out = NULL;
	for (i = 0; i < run->nr_cells; i++) {
		struct scale_group *ng;

		if (!scale_in(run->cells[i]))
			continue;
		for (j = 0; j < n && !scale_same_group(g[j].first, run->cells[i]); j++)
			;
		if (j < n)
			continue;
		ng = realloc(g, (n + 1) * sizeof(*g));
		if (!ng || fill_group(run, i, &ng[n])) {
			scale_groups_free(ng ? ng : g, ng ? n + 1 : n);
			return 0;
		}
		g = ng;
		n++;
	}
	*out = g;
	return n;
}

void scale_groups_free(struct scale_group *g, unsigned int n)
{
	unsigned int i;

	for (i = 0; g && i < n; i++)
		free(g[i].designs);
	free(g);
}

const struct cell *scale_cell(const struct run *run,
			      const struct scale_group *g, const char *variant,
			      const char *engine, unsigned int readers)
{
	const struct cell *c;
	char *w, *name;

	if (asprintf(&w, "%s-r%u%s-%s", g->wl.prefix, readers, g->wl.suffix,
		     engine) < 0)
		return NULL;
	name = cell_compose(w, g->first->condition, g->first->device);
	c = name ? run_find(run, variant, name) : NULL;
	free(w);
	free(name);
	return c && c->merged.n ? c : NULL;
}

/* Metric key of design d (label + engine) at N readers in run; NAN none. */
double scale_value(const struct run *run, const struct scale_group *g,
		   const struct cell *d, unsigned int readers, const char *key)
{
	int mi = minst_find(key);
	const struct cell *c;
	struct scale_wl w;

	if (mi < 0 || scale_parse(d->workload, &w))
		return NAN;
	c = scale_cell(run, g, d->variant, w.engine, readers);
	return c && c->agg[mi].n ? c->agg[mi].value : NAN;
}

/* Interrupts at N: the baseline label's psync cell with N readers. */
const struct cell *scale_ref(const struct run *run,
			     const struct scale_group *g, unsigned int readers)
{
	return scale_cell(run, g, run->variants[0], "psync", readers);
}

int scale_is_ref(const struct run *run, const struct cell *d)
{
	struct scale_wl w;

	return !scale_parse(d->workload, &w) && !strcmp(w.engine, "psync") &&
	       !strcmp(d->variant, run->variants[0]);
}

/*
 * The smallest N at which design d's mean IOPS over boots is below
 * interrupts' at that N, with the report's Mann-Whitney test of that
 * pair (compare.c: Holm-adjusted over the report's secondary tests when
 * the engine comparison holds the pair, else none, a point comparison).
 */
void scale_below(const struct run *run, const struct scale_group *g,
		 const struct cell *d, struct scale_below *b)
{
	int mi = minst_find("iops");
	struct scale_wl w;
	unsigned int k;

	memset(b, 0, sizeof(*b));
	b->readers = -1;
	b->iops = b->ref_iops = NAN;
	b->cmp.p = b->cmp.p_holm = b->cmp.change_pct = b->cmp.cliff = NAN;
	if (mi < 0 || scale_parse(d->workload, &w))
		return;
	for (k = 0; k < g->nr_readers; k++) {
		const struct cell *c = scale_cell(run, g, d->variant, w.engine,
						  g->readers[k]);
		const struct cell *r = scale_ref(run, g, g->readers[k]);

		if (!c || !r || c == r || !c->agg[mi].n || !r->agg[mi].n ||
		    !(c->agg[mi].value < r->agg[mi].value))
			continue;
		b->readers = g->readers[k];
		b->iops = c->agg[mi].value;
		b->ref_iops = r->agg[mi].value;
		b->reps = c->agg[mi].n;
		b->ref_reps = r->agg[mi].n;
		compare(run, r, c, mi, &b->cmp);
		return;
	}
}
