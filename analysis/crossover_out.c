// SPDX-License-Identifier: GPL-2.0
/*
 * The crossover rendered: report.md's headline for runs with null_blk
 * cells (a table per device latency, the crossover statements) and
 * summary.json "crossover" (points from crossover.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "crossover_out.h"
#include "fmt.h"

#define XO_COLS 9

/* A cyclictest value: median over boots, "≥" when a lower bound. */
static void cyc_num(char *buf, size_t len, const struct cell *c,
		    const char *key)
{
	int mi = minst_find(key);
	double v = xo_val(c, key);

	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s%.*f", c->agg[mi].lower ? "≥" : "",
			 v == floor(v) ? 0 : 1, v);
}

/* "50 us (16.67 us on a 3-instruction-per-ns core)" or "not within". */
static void where(char *buf, size_t len, const struct run *run, int us,
		  const int *pts, unsigned int n)
{
	double core = xo_core_us(run, us);

	if (us < 0)
		snprintf(buf, len, "not within %d-%d us", pts[0], pts[n - 1]);
	else if (isnan(core))
		snprintf(buf, len, "from %d us", us);
	else
		snprintf(buf, len, "from %d us (%.2f us on a core retiring %.0f instructions per ns)",
			 us, core, XO_CORE_IPNS);
}

static void xo_table(FILE *f, const struct run *run, const char *cond,
		     int us)
{
	static const char *const head[XO_COLS] = {
		"design", "overhead p50 us", "overhead p99 us",
		"p50 gain vs interrupts", "CPU per I/O us",
		"competitor loss %", "fio task CPU per I/O us (competitor)",
		"cyclictest p99 us", "p50 spread over boots",
	};
	char cell[64][XO_COLS][160];
	unsigned int w[XO_COLS], i, k, rows = 0;

	for (k = 0; k < XO_COLS; k++)
		w[k] = strlen(head[k]);
	for (i = 0; i < run->nr_cells && rows < 64; i++) {
		const struct cell *d = run->cells[i];
		const struct cell *comp, *cyc;
		struct xo_point p;
		char (*r)[160] = cell[rows];

		if (!xo_in(d) || strcmp(d->condition, cond) ||
		    nullb_us(d->device) != us)
			continue;
		xo_point(run, d, us, &p);
		comp = xo_cell(run, d->variant, d->workload, "competitor", us);
		cyc = xo_cell(run, d->variant, d->workload, "cyclictest", us);
		snprintf(r[0], 160, "%s/%s%s", d->variant, d->workload,
			 xo_is_ref(run, d) ? " (interrupts)" : "");
		fmt_num(r[1], 160, p.ovh50, 1000, "%.2f");
		fmt_num(r[2], 160, p.ovh99, 1000, "%.2f");
		fmt_num(r[3], 160, p.gain50, 1, "%+.2f%%");
		fmt_num(r[4], 160, xo_val(d, "cpu_per_io_ns"), 1000, "%.2f");
		fmt_num(r[5], 160, xo_val(comp, "competitor_loss_pct"), 1, "%.2f");
		fmt_num(r[6], 160, xo_val(comp, "task_cpu_ns_per_io"), 1000, "%.2f");
		cyc_num(r[7], 160, cyc, "cyclictest_p99_us");
		fmt_num(r[8], 160, p.spread, 1, "%.2f%%");
		for (k = 0; k < XO_COLS; k++)
			if (strlen(r[k]) > w[k])
				w[k] = strlen(r[k]);
		rows++;
	}
	fprintf(f, "#### %d us device latency\n\n|", us);
	for (k = 0; k < XO_COLS; k++)
		fprintf(f, " %-*s |", w[k], head[k]);
	fprintf(f, "\n|");
	for (k = 0; k < XO_COLS; k++) {
		unsigned int j;

		fputc(k ? ' ' : ':', f);
		for (j = 0; j < w[k]; j++)
			fputc('-', f);
		fputs(k ? ":|" : " |", f);
	}
	fputc('\n', f);
	for (i = 0; i < rows; i++) {
		fputc('|', f);
		for (k = 0; k < XO_COLS; k++)
			fprintf(f, k ? " %*s |" : " %-*s |", w[k], cell[i][k]);
		fputc('\n', f);
	}
	fputc('\n', f);
}

static void xo_statements(FILE *f, const struct run *run, const char *cond,
			  const int *pts, unsigned int n)
{
	double *gain = calloc(n, sizeof(*gain));
	char a[160], b[160];
	unsigned int i;

	for (i = 0; gain && i < run->nr_cells; i++) {
		const struct cell *d = run->cells[i];

		if (!xo_in(d) || strcmp(d->condition, cond) ||
		    !xo_first_of(run, i, 1) || xo_is_ref(run, d))
			continue;
		xo_gains(run, d, cond, pts, n, gain);
		where(a, sizeof(a), run,
		      xo_first_below(pts, gain, n, XO_GAIN_SMALL_PCT), pts, n);
		where(b, sizeof(b), run, xo_first_below(pts, gain, n, 0),
		      pts, n);
		fprintf(f, "- `%s/%s`: p50 gain over interrupts below %.0f%% %s; below 0 %s.\n",
			d->variant, d->workload, XO_GAIN_SMALL_PCT, a, b);
	}
	fputc('\n', f);
	free(gain);
}

void crossover_report(FILE *f, const struct run *run)
{
	const char *cond = xo_headline_cond(run);
	int *pts = calloc(run->nr_cells + 1, sizeof(*pts));
	unsigned int n = pts ? xo_devices(run, pts) : 0, k;

	fprintf(f, "## Headline\n\nTiming model: **%s**.\n\n",
		run->timing_label);
	if (!cond || !n) {
		fprintf(f, "No valid `<workload>@<condition>@nullb-<N>us` cells: no crossover.\n\n");
		free(pts);
		return;
	}
	fprintf(f, "The crossover%s on null_blk disks completing N us after submission, "
		   "condition `%s`: per design (label/workload), **overhead** = %s p50 "
		   "(p99) - N, p50 and p99 being the median over boots of each boot's "
		   "own percentile (one boot, one vote), **gain** = (interrupts p50 - "
		   "p50) / interrupts p50, where *interrupts* is the `%s` label's "
		   "`<rw>-<bs>-<qd>-psync` cell; **CPU per I/O** = `cpu_per_io_ns` "
		   "(fio's vCPU busy, plus polling in any idle loop, counted over the "
		   "window); competitor loss and fio's task CPU per I/O from the "
		   "`competitor` cells, cyclictest p99 (median over boots of each boot's "
		   "p99) from the `cyclictest` cells of the same design and N; spread = (max - min) / median of the "
		   "per-boot p50. Plots: `plots/crossover-overhead@<condition>`, "
		   "`plots/crossover-cpu@alone`, `plots/crossover-cyclictest`.\n\n",
		run_lat_note(run), cond, run->has_tlat ? "lat" : "clat",
		run->variants[0]);
	for (k = 0; k < n; k++)
		xo_table(f, run, cond, pts[k]);
	fprintf(f, "**Crossovers** (`%s`; device axis as measured, and read for a core retiring %.0f instructions per ns%s):\n\n",
		cond, XO_CORE_IPNS,
		run->timing.kind == TIMING_ICOUNT ?
		", where software takes 1/(3 x 2^shift) of the time it takes here relative to the device, so N here is N / (3 x 2^shift) there" :
		"; not instruction-count time, so no conversion");
	xo_statements(f, run, cond, pts, n);
	if (run->nr_invalid)
		fprintf(f, "%u invalid cell%s left out (below).\n\n",
			run->nr_invalid, run->nr_invalid == 1 ? "" : "s");
	free(pts);
}

static json_t *jwhere(int us)
{
	return us < 0 ? json_null() : json_integer(us);
}

static json_t *xo_design_json(const struct run *run, const struct cell *d,
			      const int *pts, unsigned int n, double *gain)
{
	json_t *o = json_object(), *arr = json_array();
	unsigned int k;
	int below;

	json_object_set_new(o, "variant", json_string(d->variant));
	json_object_set_new(o, "workload", json_string(d->workload));
	json_object_set_new(o, "is_reference", json_boolean(xo_is_ref(run, d)));
	for (k = 0; k < n; k++) {
		const struct cell *c = xo_cell(run, d->variant, d->workload,
					       d->condition, pts[k]);
		json_t *p;
		struct xo_point x;

		xo_point(run, c, pts[k], &x);
		gain[k] = x.gain50;
		if (!c)
			continue;
		p = json_object();
		json_object_set_new(p, "device_us", json_integer(pts[k]));
		json_object_set_new(p, "cell", json_string(c->name));
		json_object_set_new(p, "reference_cell", x.ref ?
			json_string(x.ref->name) : json_null());
		json_object_set_new(p, "p50_ns", jnum(x.p50));
		json_object_set_new(p, "p99_ns", jnum(x.p99));
		json_object_set_new(p, "overhead_p50_ns", jnum(x.ovh50));
		json_object_set_new(p, "overhead_p99_ns", jnum(x.ovh99));
		json_object_set_new(p, "gain_p50_pct", jnum(x.gain50));
		json_object_set_new(p, "p50_spread_pct", jnum(x.spread));
		json_object_set_new(p, "cpu_per_io_ns",
				    jnum(xo_val(c, "cpu_per_io_ns")));
		json_object_set_new(p, "task_cpu_ns_per_io",
				    jnum(xo_val(c, "task_cpu_ns_per_io")));
		json_object_set_new(p, "competitor_loss_pct",
				    jnum(xo_val(c, "competitor_loss_pct")));
		json_object_set_new(p, "cyclictest_p50_us",
				    jnum(xo_val(c, "cyclictest_p50_us")));
		json_object_set_new(p, "cyclictest_p99_us",
				    jnum(xo_val(c, "cyclictest_p99_us")));
		json_object_set_new(p, "cyclictest_max_us",
				    jnum(xo_val(c, "cyclictest_max_us")));
		json_array_append_new(arr, p);
	}
	json_object_set_new(o, "points", arr);
	below = xo_first_below(pts, gain, n, XO_GAIN_SMALL_PCT);
	json_object_set_new(o, "gain_below_10pct_from_us", jwhere(below));
	json_object_set_new(o, "gain_below_10pct_from_us_core_3ipns",
			    below < 0 ? json_null() :
			    jnum(xo_core_us(run, below)));
	below = xo_first_below(pts, gain, n, 0);
	json_object_set_new(o, "gain_below_0_from_us", jwhere(below));
	json_object_set_new(o, "gain_below_0_from_us_core_3ipns",
			    below < 0 ? json_null() :
			    jnum(xo_core_us(run, below)));
	return o;
}

json_t *crossover_json(const struct run *run)
{
	int *pts = calloc(run->nr_cells + 1, sizeof(*pts));
	double *gain = calloc(run->nr_cells + 1, sizeof(*gain));
	unsigned int n = pts ? xo_devices(run, pts) : 0, i, k;
	const char *cond = xo_headline_cond(run);
	json_t *o = json_object(), *devs = json_array(), *conds = json_array();

	json_object_set_new(o, "timing_model",
			    json_string(timing_key(&run->timing)));
	json_object_set_new(o, "timing_label", json_string(run->timing_label));
	json_object_set_new(o, "latency", json_string(run->has_tlat ?
						       "lat" : "clat"));
	json_object_set_new(o, "reference_variant",
			    json_string(run->variants[0]));
	json_object_set_new(o, "headline_condition",
			    cond ? json_string(cond) : json_null());
	json_object_set_new(o, "gain_small_pct", json_real(XO_GAIN_SMALL_PCT));
	json_object_set_new(o, "core_instructions_per_ns",
			    json_real(XO_CORE_IPNS));
	for (k = 0; k < n; k++)
		json_array_append_new(devs, json_integer(pts[k]));
	json_object_set_new(o, "devices_us", devs);
	for (i = 0; gain && i < run->nr_cells; i++) {
		const struct cell *c = run->cells[i];
		json_t *co, *ds;
		unsigned int j;

		if (!xo_in(c) || !xo_first_of(run, i, 0))
			continue;
		co = json_object();
		ds = json_array();
		json_object_set_new(co, "condition", json_string(c->condition));
		for (j = i; j < run->nr_cells; j++)
			if (xo_in(run->cells[j]) &&
			    !strcmp(run->cells[j]->condition, c->condition) &&
			    xo_first_of(run, j, 1))
				json_array_append_new(ds,
					xo_design_json(run, run->cells[j], pts,
						       n, gain));
		json_object_set_new(co, "designs", ds);
		json_array_append_new(conds, co);
	}
	json_object_set_new(o, "conditions", conds);
	free(pts);
	free(gain);
	return o;
}

