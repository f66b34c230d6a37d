// SPDX-License-Identifier: GPL-2.0
/*
 * Human- and spreadsheet-readable output: report.md with the
 * compare-kernels style tables, and summary.csv (one row per variant,
 * cell and metric). summary.json is built in summary.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "breakdown_out.h"
#include "compare.h"
#include "crossover_out.h"
#include "fair_out.h"
#include "fmt.h"
#include "headline.h"
#include "hist.h"
#include "precision_out.h"
#include "procstat.h"
#include "scale_out.h"
#include "stats.h"
#include "sweep_out.h"
#include "table.h"

static void csv_str(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_num(FILE *f, double v)
{
	if (!isnan(v))
		fprintf(f, "%.17g", v);
}

int write_csv(const struct run *run, const char *path)
{
	FILE *f = fopen(path, "w");
	unsigned int i, mi;

	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	fprintf(f, "variant,cell,workload,condition,device,metric,unit,better,aggregation,value,ci95_lo,ci95_hi,reps,baseline_variant,change_better_pct,p_value,p_value_holm,primary,cliffs_delta_better,significant\n");
	for (i = 0; i < run->nr_cells; i++) {
		const struct cell *c = run->cells[i];
		const struct cell *b = run_find(run, run->variants[0], c->name);

		for (mi = 0; mi < nr_minsts; mi++) {
			const struct metric *m = minsts[mi].m;
			const struct aggval *a = &c->agg[mi];
			struct cmp cmp = { .change_pct = NAN, .p = NAN,
					   .p_holm = NAN, .cliff = NAN };

			if (!a->n)
				continue;
			if (b && b != c)
				compare(run, b, c, mi, &cmp);
			csv_str(f, c->variant);
			fputc(',', f);
			csv_str(f, c->name);
			fputc(',', f);
			csv_str(f, c->workload);
			fputc(',', f);
			csv_str(f, c->condition);
			fputc(',', f);
			csv_str(f, c->device);
			fprintf(f, ",%s,", minsts[mi].key);
			csv_str(f, m->unit);
			fprintf(f, ",%s,%s,", better_str(m->better),
				agg_str(m->agg));
			csv_num(f, a->value);
			fputc(',', f);
			csv_num(f, a->lo);
			fputc(',', f);
			csv_num(f, a->hi);
			fprintf(f, ",%u,", a->n);
			if (b && b != c)
				csv_str(f, b->variant);
			fputc(',', f);
			csv_num(f, cmp.change_pct);
			fputc(',', f);
			csv_num(f, cmp.p);
			fputc(',', f);
			csv_num(f, cmp.p_holm);
			fprintf(f, ",%s,", run->primary[mi] ? "yes" : "no");
			csv_num(f, cmp.cliff);
			fprintf(f, ",%s\n", cmp.valid && !isnan(cmp.p) ?
				(cmp.significant ? "yes" : "no") : "");
		}
	}
	if (fclose(f)) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static const char *meta_str(const struct cell *c, const char *key)
{
	json_t *v = json_object_get(c->reps[0].meta, key);

	return json_is_string(v) ? json_string_value(v) : "?";
}

/* ", cmdline +`...`, queue `...`" for a label with settings, else "". */
static const char *cfg_str(const struct cell *c)
{
	static char buf[512];
	const char *cmd = json_string_value(json_object_get(c->reps[0].meta,
							    "cmdline_extra"));
	const char *q = json_string_value(json_object_get(c->reps[0].meta,
							  "queue_settings"));
	size_t len = 0;

	buf[0] = '\0';
	if (cmd && *cmd)
		len += snprintf(buf + len, sizeof(buf) - len,
				", cmdline +`%s`", cmd);
	if (q && *q && len < sizeof(buf))
		snprintf(buf + len, sizeof(buf) - len, ", queue `%s`", q);
	return buf;
}

/* The caution under every compare table, by timing model. */
static const char *timing_note(const struct timing *t)
{
	switch (t->kind) {
	case TIMING_ICOUNT:
		return "> **Instruction-count time:** each guest instruction advances the "
		       "guest clock by a fixed 2^shift ns, so p50 repeats between boots to "
		       "a histogram bin, while p99 and the mean move with host-timed events "
		       "(read them with their intervals); the timings are those of an "
		       "idealised CPU: compare columns with each other, not with hardware.\n";
	case TIMING_EMULATED:
		return "> **Emulated wall-clock time (TCG):** latencies and rates are those of an emulated CPU; compare columns with each other, not with hardware.\n";
	case TIMING_VIRTUALISED:
		return "> **Virtualised wall-clock time (KVM):** guest code runs on the host CPU, devices are emulated; compare columns with each other.\n";
	default:
		return "> **Unknown timing model:** meta.json names neither timing nor accel; compare columns with each other only.\n";
	}
}

/* Provenance of the columns of one table, one line per column. */
static void md_provenance(FILE *f, struct cell **cols, unsigned int n)
{
	char t[96];
	unsigned int i;

	for (i = 0; i < n; i++)
		fprintf(f, "- `%s/%s`: kernel %s (commit %s)%s, qemu_version \"%s\", accel %s — %s\n",
			cols[i]->variant, cols[i]->name,
			meta_str(cols[i], "kernel_release"),
			meta_str(cols[i], "kernel_commit"),
			cfg_str(cols[i]),
			meta_str(cols[i], "qemu_version"),
			meta_str(cols[i], "accel"),
			timing_label(&cols[i]->timing, t, sizeof(t)));
	if (n)
		fprintf(f, "\n%s", timing_note(&cols[0]->timing));
	fputc('\n', f);
}

static int any_value(struct cell **cols, unsigned int n, unsigned int mi)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (cols[i]->agg[mi].n &&
		    (!(minsts[mi].m->flags & M_FAMILY) ||
		     cols[i]->agg[mi].value != 0))
			return 1;
	return 0;	/* also: family members that are 0 everywhere */
}

/* Fewer than THIN_TAIL samples lie above this percentile of the cell. */
#define THIN_TAIL 10

static int thin_tail(const struct cell *c, const struct metric *m)
{
	return m->agg == AGG_HIST_PCT &&
	       cell_hist(c, m)->n * (1 - m->pct / 100) < THIN_TAIL;
}

/*
 * One compare-kernels table: first column is the baseline "(0.00%)",
 * others "value (+x.xx%)" with positive = better, "*" when the
 * Mann-Whitney p < alpha. A second table gives the 95% CIs.
 */
static void md_compare(FILE *f, const struct run *run, struct cell **cols,
		       const char **names, unsigned int n)
{
	char v[64], lo[64], hi[64];
	unsigned int i, mi;

	md_provenance(f, cols, n);
	fprintf(f, "| metric | unit |");
	for (i = 0; i < n; i++)
		fprintf(f, " %s |", names[i]);
	fprintf(f, "\n|---|---|");
	for (i = 0; i < n; i++)
		fprintf(f, "---:|");
	fputc('\n', f);
	for (mi = 0; mi < nr_minsts; mi++) {
		const struct metric *m = minsts[mi].m;

		if (!any_value(cols, n, mi))
			continue;
		if (run->primary[mi])
			fprintf(f, "| **%s** (primary) | %s |", minsts[mi].label,
				m->unit);
		else
			fprintf(f, "| %s | %s |", minsts[mi].label, m->unit);
		for (i = 0; i < n; i++) {
			struct cmp cmp;

			fmt_val(v, sizeof(v), cols[i]->agg[mi].value);
			if (cols[i]->agg[mi].lower) {
				memmove(v + 3, v, strlen(v) + 1);
				memcpy(v, "≥", 3);
			}
			if (m->agg == AGG_SUM || !cols[i]->agg[mi].n) {
				fprintf(f, " %s |", v);
				continue;
			}
			if (thin_tail(cols[i], m))
				strncat(v, "†", sizeof(v) - strlen(v) - 1);
			if (!i) {
				fprintf(f, " %s (0.00%%) |", v);
				continue;
			}
			compare(run, cols[0], cols[i], mi, &cmp);
			if (isnan(cmp.change_pct))
				fprintf(f, " %s (n/a) |", v);
			else
				fprintf(f, " %s (%+.2f%%)%s |", v,
					cmp.change_pct,
					cmp.significant ? "*" : "");
		}
		fputc('\n', f);
		if (m->flags & M_SAMPLES) {
			fprintf(f, "| reps | boots |");
			for (i = 0; i < n; i++)
				fprintf(f, " %u |", cols[i]->nr_reps);
			fputc('\n', f);
		}
	}

	fprintf(f, "\nLatency and cyclictest percentiles, cyclictest max: median "
		   "over boots of each boot's own value (one boot, one vote); the "
		   "pooled value (all boots' bins or buckets merged, max over boots) "
		   "is in the details. `*`: significant against the first column (two-sided "
		   "Mann-Whitney U): a **primary** metric with p < %.2f, any other "
		   "metric with a direction when its Holm-adjusted p (over all %u "
		   "secondary p-values of this report) is below it; metrics without a "
		   "better direction are not tested. `†`: fewer than %d I/Os above this "
		   "percentile. `≥`: a lower bound: at least half the boots' values are "
		   "among cyclictest's overflows, at or above its histogram range.\n",
		SIGNIFICANCE_ALPHA, run->nr_holm, THIN_TAIL);
	fprintf(f, "\n<details><summary>95%% CIs (t-interval over boots), p-values, Cliff's delta</summary>\n\n| metric |");
	for (i = 0; i < n; i++)
		fprintf(f, " %s |", names[i]);
	fprintf(f, "\n|---|");
	for (i = 0; i < n; i++)
		fprintf(f, "---|");
	fputc('\n', f);
	for (mi = 0; mi < nr_minsts; mi++) {
		if (!any_value(cols, n, mi) || minsts[mi].m->agg == AGG_SUM)
			continue;
		fprintf(f, "| %s |", minsts[mi].key);
		for (i = 0; i < n; i++) {
			const struct aggval *a = &cols[i]->agg[mi];
			struct cmp cmp;

			if (!a->n) {
				fprintf(f, " - |");
				continue;
			}
			if (isnan(a->lo))
				fprintf(f, " n/a");
			else
				fprintf(f, " [%s, %s]",
					fmt_val(lo, sizeof(lo), a->lo),
					fmt_val(hi, sizeof(hi), a->hi));
			if (!isnan(a->pooled))
				fprintf(f, " pooled %s%s",
					(minsts[mi].m->flags & M_OVERFLOW) &&
					cols[i]->cyc.range &&
					a->pooled >= cols[i]->cyc.range ?
					"≥" : "",
					fmt_val(lo, sizeof(lo), a->pooled));
			if (i) {
				compare(run, cols[0], cols[i], mi, &cmp);
				if (!isnan(cmp.p))
					fprintf(f, " p=%.3g%s", cmp.p,
						cmp.exact ? "" : "~");
				if (!isnan(cmp.p_holm))
					fprintf(f, " Holm p=%.3g", cmp.p_holm);
				if (!isnan(cmp.cliff))
					fprintf(f, " δ=%+.2f", cmp.cliff);
			}
			fprintf(f, " |");
		}
		fputc('\n', f);
	}
	fprintf(f, "\n</details>\n\n");
}

static void md_cell_tables(FILE *f, const struct run *run)
{
	struct cell **cols = calloc(run->nr_variants, sizeof(*cols));
	const char **names = calloc(run->nr_variants, sizeof(*names));
	unsigned int i, j, n;

	for (i = 0; i < run->nr_cells; i = j) {
		const char *cell = run->cells[i]->name;

		n = 0;
		for (j = i; j < run->nr_cells; j++) {
			if (strcmp(run->cells[j]->name, cell))
				break;
			cols[n] = run->cells[j];
			names[n++] = run->cells[j]->variant;
		}
		fprintf(f, "### %s — %s\n\n", cell, run->timing_label);
		if (strcmp(cols[0]->variant, run->variants[0]))
			fprintf(f, "Baseline variant `%s` has no result here; the first column is `%s`.\n\n",
				run->variants[0], cols[0]->variant);
		md_compare(f, run, cols, names, n);
	}
	free(cols);
	free(names);
}

static void md_engine_tables(FILE *f, const struct run *run,
			     const struct opts *o)
{
	struct cell **cols = calloc(run->nr_cells, sizeof(*cols));
	char **names = calloc(run->nr_cells, sizeof(*names));
	unsigned int i, j, n, any = 0;
	char *fam;

	for (i = 0; cols && names && i < run->nr_cells; i++) {
		n = engine_group(run, o, i, cols, &fam);
		if (!n)
			continue;
		for (j = 0; j < n; j++)
			if (asprintf(&names[j], "%s/%s", cols[j]->variant,
				     engine_name(cols[j]->workload)) < 0)
				names[j] = NULL;
		if (!any++)
			fprintf(f, "## Engine comparisons — %s%s\n\nCells that differ only in the I/O "
				   "engine (the workload after `<rw>-<bs>-<qd>`: psync is "
				   "interrupt-driven, pvsync2-hipri polls where the kernel polls "
				   "synchronous I/O, iouring-hipri is upstream's io_uring IOPOLL), "
				   "every variant in one table, columns `variant/engine`. First column: "
				   "the `--baseline VARIANT/CELL` given for this family, else the "
				   "baseline variant's psync cell, else the first cell. Compare engines "
				   "on total latency (`lat`, submission to completion): fio's clat of "
				   "an async engine starts after submission.\n\n",
				run->timing_label, run_lat_note(run));
		fprintf(f, "### %s — %s%s\n\n", fam, run->timing_label,
			run_lat_note(run));
		md_compare(f, run, cols, (const char **)names, n);
		for (j = 0; j < n; j++) {
			free(names[j]);
			names[j] = NULL;
		}
		free(fam);
	}
	free(cols);
	free(names);
}

static void md_provenance_all(FILE *f, const struct run *run)
{
	static const char *const keys[] = {
		"kernel_variant", "cmdline_extra", "queue_settings",
		"kernel_release", "kernel_commit", "series", "config_hash",
		"qemu_version", "accel", "timing", "vcpus", "memory_mib",
		"host_cpu", "fio_version",
	};
	unsigned int v, k, i;

	fprintf(f, "## Provenance\n\n| variant |");
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		fprintf(f, " %s |", keys[k]);
	fprintf(f, "\n|---|");
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		fprintf(f, "---|");
	fputc('\n', f);
	for (v = 0; v < run->nr_variants; v++) {
		const struct cell *c = NULL;

		for (i = 0; i < run->nr_cells && !c; i++)
			if (!strcmp(run->cells[i]->variant, run->variants[v]))
				c = run->cells[i];
		if (!c)
			continue;
		fprintf(f, "| %s |", run->variants[v]);
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			json_t *j = json_object_get(c->reps[0].meta, keys[k]);
			char *s = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;

			if (k == 0)
				fprintf(f, " %s |", cell_kernel_variant(c));
			else if (k < 3 && !j)
				fprintf(f, " |");	/* older runs: none */
			else if (json_is_string(j))
				fprintf(f, " %s |", json_string_value(j));
			else
				fprintf(f, " %s |", s ? s : "?");
			free(s);
		}
		fputc('\n', f);
	}
	if (run->runjson) {
		char *s = json_dumps(run->runjson, JSON_INDENT(2));

		fprintf(f, "\nrun.json:\n\n```json\n%s\n```\n", s ? s : "");
		free(s);
	}
	fputc('\n', f);
}

static void md_method(FILE *f, const struct run *run, const struct opts *o)
{
	char prim[512] = "";
	size_t len = 0;
	unsigned int mi;

	for (mi = 0; mi < nr_minsts && len < sizeof(prim); mi++)
		if (run->primary[mi])
			len += snprintf(prim + len, sizeof(prim) - len, "%s`%s`",
					len ? ", " : "", minsts[mi].key);
	fprintf(f, "## Method\n\n");
	fprintf(f, "- Unit of repetition: the rep (one guest boot). Latency comes from "
		   "fio's raw `lat_ns.bins` (total latency, with `--lat_percentiles=1`) "
		   "and `clat_ns.bins` (json+), read and write sides, merged over jobs; "
		   "per-rep values come from each rep's own bins. **One boot, one "
		   "vote**: a cell's latency percentile (p50, p90, p99, ...) is the "
		   "median over reps of the per-rep percentiles, in every table "
		   "(headline, engine, fairness, sweep, crossover, precision, per "
		   "cell), and so are cyclictest's percentiles and its max; the "
		   "pooled value (percentile of the bins or buckets merged over all "
		   "reps, max over reps) is shown only where labelled `pooled` "
		   "(per-cell details, summary.json `<key>_pooled`). Means and maxima "
		   "of fio's bins are over the pooled bins.\n");
	fprintf(f, "- Histogram error: fio's log-linear bins (FIO_IO_U_PLAT_BITS=%d, %d "
		   "bins per power of two) are at most 1/%d = %.2f%% of their value "
		   "wide; fio reports the midpoint, so any latency from the bins "
		   "(percentiles, mean, max) is within %.2f%% of the true sample value. "
		   "`max (bin)` is the highest non-empty bin.\n",
		PLAT_BITS, PLAT_VAL, PLAT_VAL, PLAT_BIN_REL_WIDTH * 100,
		PLAT_REL_ERROR * 100);
	fprintf(f, "- 95%% CI: a t-interval on the per-rep (per-boot) values, `value -+ "
		   "t(0.975, n-1) x s / sqrt(n)` with s their standard deviation and n "
		   "the reps: around the mean for mean-aggregated metrics, around the "
		   "cell value for latency and cyclictest percentiles, cyclictest max "
		   "and histogram means. With 5 boots the percentile bootstrap used "
		   "before was 1.4-1.8x too narrow (126 distinct resamples); the "
		   "t-interval covers 95%% for normally distributed per-boot values. "
		   "One rep: no interval (n/a). Maxima of the bins (`max (bin)`) keep "
		   "a percentile bootstrap over reps (%u "
		   "resamples, seed %llu, a stream per cell and metric), to be read as "
		   "descriptive.\n",
		o->resamples, (unsigned long long)o->seed);
	fprintf(f, "- Significance: two-sided Mann-Whitney U on the per-rep values "
		   "against the first column, on mid-ranks; p = P(|U - mean| >= |U "
		   "observed - mean|) under the exact permutation distribution of U "
		   "(ties included) when the pooled reps split into the two groups in "
		   "at most %d ways, otherwise the normal approximation with tie and "
		   "continuity correction (marked `~`). Primary metrics of every "
		   "comparison: %s. `*` marks a primary metric with p < %.2f, and a "
		   "secondary metric (any other with a better direction) whose "
		   "Holm-adjusted p is below it, Holm over all %u secondary p-values of "
		   "this report (per-cell and engine comparisons); metrics with "
		   "direction `none` get no test and no star. With 3 reps against 3 the "
		   "smallest possible p is 0.1, so nothing can be marked: use at least "
		   "4 reps per column (4 vs 4: p >= 0.029; 5 vs 5: p >= 2/252 = "
		   "0.0079).\n",
		MW_EXACT_MAX_SPLITS, prim, SIGNIFICANCE_ALPHA, run->nr_holm);
	fprintf(f, "- Change: `(value - baseline) / |baseline|`, sign flipped for "
		   "lower-is-better metrics, so positive = better. Metrics whose "
		   "direction is `none` (descriptive counts, CPU breakdown) keep the "
		   "raw sign. Cliff's delta δ = P(column > base) - P(column < base) "
		   "over per-rep values, normalised the same way.\n");
	fprintf(f, "- CPU: `/proc/stat` deltas of the aggregate `cpu` line (all CPUs, "
		   "USER_HZ=%d); busy = total - idle - iowait. Interrupts: "
		   "`/proc/interrupts` deltas summed over CPUs; nvme = lines with a "
		   "name starting with `nvme`. kprobes: hits in `kprobes.txt` per I/O. "
		   "perf: `perf stat -x,` values per I/O (msec counters as ns). Poll "
		   "counters: `poll-stats-after` - `poll-stats-before`, per I/O.\n",
		USER_HZ);
	fprintf(f, "- Conditions: `competitor.txt` and `busy-cpu<N>.txt` are cpuhog "
		   "reports (work units per second, CPU share); busy = the hogs' rates "
		   "summed. Competitor loss = 1 - rate in `<workload>@competitor` / "
		   "rate in the same variant's `none@competitor-only` (or "
		   "`<workload>@competitor-only`), against the rep of the same boot "
		   "when there is one, else the mean over the reference's reps. "
		   "`competitor-only` cells have no fio run. cyclictest: `-h` histogram "
		   "(1 us buckets), percentiles by fio's rule with the overflows counted "
		   "above the range (a percentile among them is the range, a lower "
		   "bound), per rep from its own buckets; the cell's percentile is the "
		   "median over reps, shown as `≥` when at least half the reps' values "
		   "are such lower bounds. max is cyclictest's own `# Max Latencies`: "
		   "the cell's is the median over reps of each rep's max, the max over "
		   "reps being its `pooled` value.\n");
	fprintf(f, "- Baseline variant: `%s`.\n\n", run->variants[0]);
}

/* Per-rep latency and IOPS: what the CIs and the U test work on. */
static void md_per_rep(FILE *f, const struct run *run)
{
	char v[64];
	unsigned int i, r, mi;

	fprintf(f, "## Per repetition\n\nLatency from each rep's own bins.\n\n");
	for (i = 0; i < run->nr_cells; i++) {
		const struct cell *c = run->cells[i];

		fprintf(f, "### %s/%s\n\n| rep | boot_id |", c->variant,
			c->name);
		for (mi = 0; mi < nr_minsts; mi++)
			if (minsts[mi].m->flags & (M_LATENCY | M_SAMPLES) ||
			    !strcmp(minsts[mi].key, "iops"))
				fprintf(f, " %s |", minsts[mi].key);
		fprintf(f, "\n|---|---|");
		for (mi = 0; mi < nr_minsts; mi++)
			if (minsts[mi].m->flags & (M_LATENCY | M_SAMPLES) ||
			    !strcmp(minsts[mi].key, "iops"))
				fprintf(f, "---:|");
		fputc('\n', f);
		for (r = 0; r < c->nr_reps; r++) {
			json_t *b = json_object_get(c->reps[r].meta, "boot_id");

			fprintf(f, "| %u | %s |", c->reps[r].num,
				json_is_string(b) ? json_string_value(b) : "?");
			for (mi = 0; mi < nr_minsts; mi++)
				if (minsts[mi].m->flags & (M_LATENCY | M_SAMPLES) ||
				    !strcmp(minsts[mi].key, "iops"))
					fprintf(f, " %s |",
						fmt_val(v, sizeof(v),
							c->reps[r].val[mi]));
			fputc('\n', f);
		}
		fputc('\n', f);
	}
}

/* Cells left out of every table and plot, and why. */
static void md_invalid(FILE *f, const struct run *run)
{
	unsigned int i;

	if (!run->nr_invalid)
		return;
	fprintf(f, "## Invalid cells\n\nLeft out of every table and plot (summary.json `invalid_cells`):\n\n");
	for (i = 0; i < run->nr_invalid; i++)
		fprintf(f, "- `%s/%s`: %s\n", run->invalid[i]->variant,
			run->invalid[i]->name,
			run->invalid[i]->invalid_reason);
	fputc('\n', f);
}

int write_report(const struct run *run, const struct opts *o,
		 const char *path, int plots_made)
{
	FILE *f = fopen(path, "w");
	unsigned int i;

	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	fprintf(f, "# pollbench report\n\nGenerated by `pollbench-report` from the raw "
		   "files under the run directory; rebuild with `make report RUN=<run "
		   "dir>`, check with `pollbench-report --validate`.\n\n");
	if (crossover_applies(run))
		crossover_report(f, run);
	else
		headline_report(f, run);
	md_invalid(f, run);
	scale_report(f, run);
	breakdown_report(f, run);
	md_provenance_all(f, run);
	md_method(f, run, o);
	fprintf(f, "## Boots\n\n%u boots ok, %u failed (their cells are absent; see `boots/<boot-id>/console.log`).\n\n",
		run->boots_ok, run->nr_boots_failed);
	for (i = 0; i < run->nr_boots_failed; i++)
		fprintf(f, "- %s\n", run->boots_failed[i]);
	if (run->nr_boots_failed)
		fputc('\n', f);
	precision_report(f, run);
	fprintf(f, "## Comparisons per cell — %s\n\n", run->timing_label);
	md_cell_tables(f, run);
	md_engine_tables(f, run, o);
	fair_report(f, run, o);
	sweep_report(f, run);
	md_per_rep(f, run);
	if (plots_made)
		fprintf(f, "## Plots\n\nIn `plots/` (PNG and SVG, gnuplot script "
			   "`plots/plots.gp`): `<cell>-latency` percentile curves, "
			   "`<cell>-p50-p99` bars with 95%% CIs, `<cell>-cpu` CPU per I/O with "
			   "95%% CIs, `<cell>-cyclictest` cyclictest histograms per variant "
			   "(buckets of all boots merged, log y), `fairness-tradeoff[@<device>]` competitor loss against p50 "
			   "gain, `device-sweep@<condition>` p50/p99 against the null_blk "
			   "delay, `crossover-overhead@<condition>`, `crossover-cpu@alone` and "
			   "`crossover-cyclictest` against the device latency, `breakdown@<condition>` the "
			   "traced cells' step means, stacked.\n\n");
	else
		fprintf(f, "## Plots\n\nNot generated (gnuplot missing or --no-plots).\n\n");
	if (run->warn.n) {
		fprintf(f, "## Warnings\n\n");
		for (i = 0; i < run->warn.n; i++)
			fprintf(f, "- %s\n", run->warn.msg[i]);
		fputc('\n', f);
	}
	if (fclose(f)) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}
