// SPDX-License-Identifier: GPL-2.0
/*
 * report.md's headline for runs without null_blk device-latency cells (the
 * crossover, crossover.c, is theirs): a compare-kernels style table, one
 * aligned row per (workload@condition, primary metric), the baseline
 * label first, then every other label as "value (gain%)" with "*" when
 * significant (compare.c: primary metrics on their own p), then per label
 * the 95 % CI, the coefficient of variation and the per-boot min-max.
 * Latency and CPU in us, 2 decimals.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "headline.h"
#include "compare.h"
#include "mdtab.h"
#include "stats.h"

/* ns -> us for ns metrics; other units as they are. */
static double scale_of(const struct metric *m)
{
	return !strncmp(m->unit, "ns", 2) ? 1000 : 1;
}

static const char *unit_of(const struct metric *m)
{
	if (!strcmp(m->unit, "ns"))
		return "us";
	if (!strcmp(m->unit, "ns/I/O"))
		return "us/I/O";
	return m->unit;
}

/* Per-rep spread of c on mi: CV % and min, max (scaled); NAN below 2. */
static void spread(const struct cell *c, unsigned int mi, double scale,
		   double *cv, double *lo, double *hi)
{
	double *v = calloc(c->nr_reps + 1, sizeof(*v)), mean = 0;
	unsigned int n = v ? rep_values(c, mi, v) : 0, i;

	*cv = *lo = *hi = NAN;
	for (i = 0; i < n; i++) {
		mean += v[i] / n;
		if (isnan(*lo) || v[i] < *lo)
			*lo = v[i];
		if (isnan(*hi) || v[i] > *hi)
			*hi = v[i];
	}
	if (n >= 2 && mean != 0)
		*cv = sample_sd(v, n) / fabs(mean) * 100;
	*lo /= scale;
	*hi /= scale;
	free(v);
}

/* "a / b / c" of one statistic per label, appended to buf. */
static void join(char *buf, size_t len, const char *s)
{
	size_t l = strlen(buf);

	snprintf(buf + l, len - l, "%s%s", l ? " / " : "", s);
}

static void row(struct mdtab *t, const struct run *run, const char *cell,
		unsigned int mi)
{
	const struct metric *m = minsts[mi].m;
	const struct cell *base = run_find(run, run->variants[0], cell);
	double k = scale_of(m), cv, lo, hi;
	char ci[1024] = "", cvs[1024] = "", mm[1024] = "", s[128];
	unsigned int v;

	mdtab_add(t, 0, "%s", cell);
	mdtab_add(t, 1, "%s (%s)", minsts[mi].label, unit_of(m));
	for (v = 0; v < run->nr_variants; v++) {
		const struct cell *c = run_find(run, run->variants[v], cell);
		const struct aggval *a = c ? &c->agg[mi] : NULL;
		struct cmp cmp;

		if (!a || !a->n) {
			mdtab_add(t, 2 + v, "-");
			join(ci, sizeof(ci), "-");
			join(cvs, sizeof(cvs), "-");
			join(mm, sizeof(mm), "-");
			continue;
		}
		if (!base || base == c) {
			mdtab_add(t, 2 + v, "%.2f%s", a->value / k,
				  base ? " (0.00%)" : "");
		} else {
			compare(run, base, c, mi, &cmp);
			if (isnan(cmp.change_pct))
				mdtab_add(t, 2 + v, "%.2f (n/a)", a->value / k);
			else
				mdtab_add(t, 2 + v, "%.2f (%+.2f%%)%s",
					  a->value / k, cmp.change_pct,
					  cmp.significant ? "*" : "");
		}
		if (isnan(a->lo))
			snprintf(s, sizeof(s), "n/a");
		else
			snprintf(s, sizeof(s), "[%.2f, %.2f]", a->lo / k,
				 a->hi / k);
		join(ci, sizeof(ci), s);
		spread(c, mi, k, &cv, &lo, &hi);
		if (isnan(cv))
			snprintf(s, sizeof(s), "-");
		else
			snprintf(s, sizeof(s), "%.2f%%", cv);
		join(cvs, sizeof(cvs), s);
		snprintf(s, sizeof(s), "%.2f-%.2f", lo, hi);
		join(mm, sizeof(mm), s);
	}
	mdtab_add(t, 2 + run->nr_variants, "%s", ci);
	mdtab_add(t, 3 + run->nr_variants, "%s", cvs);
	mdtab_add(t, 4 + run->nr_variants, "%s", mm);
}

/* First cell of its name (the cells are sorted by name, then label). */
static int first_of_name(const struct run *run, unsigned int i)
{
	return !i || strcmp(run->cells[i - 1]->name, run->cells[i]->name);
}

static int any_value(const struct run *run, const char *cell,
		     unsigned int mi)
{
	unsigned int v;

	for (v = 0; v < run->nr_variants; v++) {
		const struct cell *c = run_find(run, run->variants[v], cell);

		if (c && c->agg[mi].n)
			return 1;
	}
	return 0;
}

void headline_report(FILE *f, const struct run *run)
{
	unsigned int i, v, mi, nv = run->nr_variants, rows = 0;
	struct mdtab t;

	if (mdtab_init(&t, 5 + nv))
		return;
	t.left = 2;
	mdtab_add(&t, 0, "workload@condition");
	mdtab_add(&t, 1, "primary metric");
	for (v = 0; v < nv; v++)
		mdtab_add(&t, 2 + v, "%s", run->variants[v]);
	mdtab_add(&t, 2 + nv, "95%% CI (per column)");
	mdtab_add(&t, 3 + nv, "CV (per column)");
	mdtab_add(&t, 4 + nv, "per-boot min-max (per column)");
	for (i = 0; i < run->nr_cells; i++) {
		if (!first_of_name(run, i))
			continue;
		for (mi = 0; mi < nr_minsts; mi++) {
			if (!run->primary[mi] ||
			    !any_value(run, run->cells[i]->name, mi))
				continue;
			row(&t, run, run->cells[i]->name, mi);
			rows++;
		}
	}
	fprintf(f, "## Headline — %s%s\n\nTiming model: **%s**.\n\n",
		run->timing_label, run_lat_note(run), run->timing_label);
	fprintf(f, "In the form of mmtests' compare-kernels: per cell and primary "
		   "metric, the `%s` label first, then every other label as `value "
		   "(gain%%)`, gain positive = better; `*`: two-sided Mann-Whitney U p "
		   "< %.2f on the per-boot values (primary metrics are not "
		   "Holm-corrected). Latency percentiles are the median over boots of "
		   "each boot's own percentile. Then per column, in column order: the "
		   "95%% CI (t-interval over boots), the coefficient of variation of "
		   "the per-boot values and their min-max. Latency and CPU in us.\n\n",
		run->variants[0], SIGNIFICANCE_ALPHA);
	if (rows)
		mdtab_print(f, &t);
	else
		fprintf(f, "No cell has a primary metric.\n");
	fputc('\n', f);
	mdtab_free(&t);
}
