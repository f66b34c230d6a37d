// SPDX-License-Identifier: GPL-2.0
/*
 * --compare RUN_A RUN_B: two runs read back from the summary.json each
 * run's report wrote, not from their raw files (committed runs keep
 * those in raw.tar.xz). Numbers of two timing models never meet, so
 * runs of different (or unknown) models are refused. A cell is (label,
 * workload, condition, device); cells in both runs get their p50, mean
 * and CPU per I/O side by side, those in one run only are kept to be
 * named. Each label's kernel series is read from its first cell.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "device.h"
#include "runcmp.h"

const char *rc_str(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

static const char *str0(json_t *o, const char *key)
{
	return rc_str(o, key) ?: "";
}

static double num(json_t *c, const char *key, const char *suffix)
{
	char k[128];
	json_t *v;

	snprintf(k, sizeof(k), "%s%s", key, suffix);
	v = json_object_get(c, k);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* (b - a) / |a| in %, NAN when either is missing or a is 0. */
double rc_change_pct(double a, double b)
{
	if (isnan(a) || isnan(b) || a == 0)
		return NAN;
	return (b - a) / fabs(a) * 100;
}

/* Closed intervals: touching ones overlap. -1 when one is missing. */
int rc_disjoint(double a_lo, double a_hi, double b_lo, double b_hi)
{
	if (isnan(a_lo) || isnan(a_hi) || isnan(b_lo) || isnan(b_hi))
		return -1;
	return a_hi < b_lo || b_hi < a_lo;
}

/* A cell's "series": a string of names (what rep.c copies) or a list. */
json_t *rc_patches(json_t *series)
{
	json_t *out = json_array(), *v;
	const char *s, *e;
	size_t i;

	if (json_is_array(series)) {
		json_array_foreach(series, i, v)
			if (json_is_string(v))
				json_array_append(out, v);
		return out;
	}
	s = json_is_string(series) ? json_string_value(series) : "";
	for (;;) {
		s += strspn(s, " \t\n");
		if (!*s)
			break;
		e = s + strcspn(s, " \t\n");
		json_array_append_new(out, json_stringn(s, e - s));
		s = e;
	}
	return out;
}

static int rc_load(struct rc_run *r, const char *dir)
{
	json_error_t jerr;
	struct stat st;
	json_t *shift;
	int ret = 1;
	char *p;

	r->dir = dir;
	if (asprintf(&p, "%s/summary.json", dir) < 0)
		return 1;
	if (stat(p, &st)) {
		if (errno == ENOENT || errno == ENOTDIR) {
			fprintf(stderr, "--compare: %s has no summary.json (a run's report writes it: pollbench-report %s)\n",
				dir, dir);
			ret = 2;
		} else {
			fprintf(stderr, "%s: %s\n", p, strerror(errno));
		}
		goto out;
	}
	r->sum = json_load_file(p, 0, &jerr);
	if (!r->sum) {
		fprintf(stderr, "%s: line %d column %d: %s\n", p, jerr.line,
			jerr.column, jerr.text);
		goto out;
	}
	if (!json_is_array(json_object_get(r->sum, "cells"))) {
		fprintf(stderr, "%s: no \"cells\" array: not a summary.json of pollbench-report\n",
			p);
		goto out;
	}
	shift = json_object_get(r->sum, "icount_shift");
	timing_of_key(rc_str(r->sum, "timing_model"),
		      json_is_integer(shift) ? json_integer_value(shift) : 0,
		      &r->timing);
	ret = 0;
out:
	free(p);
	return ret;
}

/* Both runs list key among their primary metrics (signif.c's choice). */
static int both_primary(const struct rc_set *s, const char *key)
{
	unsigned int r, n = 0;
	json_t *v;
	size_t i;

	for (r = 0; r < 2; r++)
		json_array_foreach(json_object_get(s->run[r].sum,
						   "primary_metrics"), i, v)
			if (json_is_string(v) &&
			    !strcmp(json_string_value(v), key)) {
				n++;
				break;
			}
	return n == 2;
}

/* label, then device (null_blk by its latency), workload, condition. */
static int key_cmp(json_t *a, json_t *b)
{
	const char *da = str0(a, "device"), *db = str0(b, "device");
	int r = strcmp(str0(a, "variant"), str0(b, "variant"));

	if (r)
		return r;
	if (nullb_us(da) != nullb_us(db))
		return nullb_us(da) < nullb_us(db) ? -1 : 1;
	r = strcmp(da, db);
	if (!r)
		r = strcmp(str0(a, "workload"), str0(b, "workload"));
	return r ? r : strcmp(str0(a, "condition"), str0(b, "condition"));
}

static int cmp_cell(const void *x, const void *y)
{
	return key_cmp(*(json_t *const *)x, *(json_t *const *)y);
}

static json_t **sorted(json_t *arr, size_t *n)
{
	json_t **v;
	size_t i;

	*n = json_array_size(arr);
	v = calloc(*n + 1, sizeof(*v));
	for (i = 0; v && i < *n; i++)
		v[i] = json_array_get(arr, i);
	if (v)
		qsort(v, *n, sizeof(*v), cmp_cell);
	return v;
}

/* The invalid_reason of c's twin among run's invalid cells, or NULL. */
static const char *invalid_in(const struct rc_run *run, json_t *c)
{
	json_t *v;
	size_t i;

	json_array_foreach(json_object_get(run->sum, "invalid_cells"), i, v)
		if (!key_cmp(v, c))
			return rc_str(v, "invalid_reason") ?: "invalid";
	return NULL;
}

static void values(const struct rc_set *s, struct rc_cell *c)
{
	unsigned int k;

	for (k = 0; k < RC_NR; k++) {
		struct rc_val *v = &c->v[k];

		v->a = num(c->c[0], s->key[k], "");
		v->b = num(c->c[1], s->key[k], "");
		v->a_lo = num(c->c[0], s->key[k], "_ci95_lo");
		v->a_hi = num(c->c[0], s->key[k], "_ci95_hi");
		v->b_lo = num(c->c[1], s->key[k], "_ci95_lo");
		v->b_hi = num(c->c[1], s->key[k], "_ci95_hi");
		v->change_pct = rc_change_pct(v->a, v->b);
		v->disjoint = rc_disjoint(v->a_lo, v->a_hi, v->b_lo, v->b_hi);
	}
}

/* Names in x that y lacks. */
static json_t *missing_from(json_t *x, json_t *y)
{
	json_t *out = json_array(), *v, *w;
	size_t i, j;
	int found;

	json_array_foreach(x, i, v) {
		found = 0;
		json_array_foreach(y, j, w)
			found |= json_equal(v, w);
		if (!found)
			json_array_append(out, v);
	}
	return out;
}

static void series_of(struct rc_label *l)
{
	struct rc_kernel *a = &l->k[0], *b = &l->k[1];

	l->added = missing_from(b->patches, a->patches);
	l->removed = missing_from(a->patches, b->patches);
	if (!a->kernel || !b->kernel)
		l->series = RC_ONE_RUN;
	else if (!json_equal(a->patches, b->patches))
		l->series = RC_PATCHES;
	else if (strcmp(a->commit, b->commit))
		l->series = RC_COMMIT;
	else
		l->series = RC_SAME;
}

/* The labels of the merged cells (sorted by label), with their kernels. */
static int labels_of(struct rc_set *s, const struct rc_cell *m, size_t n)
{
	struct rc_label *l = NULL;
	unsigned int r;
	size_t i;

	s->labels = calloc(n + 1, sizeof(*s->labels));
	if (!s->labels)
		return 1;
	for (i = 0; i < n; i++) {
		json_t *c = m[i].c[0] ?: m[i].c[1];

		if (!l || strcmp(l->label, str0(c, "variant"))) {
			l = &s->labels[s->nr_labels++];
			l->label = str0(c, "variant");
		}
		for (r = 0; r < 2; r++) {
			if (!m[i].c[r] || l->k[r].kernel)
				continue;
			l->k[r].kernel = rc_str(m[i].c[r], "kernel_variant") ?:
					 l->label;
			l->k[r].commit = rc_str(m[i].c[r], "kernel_commit") ?:
					 "?";
			l->k[r].patches = rc_patches(json_object_get(m[i].c[r],
								     "series"));
		}
	}
	for (i = 0; i < s->nr_labels; i++) {
		for (r = 0; r < 2; r++)
			if (!s->labels[i].k[r].patches)
				s->labels[i].k[r].patches = json_array();
		series_of(&s->labels[i]);
	}
	return 0;
}

/* Merge the sorted cells; those in both runs first, each part in order. */
static int match(struct rc_set *s)
{
	size_t na, nb, i = 0, j = 0, n = 0, k;
	json_t **a = sorted(json_object_get(s->run[0].sum, "cells"), &na);
	json_t **b = sorted(json_object_get(s->run[1].sum, "cells"), &nb);
	struct rc_cell *m = calloc(na + nb + 1, sizeof(*m));
	int ret = 1;

	s->cells = calloc(na + nb + 1, sizeof(*s->cells));
	if (!a || !b || !m || !s->cells)
		goto out;
	while (i < na || j < nb) {
		int r = i == na ? 1 : j == nb ? -1 : key_cmp(a[i], b[j]);

		m[n].c[0] = r <= 0 ? a[i++] : NULL;
		m[n].c[1] = r >= 0 ? b[j++] : NULL;
		n++;
	}
	if (labels_of(s, m, n))
		goto out;
	for (k = 0; k < n; k++)
		if (m[k].c[0] && m[k].c[1]) {
			s->cells[s->nr_cells] = m[k];
			values(s, &s->cells[s->nr_cells++]);
		}
	s->nr_both = s->nr_cells;
	for (k = 0; k < n; k++) {
		struct rc_cell *c = &s->cells[s->nr_cells];

		if (m[k].c[0] && m[k].c[1])
			continue;
		*c = m[k];
		if (c->c[0])
			c->invalid[1] = invalid_in(&s->run[1], c->c[0]);
		else
			c->invalid[0] = invalid_in(&s->run[0], c->c[1]);
		s->nr_cells++;
	}
	ret = 0;
out:
	free(a);
	free(b);
	free(m);
	return ret;
}

/*
 * 0: s filled; 2: refused, before anything is written (a run without
 * summary.json, timing models that differ or are unknown, no shared
 * cell); 1: broken input. Messages on stderr.
 */
int rc_open(struct rc_set *s, const char *dir_a, const char *dir_b)
{
	const struct timing *ta = &s->run[0].timing, *tb = &s->run[1].timing;
	char la[96], lb[96];
	int r;

	memset(s, 0, sizeof(*s));
	r = rc_load(&s->run[0], dir_a);
	if (!r)
		r = rc_load(&s->run[1], dir_b);
	if (!r && (ta->kind == TIMING_UNKNOWN || tb->kind == TIMING_UNKNOWN)) {
		fprintf(stderr, "--compare: %s's timing model is unknown (summary.json \"timing_model\"); its numbers are compared with no other run's\n",
			ta->kind == TIMING_UNKNOWN ? dir_a : dir_b);
		r = 2;
	}
	if (!r && !timing_equal(ta, tb)) {
		fprintf(stderr, "--compare: %s is %s, %s is %s; never compare numbers across timing models\n",
			dir_a, timing_label(ta, la, sizeof(la)), dir_b,
			timing_label(tb, lb, sizeof(lb)));
		r = 2;
	}
	if (!r) {
		s->lat = both_primary(s, "lat_p50_ns");
		s->window = both_primary(s, "cpu_per_io_ns");
		s->key[RC_P50] = s->lat ? "lat_p50_ns" : "clat_p50_ns";
		s->key[RC_MEAN] = s->lat ? "lat_mean_ns" : "clat_mean_ns";
		s->key[RC_CPU] = s->window ? "cpu_per_io_ns" :
					     "cpu_busy_ns_per_io";
		r = match(s);
	}
	if (!r && !s->nr_both) {
		fprintf(stderr, "--compare: %s and %s share no cell (label, workload, condition, device): nothing to compare\n",
			dir_a, dir_b);
		r = 2;
	}
	if (r)
		rc_free(s);
	return r;
}

void rc_free(struct rc_set *s)
{
	unsigned int i, r;

	for (i = 0; s->labels && i < s->nr_labels; i++) {
		for (r = 0; r < 2; r++)
			json_decref(s->labels[i].k[r].patches);
		json_decref(s->labels[i].added);
		json_decref(s->labels[i].removed);
	}
	free(s->labels);
	free(s->cells);
	for (r = 0; r < 2; r++)
		json_decref(s->run[r].sum);
	memset(s, 0, sizeof(*s));
}
