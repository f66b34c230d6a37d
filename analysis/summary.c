// SPDX-License-Identifier: GPL-2.0
/*
 * summary.json, the flat machine-readable summary that --validate
 * recomputes and diffs (aggregation: aggregate.c, comparisons: compare.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "breakdown_out.h"
#include "compare.h"
#include "crossover_out.h"
#include "engine.h"
#include "fair_out.h"
#include "fmt.h"
#include "precision_out.h"
#include "scale_out.h"
#include "stats.h"
#include "summary.h"

#define MW_STR2(x) #x
#define MW_STR(x) MW_STR2(x)
#define MW_DESCRIPTION \
	"Mann-Whitney U on mid-ranks, two-sided, exact permutation distribution (ties included) when C(n1+n2, n1) <= " MW_STR(MW_EXACT_MAX_SPLITS) ", else normal approximation with tie correction"

static const char *const prov_keys[] = {
	"kernel_release", "kernel_commit", "kernel_baseline", "series",
	"config_hash", "qemu_version", "accel", "timing", "vcpus",
	"memory_mib", "host_cpu", "fio_version",
};

static void set_key(json_t *o, const char *key, const char *suffix,
		    json_t *v)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "%.127s%.64s", key, suffix);
	json_object_set_new(o, buf, v);
}

static void cmp_json(json_t *o, const struct run *run,
		     const struct cell *base, const struct cell *c,
		     unsigned int mi)
{
	const char *k = minsts[mi].key;
	struct cmp cmp;

	if (minsts[mi].m->agg == AGG_SUM)
		return;
	compare(run, base, c, mi, &cmp);
	set_key(o, k, "_change_better_pct", jnum(cmp.change_pct));
	set_key(o, k, "_p_value", jnum(cmp.p));
	set_key(o, k, "_p_value_holm", jnum(cmp.p_holm));
	set_key(o, k, "_primary", json_boolean(cmp.primary));
	set_key(o, k, "_cliffs_delta_better", jnum(cmp.cliff));
	set_key(o, k, "_significant", json_boolean(cmp.significant));
}

static json_t *cell_json(const struct run *run, const struct cell *c)
{
	const struct cell *base = cell_baseline(run, c);
	json_t *o = json_object(), *ids = json_array(), *meta;
	unsigned int i, mi;

	json_object_set_new(o, "variant", json_string(c->variant));
	json_object_set_new(o, "cell", json_string(c->name));
	json_object_set_new(o, "workload", json_string(c->workload));
	json_object_set_new(o, "condition", json_string(c->condition));
	json_object_set_new(o, "device", json_string(c->device));
	json_object_set_new(o, "reps", json_integer(c->nr_reps));
	if (c->cyc.range)
		json_object_set_new(o, "cyclictest_range_us",
				    json_integer(c->cyc.range));
	for (i = 0; i < c->nr_reps; i++)
		json_array_append_new(ids, json_integer(c->reps[i].num));
	json_object_set_new(o, "rep_ids", ids);
	json_object_set_new(o, "baseline_variant",
			    base && base != c ? json_string(base->variant) :
						json_null());
	meta = c->reps[0].meta;
	for (i = 0; i < sizeof(prov_keys) / sizeof(prov_keys[0]); i++) {
		json_t *v = json_object_get(meta, prov_keys[i]);

		json_object_set(o, prov_keys[i], v ? v : json_null());
	}
	/* The label's kernel and settings (older runs: label = kernel). */
	json_object_set_new(o, "kernel_variant",
			    json_string(cell_kernel_variant(c)));
	for (i = 0; i < 2; i++) {
		static const char *const cfg_keys[] = { "cmdline_extra",
							"queue_settings" };
		json_t *v = json_object_get(meta, cfg_keys[i]);

		json_object_set(o, cfg_keys[i], v ? v : json_string(""));
	}

	for (mi = 0; mi < nr_minsts; mi++) {
		const struct aggval *a = &c->agg[mi];
		const char *k = minsts[mi].key;
		json_t *per;

		if (!a->n && (minsts[mi].m->flags & M_FAMILY))
			continue;	/* family member this cell lacks */
		per = json_array();
		set_key(o, k, "", jnum(a->value));
		if (minsts[mi].m->agg != AGG_SUM) {
			set_key(o, k, "_ci95_lo", jnum(a->lo));
			set_key(o, k, "_ci95_hi", jnum(a->hi));
		}
		if (agg_has_pooled(minsts[mi].m->agg))
			set_key(o, k, "_pooled", jnum(a->pooled));
		if (minsts[mi].m->flags & M_OVERFLOW)
			set_key(o, k, "_lower_bound", json_boolean(a->lower));
		for (i = 0; i < c->nr_reps; i++)
			json_array_append_new(per, jnum(c->reps[i].val[mi]));
		set_key(o, k, "_per_rep", per);
		if (base && base != c)
			cmp_json(o, run, base, c, mi);
	}
	return o;
}

/* Engine families: one flat object per non-baseline column. */
static json_t *engine_json(const struct run *run, const struct opts *opts)
{
	struct cell **cols = calloc(run->nr_cells, sizeof(*cols));
	json_t *arr = json_array();
	unsigned int i, j, mi, n;
	char *fam;

	for (i = 0; cols && i < run->nr_cells; i++) {
		n = engine_group(run, opts, i, cols, &fam);
		for (j = 1; j < n; j++) {
			json_t *o = json_object();

			json_object_set_new(o, "variant",
					    json_string(cols[j]->variant));
			json_object_set_new(o, "family", json_string(fam));
			json_object_set_new(o, "cell",
					    json_string(cols[j]->name));
			json_object_set_new(o, "baseline_cell",
					    json_string(cols[0]->name));
			json_object_set_new(o, "baseline_cell_variant",
					    json_string(cols[0]->variant));
			for (mi = 0; mi < nr_minsts; mi++) {
				if (!cols[j]->agg[mi].n)
					continue;
				set_key(o, minsts[mi].key, "",
					jnum(cols[j]->agg[mi].value));
				cmp_json(o, run, cols[0], cols[j], mi);
			}
			json_array_append_new(arr, o);
		}
		free(fam);
	}
	free(cols);
	return arr;
}

json_t *summary_json(const struct run *run, const struct opts *o)
{
	json_t *root = json_object(), *ms = json_array(), *cells = json_array();
	json_t *fails, *prim;
	unsigned int i;

	json_object_set_new(root, "tool", json_string("pollbench-report"));
	json_object_set_new(root, "format_version",
			    json_integer(SUMMARY_FORMAT_VERSION));
	json_object_set_new(root, "seed", json_integer((json_int_t)o->seed));
	json_object_set_new(root, "bootstrap_resamples",
			    json_integer(o->resamples));
	json_object_set_new(root, "ci_level_pct", json_real(CI_LEVEL * 100));
	json_object_set_new(root, "ci_method",
			    json_string("t-interval on per-rep values: value -+ t(0.975, n-1) s / sqrt(n); maxima of the bins: percentile bootstrap over reps; n = 1: null"));
	json_object_set_new(root, "significance_test",
			    json_string(MW_DESCRIPTION));
	json_object_set_new(root, "significance_alpha",
			    json_real(SIGNIFICANCE_ALPHA));
	json_object_set_new(root, "significance_rule",
			    json_string("primary metrics: p < alpha; secondary metrics (direction "
					"higher/lower): Holm-adjusted p < alpha over all secondary p-values "
					"of the report; direction none: not tested"));
	prim = json_array();
	for (i = 0; i < nr_minsts; i++)
		if (run->primary[i])
			json_array_append_new(prim, json_string(minsts[i].key));
	json_object_set_new(root, "primary_metrics", prim);
	json_object_set_new(root, "holm_tests", json_integer(run->nr_holm));
	json_object_set_new(root, "baseline_variant",
			    json_string(run->variants[0]));
	json_object_set_new(root, "hist_bin_rel_width_max",
			    json_real(PLAT_BIN_REL_WIDTH));
	json_object_set_new(root, "hist_value_rel_error_max",
			    json_real(PLAT_REL_ERROR));
	json_object_set_new(root, "timing_model",
			    json_string(timing_key(&run->timing)));
	json_object_set_new(root, "icount_shift",
			    run->timing.kind == TIMING_ICOUNT ?
			    json_integer(run->timing.shift) : json_null());
	json_object_set_new(root, "timing_label",
			    json_string(run->timing_label));
	json_object_set(root, "run", run->runjson ? run->runjson : json_null());
	json_object_set_new(root, "boots_ok", json_integer(run->boots_ok));
	json_object_set_new(root, "boots_failed",
			    json_integer(run->nr_boots_failed));
	fails = json_array();
	for (i = 0; i < run->nr_boots_failed; i++)
		json_array_append_new(fails, json_string(run->boots_failed[i]));
	json_object_set_new(root, "boots_failed_status", fails);
	for (i = 0; i < nr_minsts; i++) {
		const struct metric *m = minsts[i].m;
		json_t *j = json_object();

		json_object_set_new(j, "key", json_string(minsts[i].key));
		json_object_set_new(j, "label", json_string(minsts[i].label));
		json_object_set_new(j, "unit", json_string(m->unit));
		json_object_set_new(j, "better", json_string(better_str(m->better)));
		json_object_set_new(j, "aggregation", json_string(agg_str(m->agg)));
		json_array_append_new(ms, j);
	}
	json_object_set_new(root, "metrics", ms);
	for (i = 0; i < run->nr_cells; i++)
		json_array_append_new(cells, cell_json(run, run->cells[i]));
	json_object_set_new(root, "cells", cells);
	cells = json_array();
	for (i = 0; i < run->nr_invalid; i++) {
		json_t *c = cell_json(run, run->invalid[i]);

		json_object_set_new(c, "invalid_reason",
				    json_string(run->invalid[i]->invalid_reason));
		json_array_append_new(cells, c);
	}
	json_object_set_new(root, "invalid_cells", cells);
	json_object_set_new(root, "engine_comparisons", engine_json(run, o));
	json_object_set_new(root, "fairness_tradeoff", fair_json(run, o));
	json_object_set_new(root, "qd1_p50_precision", precision_json(run));
	json_object_set_new(root, "crossover", crossover_json(run));
	json_object_set_new(root, "breakdown", breakdown_json(run));
	json_object_set_new(root, "scale", scale_json(run));
	return root;
}

static int num_differs(double a, double b)
{
	double scale = fmax(fabs(a), fabs(b));

	return fabs(a - b) > 1e-9 * (scale > 1 ? scale : 1);
}

/*
 * --validate: a summary.json of another format_version has other keys, so
 * it is reported as such (regenerate), not as the first key that differs;
 * the same version is diffed value by value (summary_diff()). 1: differs.
 */
int summary_validate(json_t *want, json_t *got)
{
	json_t *a = json_object_get(want, "format_version");
	json_t *b = json_object_get(got, "format_version");

	if (!json_is_integer(a) ||
	    json_integer_value(a) != json_integer_value(b)) {
		char v[32];

		if (json_is_integer(a))
			snprintf(v, sizeof(v), "%lld",
				 (long long)json_integer_value(a));
		else
			snprintf(v, sizeof(v), "none");
		printf("schema differs (format_version %s vs %lld): regenerate the summary with this pollbench-report\n",
		       v, (long long)json_integer_value(b));
		return 1;
	}
	return summary_diff(want, got, "");
}

/*
 * Compare the summary found on disk (want) with the recomputed one (got).
 * Prints the first difference with its key path; returns 1 if any.
 */
int summary_diff(json_t *want, json_t *got, const char *path)
{
	char sub[1024];
	const char *key;
	json_t *v;
	size_t i;

	if (json_is_number(want) && json_is_number(got)) {
		if (!num_differs(json_number_value(want),
				 json_number_value(got)))
			return 0;
		printf("%s: summary.json has %.17g, raw files give %.17g\n",
		       path, json_number_value(want), json_number_value(got));
		return 1;
	}
	if (json_typeof(want) != json_typeof(got)) {
		printf("%s: summary.json and raw files disagree on type\n",
		       path);
		return 1;
	}
	switch (json_typeof(want)) {
	case JSON_OBJECT:
		json_object_foreach(want, key, v) {
			snprintf(sub, sizeof(sub), "%s%s%s", path,
				 *path ? "." : "", key);
			if (!json_object_get(got, key)) {
				printf("%s: in summary.json, not recomputed\n",
				       sub);
				return 1;
			}
			if (summary_diff(v, json_object_get(got, key), sub))
				return 1;
		}
		json_object_foreach(got, key, v) {
			if (!json_object_get(want, key)) {
				printf("%s%s%s: recomputed, missing from summary.json\n",
				       path, *path ? "." : "", key);
				return 1;
			}
		}
		return 0;
	case JSON_ARRAY:
		if (json_array_size(want) != json_array_size(got)) {
			printf("%s: summary.json has %zu entries, raw files give %zu\n",
			       path, json_array_size(want),
			       json_array_size(got));
			return 1;
		}
		json_array_foreach(want, i, v) {
			json_t *name = json_object_get(v, "cell");

			if (json_is_string(name))
				snprintf(sub, sizeof(sub), "%s[%s/%s]", path,
					 json_string_value(json_object_get(v, "variant")),
					 json_string_value(name));
			else
				snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
			if (summary_diff(v, json_array_get(got, i), sub))
				return 1;
		}
		return 0;
	default:
		if (json_equal(want, got))
			return 0;
		printf("%s: summary.json and raw files differ\n", path);
		return 1;
	}
}
