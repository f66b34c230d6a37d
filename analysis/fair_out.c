// SPDX-License-Identifier: GPL-2.0
/*
 * The fairness trade-off rendered: report.md table, summary.json
 * "fairness_tradeoff" and the scatter plots (rows from fair.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fair_out.h"
#include "fmt.h"

static const char *dev_name(const char *device)
{
	return *device ? device : "nvme";
}

void fair_report(FILE *f, const struct run *run, const struct opts *o)
{
	int loss = minst_find("competitor_loss_pct");
	int share = minst_find("competitor_cpu_share_pct");
	int p50 = run_lat_mi(run, "p50"), p99 = run_lat_mi(run, "p99");
	const char *lat = run->has_tlat ? "lat" : "clat";
	char a[64], b[64], c[160], d[64];
	struct fair_row *rows;
	unsigned int i, n = fair_rows(run, o, &rows);

	if (!n) {
		free(rows);
		return;
	}
	fprintf(f, "## Fairness trade-off — %s%s\n\n", run->timing_label,
		run_lat_note(run));
	fprintf(f, "Cells `<workload>@competitor[@<device>]`: fio and a CPU-bound "
		   "competitor (cpuhog) at the same nice level on fio's CPU. **Latency "
		   "gain**: (reference - value) / reference of %s p50 (and p99), each "
		   "the median over boots of that boot's own percentile, positive = "
		   "lower latency; the reference is ",
		run->has_tlat ? "total latency (lat)" : "clat");
	if (o->fair_ref)
		fprintf(f, "`%s` (`--fair-ref`)", o->fair_ref);
	else
		fprintf(f, "the baseline variant's psync cell with the same `<rw>-<bs>-<qd>` (`--fair-ref` to choose)");
	fprintf(f, ", under the same condition and device. **Competitor loss**: 1 - "
		   "competitor rate / competitor-only rate of the same variant (paired "
		   "by boot when the competitor-only cell has a rep of the same boot, "
		   "else the mean over its reps), mean over reps with its 95%% "
		   "t-interval over boots; lower is fairer. Plots: "
		   "`plots/fairness-tradeoff[@<device>]`.\n\n");
	fprintf(f, "| device | workload | variant | %s p50 (ns) | p50 gain | %s p99 (ns) | p99 gain | competitor loss %% [95%% CI] | competitor CPU share %% | reference | reps |\n",
		lat, lat);
	fprintf(f, "|---|---|---|---:|---:|---:|---:|---:|---:|---|---:|\n");
	for (i = 0; i < n; i++) {
		const struct cell *x = rows[i].c;
		const struct aggval *l = &x->agg[loss];

		fprintf(f, "| %s | %s | %s | %s | ", dev_name(x->device),
			x->workload, x->variant,
			fmt_val(a, sizeof(a), x->agg[p50].value));
		if (isnan(rows[i].p50_gain_pct))
			fprintf(f, "- |");
		else
			fprintf(f, "%+.2f%% |", rows[i].p50_gain_pct);
		fprintf(f, " %s | ", fmt_val(a, sizeof(a), x->agg[p99].value));
		if (isnan(rows[i].p99_gain_pct))
			fprintf(f, "- |");
		else
			fprintf(f, "%+.2f%% |", rows[i].p99_gain_pct);
		if (isnan(l->lo))
			snprintf(c, sizeof(c), "n/a");
		else
			snprintf(c, sizeof(c), "[%s, %s]",
				 fmt_val(a, sizeof(a), l->lo),
				 fmt_val(d, sizeof(d), l->hi));
		fprintf(f, " %s %s | %s | %s%s%s | %u |\n",
			fmt_val(b, sizeof(b), l->value), c,
			fmt_val(a, sizeof(a), x->agg[share].value),
			rows[i].ref ? rows[i].ref->variant : "none",
			rows[i].ref ? "/" : "",
			rows[i].ref ? rows[i].ref->name : "", x->nr_reps);
	}
	fprintf(f, "\n");
	free(rows);
}

json_t *fair_json(const struct run *run, const struct opts *o)
{
	int loss = minst_find("competitor_loss_pct");
	int p50 = run_lat_mi(run, "p50"), p99 = run_lat_mi(run, "p99");
	const char *lat = run->has_tlat ? "lat" : "clat";
	char key[64];
	json_t *arr = json_array();
	struct fair_row *rows;
	unsigned int i, n = fair_rows(run, o, &rows);

	for (i = 0; i < n; i++) {
		const struct cell *x = rows[i].c, *r = rows[i].ref;
		json_t *j = json_object();

		json_object_set_new(j, "variant", json_string(x->variant));
		json_object_set_new(j, "cell", json_string(x->name));
		json_object_set_new(j, "workload", json_string(x->workload));
		json_object_set_new(j, "device", json_string(x->device));
		json_object_set_new(j, "reference_variant",
				    r ? json_string(r->variant) : json_null());
		json_object_set_new(j, "reference_cell",
				    r ? json_string(r->name) : json_null());
		json_object_set_new(j, minsts[p50].key,
				    jnum(x->agg[p50].value));
		snprintf(key, sizeof(key), "%s_p50_gain_pct", lat);
		json_object_set_new(j, key, jnum(rows[i].p50_gain_pct));
		json_object_set_new(j, minsts[p99].key,
				    jnum(x->agg[p99].value));
		snprintf(key, sizeof(key), "%s_p99_gain_pct", lat);
		json_object_set_new(j, key, jnum(rows[i].p99_gain_pct));
		json_object_set_new(j, "competitor_loss_pct",
				    jnum(x->agg[loss].value));
		json_object_set_new(j, "competitor_loss_pct_ci95_lo",
				    jnum(x->agg[loss].lo));
		json_object_set_new(j, "competitor_loss_pct_ci95_hi",
				    jnum(x->agg[loss].hi));
		json_array_append_new(arr, j);
	}
	free(rows);
	return arr;
}

/* One scatter per device. */
struct fair_plot {
	const struct fair_row *rows;
	unsigned int n;
	const char *device;
	const char *lat;	/* "lat", or "clat" without total-latency bins */
};

static int fair_data(const void *arg, FILE *dat)
{
	const struct fair_plot *p = arg;
	int loss = minst_find("competitor_loss_pct");
	unsigned int i;

	fprintf(dat, "# competitor_loss_pct lo hi %s_p50_gain_pct label\n",
		p->lat);
	for (i = 0; i < p->n; i++) {
		const struct cell *x = p->rows[i].c;
		const struct aggval *l = &x->agg[loss];

		if (strcmp(x->device, p->device) || isnan(l->value) ||
		    isnan(p->rows[i].p50_gain_pct))
			continue;
		fprintf(dat, "%.17g %.17g %.17g %.17g \"%s/%s\"\n", l->value,
			isnan(l->lo) ? l->value : l->lo,
			isnan(l->hi) ? l->value : l->hi,
			p->rows[i].p50_gain_pct, x->variant, x->workload);
	}
	return 0;
}

static void fair_script(const void *arg, FILE *gp, const char *dat)
{
	const struct fair_plot *p = arg;
	int loss = minst_find("competitor_loss_pct");
	double x = NAN, y = NAN;
	unsigned int i, n = 0;

	for (i = 0; i < p->n; i++) {
		const struct cell *c = p->rows[i].c;

		if (strcmp(c->device, p->device) || isnan(c->agg[loss].value) ||
		    isnan(p->rows[i].p50_gain_pct))
			continue;
		x = c->agg[loss].value;
		y = p->rows[i].p50_gain_pct;
		n++;
	}
	if (n == 1)	/* one point: gnuplot cannot autoscale */
		fprintf(gp, "set xrange [%g:%g]\nset yrange [%g:%g]\n",
			x - 10, x + 10, y - 10, y + 10);

	fprintf(gp, "set title \"fairness trade-off under a CPU competitor (device %s)\\n\" . timing_model noenhanced\n",
		dev_name(p->device));
	fprintf(gp, "set xlabel \"competitor loss (%%, lower is fairer)\"\nset ylabel \"%s p50 gain vs reference (%%, higher is faster)\"\n",
		p->lat);
	fprintf(gp, "set grid\nset key off\nset offsets graph 0.1, graph 0.1, graph 0.1, graph 0.1\n");
	fprintf(gp, "plot \"%s\" using 1:4:2:3 with xerrorbars pt 7, \"\" using 1:4:5 with labels offset 0,1 font \",9\" noenhanced\n",
		dat);
}

int fair_plots(const struct run *run, const struct opts *o,
	       struct plot_sink *s)
{
	int loss = minst_find("competitor_loss_pct");
	struct fair_row *rows;
	unsigned int i, j, n = fair_rows(run, o, &rows);
	int r = 0;

	for (i = 0; !r && i < n; i++) {
		struct fair_plot p = { rows, n, rows[i].c->device,
				       run->has_tlat ? "lat" : "clat" };
		char file[300], safe[256];
		int first = 1, any = 0;

		for (j = 0; j < n; j++) {
			if (strcmp(rows[j].c->device, p.device))
				continue;
			if (j < i)
				first = 0;
			if (!isnan(rows[j].c->agg[loss].value) &&
			    !isnan(rows[j].p50_gain_pct))
				any = 1;
		}
		if (!first || !any)
			continue;
		plot_safe_name(safe, sizeof(safe), p.device);
		snprintf(file, sizeof(file), "fairness-tradeoff%s%s",
			 *p.device ? "@" : "", safe);
		r = plot_emit(s, file, fair_data, fair_script, &p);
	}
	free(rows);
	return r;
}
