// SPDX-License-Identifier: GPL-2.0
/*
 * The precision of QD1 p50 rendered: report.md table and summary.json
 * "qd1_p50_precision" (rows from precision.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "precision_out.h"

static void need_str(char *buf, size_t len, const struct prec_row *r)
{
	if (r->n < 2)
		snprintf(buf, len, "n/a (1 boot: no spread)");
	else if (r->met)
		snprintf(buf, len, "%u (met)", r->n);
	else
		snprintf(buf, len, "%u", r->need);
}

void precision_report(FILE *f, const struct run *run)
{
	struct prec_row *rows;
	unsigned int n = precision_rows(run, &rows), i, v;
	char val[64], lo[64], hi[64], need[64], hw[32];

	if (!n) {
		free(rows);
		return;
	}
	fprintf(f, "## Precision of QD1 p50 — %s%s\n\n", run->timing_label,
		run_lat_note(run));
	fprintf(f, "p50 = the median over boots of each boot's own p50 (one boot, one "
		   "vote). 95%% CI half-width of %s p50, `(hi - lo) / 2`, as a "
		   "percentage of the value, for each QD1 cell run alone; target "
		   "%.0f%%. The CI is a t-interval on the per-boot values, half-width "
		   "`t(0.975, boots-1) x s / sqrt(boots)`, so the boots needed are the "
		   "smallest m with `t(0.975, m-1) x s / sqrt(m) / value <= %.0f%%` (s: "
		   "the per-boot standard deviation).\n\n",
		run->has_tlat ? "lat" : "clat", PRECISION_TARGET_PCT,
		PRECISION_TARGET_PCT);
	fprintf(f, "| variant | cell | p50 ns | 95%% CI | half-width | target %.0f%% | boots | boots needed |\n|---|---|---:|---|---:|---|---:|---:|\n",
		PRECISION_TARGET_PCT);
	for (i = 0; i < n; i++) {
		const struct prec_row *r = &rows[i];

		need_str(need, sizeof(need), r);
		if (r->n < 2)
			snprintf(hw, sizeof(hw), "-");
		else
			snprintf(hw, sizeof(hw), "%.2f%%", r->hw_pct);
		fprintf(f, "| %s | %s | %s | [%s, %s] | %s | %s | %u | %s |\n",
			r->c->variant, r->c->name,
			fmt_val(val, sizeof(val), r->value),
			fmt_val(lo, sizeof(lo), r->lo),
			fmt_val(hi, sizeof(hi), r->hi), hw,
			r->n < 2 ? "-" : r->met ? "met" : "**not met**", r->n,
			need);
	}
	fprintf(f, "\nPer variant (its widest QD1 half-width):\n\n");
	for (v = 0; v < run->nr_variants; v++) {
		const struct prec_row *w = NULL;

		for (i = 0; i < n; i++)
			if (!strcmp(rows[i].c->variant, run->variants[v]) &&
			    (!w || rows[i].hw_pct > w->hw_pct || rows[i].n < 2))
				w = &rows[i];
		if (!w)
			continue;
		need_str(need, sizeof(need), w);
		if (w->n < 2)
			fprintf(f, "- `%s`: %u boot, no CI; at least 2 boots needed to estimate the boots the target needs.\n",
				run->variants[v], w->n);
		else if (w->met)
			fprintf(f, "- `%s`: %.2f%% (`%s`), within the %.0f%% target with %u boots.\n",
				run->variants[v], w->hw_pct, w->c->name,
				PRECISION_TARGET_PCT, w->n);
		else
			fprintf(f, "- `%s`: %.2f%% (`%s`), over the %.0f%% target with %u boots; about %u boots would meet it.\n",
				run->variants[v], w->hw_pct, w->c->name,
				PRECISION_TARGET_PCT, w->n, w->need);
	}
	fputc('\n', f);
	free(rows);
}

json_t *precision_json(const struct run *run)
{
	struct prec_row *rows;
	unsigned int n = precision_rows(run, &rows), i;
	const char *k = minsts[run_lat_mi(run, "p50")].key;
	json_t *arr = json_array();
	char key[96];

	for (i = 0; i < n; i++) {
		const struct prec_row *r = &rows[i];
		json_t *o = json_object();

		json_object_set_new(o, "variant", json_string(r->c->variant));
		json_object_set_new(o, "cell", json_string(r->c->name));
		json_object_set_new(o, k, jnum(r->value));
		snprintf(key, sizeof(key), "%s_ci95_lo", k);
		json_object_set_new(o, key, jnum(r->lo));
		snprintf(key, sizeof(key), "%s_ci95_hi", k);
		json_object_set_new(o, key, jnum(r->hi));
		json_object_set_new(o, "ci95_half_width_pct",
				    jnum(r->hw_pct));
		json_object_set_new(o, "target_pct",
				    json_real(PRECISION_TARGET_PCT));
		json_object_set_new(o, "meets_target", json_boolean(r->met));
		json_object_set_new(o, "reps", json_integer(r->n));
		json_object_set_new(o, "reps_needed",
				    r->n < 2 ? json_null() :
					       json_integer(r->need));
		json_array_append_new(arr, o);
	}
	free(rows);
	return arr;
}
