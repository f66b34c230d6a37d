// SPDX-License-Identifier: GPL-2.0
/*
 * Description: unit tests of the parsers, histogram arithmetic and
 * statistics of pollbench-report, against hand-computed values and the
 * checked-in fixtures (run from analysis/).
 *
 * Output: "ok - <name>" or "not ok - <name>: <why>" per check; the
 * driver (run-tests.sh) counts them.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "aggregate.h"
#include "breakdown.h"
#include "compare.h"
#include "cond.h"
#include "crossover.h"
#include "device.h"
#include "engine.h"
#include "fair.h"
#include "fio.h"
#include "hist.h"
#include "jain.h"
#include "loss.h"
#include "mdtab.h"
#include "metrics.h"
#include "model.h"
#include "precision.h"
#include "procstat.h"
#include "runcmp.h"
#include "scale.h"
#include "scale_out.h"
#include "signif.h"
#include "stats.h"
#include "sweep.h"
#include "table.h"
#include "timing.h"
#include "trace.h"
#include "window.h"

#define FIX "tests/fixtures/"
#define OK_CELL FIX "run-ok/baseline/randread-4k-qd1-psync@alone/1/"

static int failed;

static void check(int cond, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (cond) {
		printf("ok - %s\n", name);
		return;
	}
	failed++;
	printf("not ok - %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static int close_to(double a, double b, double rel)
{
	return fabs(a - b) <= rel * fmax(fabs(a), fabs(b)) + 1e-15;
}

static void test_bins(void)
{
	unsigned int i, idx, bad = PLAT_NR;

	for (i = 0; i < PLAT_NR - 1; i++)
		if (hist_val_to_idx(hist_idx_to_val(i)) != i)
			bad = i;
	check(bad == PLAT_NR, "hist: val_to_idx(idx_to_val(i)) == i",
	      "fails at %u", bad);
	/* Below 128 one value per bin; then midpoints of 2^k-wide bins. */
	check(hist_idx_to_val(127) == 127 && hist_idx_to_val(128) == 129 &&
	      hist_idx_to_val(191) == 255 && hist_idx_to_val(192) == 258,
	      "hist: bin values 127, 129, 255, 258", "got %llu %llu %llu %llu",
	      (unsigned long long)hist_idx_to_val(127),
	      (unsigned long long)hist_idx_to_val(128),
	      (unsigned long long)hist_idx_to_val(191),
	      (unsigned long long)hist_idx_to_val(192));
	check(!hist_bin_of_val(129, &idx) && idx == 128 &&
	      hist_bin_of_val(130, &idx),
	      "hist: 129 is a bin value, 130 is not", "");
	/* Every bin above 128 is at most 1/64 of its lower edge wide. */
	bad = 0;
	for (i = 2 * PLAT_VAL; i < PLAT_NR - 1; i++) {
		double lo = (hist_idx_to_val(i) + hist_idx_to_val(i - 1)) / 2.0;
		double w = hist_idx_to_val(i + 1) - hist_idx_to_val(i);

		if (w / lo > PLAT_BIN_REL_WIDTH * 1.0001)
			bad = i;
	}
	check(!bad, "hist: relative bin width <= 1/64", "bin %u", bad);
}

static void test_percentiles(void)
{
	struct hist *h = calloc(1, sizeof(*h)), *h2 = calloc(1, sizeof(*h2));

	/* 100 samples: 50 x 10 ns, 40 x 20 ns, 9 x 129 ns, 1 x 258 ns. */
	h->cnt[hist_val_to_idx(10)] = 50;
	h->cnt[hist_val_to_idx(20)] = 40;
	h->cnt[hist_val_to_idx(129)] = 9;
	h->cnt[hist_val_to_idx(258)] = 1;
	h->n = 100;
	check(hist_percentile(h, 1) == 10 && hist_percentile(h, 50) == 10 &&
	      hist_percentile(h, 50.1) == 20 && hist_percentile(h, 90) == 20 &&
	      hist_percentile(h, 99) == 129 && hist_percentile(h, 99.9) == 258 &&
	      hist_percentile(h, 99.99) == 258,
	      "hist: percentiles of a hand-made set", "p50=%llu p99=%llu",
	      (unsigned long long)hist_percentile(h, 50),
	      (unsigned long long)hist_percentile(h, 99));
	/* (50*10 + 40*20 + 9*129 + 258) / 100 = 27.19 */
	check(close_to(hist_mean(h), 27.19, 1e-12) && hist_max(h) == 258,
	      "hist: mean 27.19 and max 258", "mean %g", hist_mean(h));
	hist_add(h2, h, 1);
	hist_add(h2, h, 2);
	check(h2->n == 300 && h2->cnt[hist_val_to_idx(258)] == 3 &&
	      hist_percentile(h2, 99) == 129,
	      "hist: weighted merge", "n=%llu", (unsigned long long)h2->n);
	free(h);
	free(h2);
}

/* Our percentiles from the bins must be fio's own, for a 1-job file. */
static void test_fio_real(const char *path)
{
	struct fio_result *r = malloc(sizeof(*r));
	json_t *root = json_load_file(path, 0, NULL), *pct, *clat, *v, *job;
	const char *key, *dir;
	char name[256];
	int bad = 0, n = 0;

	snprintf(name, sizeof(name), "fio: %s loads", path + strlen(FIX));
	check(root && !fio_load(path, r), name, "");
	if (!root) {
		free(r);
		return;
	}
	job = json_array_get(json_object_get(root, "jobs"), 0);
	if (json_object_get(job, "mixed"))
		dir = "mixed";
	else if (json_integer_value(json_object_get(json_object_get(job, "read"),
						    "total_ios")))
		dir = "read";
	else
		dir = "write";
	clat = json_object_get(json_object_get(job, dir), "clat_ns");
	pct = json_object_get(clat, "percentile");
	json_object_foreach(pct, key, v) {
		double p = strtod(key, NULL);

		n++;
		if (hist_percentile(&r->lat, p) !=
		    (uint64_t)json_integer_value(v)) {
			bad++;
			printf("# p%s: fio %lld, ours %llu\n", key,
			       json_integer_value(v),
			       (unsigned long long)hist_percentile(&r->lat, p));
		}
	}
	snprintf(name, sizeof(name), "fio: %d bin percentiles equal fio's (%s)",
		 n, dir);
	check(n > 10 && !bad, name, "%d differ", bad);
	/* The bin mean is within the histogram error of fio's exact mean. */
	snprintf(name, sizeof(name), "fio: bin mean within 0.78%% of exact mean (%s)",
		 dir);
	check(close_to(hist_mean(&r->lat),
		       json_number_value(json_object_get(clat, "mean")),
		       PLAT_REL_ERROR), name, "ours %g fio %g",
	      hist_mean(&r->lat),
	      json_number_value(json_object_get(clat, "mean")));
	json_decref(root);
	free(r);
}

/*
 * fio --lat_percentiles=1: total-latency bins, whose percentiles are
 * fio's own lat_ns percentiles; for io_uring lat and clat differ.
 */
static void test_fio_lat(void)
{
	const char *path = FIX "run-lat/baseline/randread-4k-qd1-iouring-hipri@alone/1/fio.json";
	struct fio_result *r = malloc(sizeof(*r));
	json_t *root = json_load_file(path, 0, NULL), *pct, *v;
	const char *key;
	int bad = 0, n = 0;

	check(r && root && !fio_load(path, r) && r->has_tlat &&
	      r->tlat.n == 300 && r->lat.n == 300,
	      "fio: lat_ns bins of an io_uring run load", "");
	pct = json_object_get(json_object_get(json_object_get(json_array_get(
		json_object_get(root, "jobs"), 0), "read"), "lat_ns"),
		"percentile");
	json_object_foreach(pct, key, v) {
		n++;
		if (hist_percentile(&r->tlat, strtod(key, NULL)) !=
		    (uint64_t)json_integer_value(v))
			bad++;
	}
	check(n > 10 && !bad, "fio: lat bin percentiles equal fio's lat_ns percentiles",
	      "%d of %d differ", bad, n);
	check(hist_percentile(&r->tlat, 50) == 98816 &&
	      hist_percentile(&r->lat, 50) == 69120 && r->lat_min_ns == 66737,
	      "fio: io_uring lat p50 98816 ns, clat p50 69120 ns, lat min 66737",
	      "lat %llu clat %llu min %g",
	      (unsigned long long)hist_percentile(&r->tlat, 50),
	      (unsigned long long)hist_percentile(&r->lat, 50), r->lat_min_ns);
	json_decref(root);
	free(r);
}

/* Per-reader fairness: Jain's index and the smallest share, by hand. */
static void test_readers(void)
{
	static const double rates[] = { 100, 100, 200, 400 };
	static const double starved[] = { 0, 100, 100, 100 };
	static const double one[] = { 100 };
	struct fio_result *r = malloc(sizeof(*r));
	struct opts o = { .seed = DEFAULT_SEED, .resamples = 200 };
	struct run run;
	struct cell *c;
	int mj, ms;

	check(close_to(jain_index(rates, 4), 8.0 / 11, 1e-12) &&
	      close_to(min_share_pct(rates, 4), 50, 1e-12),
	      "readers: Jain 100 100 200 400 = 8/11, smallest share 50 %",
	      "%.17g %.17g", jain_index(rates, 4), min_share_pct(rates, 4));
	check(close_to(jain_index(starved, 4), 0.75, 1e-12) &&
	      min_share_pct(starved, 4) == 0 &&
	      isnan(jain_index(one, 1)) && isnan(min_share_pct(one, 1)) &&
	      isnan(jain_index(starved, 1)),
	      "readers: a starved reader is 0 %, one reader (or no I/O) has no index",
	      "");
	check(r && !fio_load(FIX "fio-readers-4.json", r) && r->jobs == 4 &&
	      r->job[3].ios == 400 && r->job[3].runtime_ms == 1000 &&
	      r->ios == 800,
	      "readers: each job's I/Os and job_runtime kept", "");
	check(r && !fio_load(FIX "fio-readers-equal.json", r) &&
	      r->job[1].ios == 200 && r->job[1].runtime_ms == 2000,
	      "readers: job_runtime wins over the side's runtime", "%g",
	      r ? r->job[1].runtime_ms : NAN);
	check(r && !fio_load(FIX "fio-readers-old.json", r) &&
	      r->job[0].runtime_ms == 1500 && r->job[1].runtime_ms == 1000,
	      "readers: without job_runtime, read.runtime (older fio)", "");
	check(r && !fio_load(FIX "fio-readers-nort.json", r) &&
	      isnan(r->job[0].runtime_ms),
	      "readers: no runtime at all is NAN", "");
	free(r);

	metrics_init();
	mj = minst_find("reader_jain");
	ms = minst_find("reader_min_share_pct");
	if (run_load(&run, FIX "run-readers", "baseline")) {
		check(0, "readers: run-readers loads", "");
		return;
	}
	run_aggregate(&run, &o);
	c = run_find(&run, "baseline", "randread-4k-r4-psync@alone");
	check(c && close_to(c->reps[0].val[mj], 8.0 / 11, 1e-12) &&
	      c->reps[1].val[mj] == 1 && close_to(c->agg[mj].value, 19.0 / 22, 1e-12) &&
	      close_to(c->reps[0].val[ms], 50, 1e-12) &&
	      close_to(c->reps[1].val[ms], 100, 1e-12) &&
	      close_to(c->agg[ms].value, 75, 1e-12) && c->agg[mj].n == 2,
	      "readers: per rep 8/11 and 1, the cell's reader_jain 19/22, share 75 %",
	      "%.17g %.17g", c ? c->agg[mj].value : NAN,
	      c ? c->agg[ms].value : NAN);
	run_free(&run);
	run_load(&run, FIX "run-ok", "baseline");
	c = run_find(&run, "baseline", "randread-4k-qd1-psync@alone");
	check(c && isnan(c->reps[0].val[mj]) && isnan(c->reps[0].val[ms]),
	      "readers: a one-job fio run has no reader fairness", "");
	run_free(&run);
}

static void test_fio(void)
{
	struct fio_result *r = malloc(sizeof(*r));

	test_fio_real(OK_CELL "fio.json");
	test_fio_real(FIX "run-ok/inline/randread-4k-qd1-pvsync2@alone/2/fio.json");
	test_fio_real(FIX "fio-randrw-unified.json");
	check(!fio_load(FIX "run-ok/baseline/randwrite-4k-qd1-psync@alone/1/fio.json", r) &&
	      r->jobs == 2 && r->lat.n == r->ios && r->ios > 0,
	      "fio: 2-job randwrite merges both jobs' bins", "jobs %u n %llu ios %llu",
	      r->jobs, (unsigned long long)r->lat.n, (unsigned long long)r->ios);
	check(fio_load(FIX "run-truncated/baseline/randread-4k-qd1-psync@alone/1/fio.json", r),
	      "fio: truncated JSON rejected", "");
	check(!fio_load(OK_CELL "fio.json", r) && !r->has_tlat &&
	      !r->tlat.n && isnan(r->lat_min_ns) == 0,
	      "fio: a run without --lat_percentiles has no total-latency bins",
	      "has_tlat %d", r->has_tlat);
	test_fio_lat();
	check(fio_load(FIX "run-noclat/baseline/randread-4k-qd1-psync@alone/1/fio.json", r),
	      "fio: missing clat_ns rejected", "");
	check(fio_load(FIX "run-emptybins/baseline/randread-4k-qd1-psync@alone/1/fio.json", r),
	      "fio: empty bins rejected", "");
	free(r);
}

static void test_procstat(void)
{
	struct cpustat cs;
	struct irqsum irq;
	int r;
	struct kvlist l;
	const struct kv *k;

	/* "cpu  53396 0 22141 71377 1731 0 332 566 0 0" */
	r = cpustat_load(OK_CELL "stat-before.txt", &cs);
	check(!r &&
	      cs.f[CPU_USER] == 53396 && cs.f[CPU_SYSTEM] == 22141 &&
	      cs.f[CPU_IDLE] == 71377 && cs.f[CPU_IOWAIT] == 1731 &&
	      cs.f[CPU_SOFTIRQ] == 332 && cs.f[CPU_STEAL] == 566,
	      "procstat: aggregate cpu line", "user %llu",
	      (unsigned long long)cs.f[CPU_USER]);
	/* nvme0q0 "0 1" + nvme0q1 "0 269168"; all: every 2-count line. */
	r = interrupts_load(OK_CELL "interrupts-before.txt", &irq);
	check(!r &&
	      irq.nvme == 269169 && irq.all == 992631,
	      "procstat: /proc/interrupts nvme and total", "nvme %llu all %llu",
	      (unsigned long long)irq.nvme, (unsigned long long)irq.all);
	check(!kprobes_load(OK_CELL "kprobes.txt", &l) && l.n == 2 &&
	      (k = kv_find(&l, "pb_end_request")) && k->v == 20001,
	      "procstat: kprobe_profile", "n %u", l.n);
	kv_free(&l);
	check(!perfstat_load(OK_CELL "perf-stat.txt", &l) && l.n == 3 &&
	      (k = kv_find(&l, "context-switches")) && k->v == 13467 &&
	      (k = kv_find(&l, "task-clock_ns")) && close_to(k->v, 481.32e6, 1e-12),
	      "procstat: perf stat -x, (msec as ns)", "n %u", l.n);
	kv_free(&l);
	/* 27 counters + polled_inflight; task_polls: 70200 + 70201. */
	r = pollstats_load(FIX "run-ok/inline/randread-4k-qd1-psync@alone/2/poll-stats-after.txt",
			   &l);
	check(!r && l.n == 28 && (k = kv_find(&l, "task_polls")) &&
	      k->v == 140401,
	      "procstat: poll-stats summed over hardware queues", "n %u", l.n);
	kv_free(&l);
	r = pollstats_load(FIX "poll-stats-2col.txt", &l);
	check(!r && l.n == 2 && (k = kv_find(&l, "task_polls")) && k->v == 12,
	      "procstat: poll-stats plain key value lines", "n %u", l.n);
	kv_free(&l);
	check(pollstats_load(OK_CELL "perf-stat.txt", &l) != 0,
	      "procstat: malformed poll-stats rejected", "");
}

/* Mid-ranks of v[0..n-1], by counting (no sort): brute-force reference. */
static void bf_midranks(const double *v, unsigned int n, double *rk)
{
	unsigned int i, j, below, eq;

	for (i = 0; i < n; i++) {
		for (j = 0, below = 0, eq = 0; j < n; j++) {
			below += v[j] < v[i];
			eq += v[j] == v[i];
		}
		rk[i] = below + (eq + 1) / 2.0;
	}
}

/*
 * Two-sided exact Mann-Whitney p by enumerating every split of the pooled
 * values (bitmasks with nx bits set): the definition, independent of the
 * rank-sum recursion in stats.c.
 */
static double bf_mw(const double *x, unsigned int nx, const double *y,
		    unsigned int ny)
{
	unsigned int n = nx + ny, i, mask, hit = 0, all = 0;
	double v[32], rk[32], rx = 0, mu = nx * ny / 2.0, dobs;

	for (i = 0; i < nx; i++)
		v[i] = x[i];
	for (i = 0; i < ny; i++)
		v[nx + i] = y[i];
	bf_midranks(v, n, rk);
	for (i = 0; i < nx; i++)
		rx += rk[i];
	dobs = fabs(rx - nx * (nx + 1) / 2.0 - mu);
	for (mask = 0; mask < 1u << n; mask++) {
		double r = 0;

		if ((unsigned int)__builtin_popcount(mask) != nx)
			continue;
		for (i = 0; i < n; i++)
			if (mask & (1u << i))
				r += rk[i];
		all++;
		hit += fabs(r - nx * (nx + 1) / 2.0 - mu) >= dobs - 1e-9;
	}
	return (double)hit / all;
}

static void test_mw_ties(void)
{
	double a[] = { 1, 1, 2 }, b[] = { 2, 3, 3 };
	double s1[] = { 1, 2, 3, 4, 5 }, s2[] = { 6, 7, 8, 9, 10 };
	double o1[] = { 1, 1, 1, 1, 1 }, o2[] = { 2, 2, 2, 2, 2 };
	double t1[] = { 1, 1, 1, 2, 2 }, t2[] = { 2, 2, 3, 3, 3 };
	double n1[] = { 1, 2, 2, 3, 4, 5, 5, 6, 7, 8, 9, 9 };
	double n2[] = { 5, 6, 7, 7, 8, 9, 10, 10, 11, 12, 13, 14 };
	double p, u, x[8], y[8], worst = 0;
	unsigned int t, i, nx, ny, bad = 0;
	struct rng r;
	bool exact;

	/*
	 * 3v3, mid-ranks 1.5 1.5 3.5 | 3.5 5.5 5.5: U = 6.5 - 6 = 0.5,
	 * |U - 4.5| = 4; rank sums <= 6.5 ({1.5,1.5,3.5}: 2 ways) or
	 * >= 14.5 (2 ways) of C(6,3) = 20: p = 4/20.
	 */
	p = mann_whitney(a, 3, b, 3, &u, &exact);
	check(exact && u == 0.5 && close_to(p, 0.2, 1e-12),
	      "stats: Mann-Whitney exact 3v3 with ties p=4/20", "p %g u %g",
	      p, u);
	p = mann_whitney(s1, 5, s2, 5, &u, &exact);
	check(exact && u == 0 && close_to(p, 2.0 / 252, 1e-12),
	      "stats: Mann-Whitney exact 5v5 separated p=2/252", "p %g", p);
	/*
	 * Every x tied with every x, every y with every y: still only the
	 * 2 extreme splits of 252 are as far out, p = 2/252; the normal
	 * approximation with tie correction gives 0.00398, below what the
	 * exact test can give.
	 */
	p = mann_whitney(o1, 5, o2, 5, &u, &exact);
	check(exact && close_to(p, 2.0 / 252, 1e-12),
	      "stats: Mann-Whitney 5v5 all tied within groups p=2/252 (normal: 0.00398)",
	      "p %g", p);
	/* U = 2: exact 12/252 = 1/21 = 0.0476; the normal one is 0.0269. */
	p = mann_whitney(t1, 5, t2, 5, &u, &exact);
	check(exact && u == 2 && close_to(p, 1.0 / 21, 1e-12),
	      "stats: Mann-Whitney 5v5 with ties p=1/21 (normal: 0.0269)",
	      "p %.17g u %g", p, u);
	/* C(24,12) = 2704156 splits: normal approximation, U = 21, ties 96. */
	p = mann_whitney(n1, 12, n2, 12, &u, &exact);
	check(!exact && u == 21 && close_to(p, 0.003435569802160916, 1e-9),
	      "stats: Mann-Whitney 12v12 above the split limit: normal with ties",
	      "p %.17g u %g exact %d", p, u, exact);
	check(binomial(10, 5) == 252 && binomial(24, 12) == 2704156 &&
	      binomial(20, 10) <= MW_EXACT_MAX_SPLITS,
	      "stats: binomial coefficients and the split limit", "");
	/* Random small samples on a coarse grid (many ties): = brute force. */
	rng_seed(&r, 7);
	for (t = 0; t < 300; t++) {
		nx = 1 + rng_below(&r, 7);
		ny = 1 + rng_below(&r, 7);
		for (i = 0; i < nx; i++)
			x[i] = rng_below(&r, 4);
		for (i = 0; i < ny; i++)
			y[i] = rng_below(&r, 4) + rng_below(&r, 2);
		p = mann_whitney(x, nx, y, ny, &u, &exact);
		if (!exact || !close_to(p, bf_mw(x, nx, y, ny), 1e-12)) {
			bad++;
			worst = p;
		}
	}
	check(!bad, "stats: Mann-Whitney exact p equals brute-force enumeration (300 tied samples)",
	      "%u differ (last p %g)", bad, worst);
}

/* A standard normal draw (Box-Muller on the seeded generator). */
static double normal_draw(struct rng *r)
{
	double u1 = (rng_next(r) >> 11) * 0x1.0p-53;
	double u2 = (rng_next(r) >> 11) * 0x1.0p-53;

	return sqrt(-2 * log(1 - u1)) * cos(2 * M_PI * u2);
}

/*
 * Coverage at n = 5 of the reported 95 % interval for a mean: 4000
 * samples of 5 from N(10, 2^2), fixed seed; the t-interval must cover 10
 * in 93-97 % of them, the old percentile bootstrap (126 distinct
 * resamples) less often.
 */
static void test_coverage(void)
{
	unsigned int t, i, cov_t = 0, cov_b = 0, trials = 4000;
	double x[5], lo, hi, m;
	struct rng r;

	check(close_to(t_quantile(0.975, 4), 2.7764451051977987, 1e-9) &&
	      close_to(t_quantile(0.975, 1), 12.706204736174707, 1e-9) &&
	      close_to(t_quantile(0.975, 29), 2.0452296421327034, 1e-9),
	      "stats: t quantiles 0.975 for 4, 1, 29 df (GSL)", "%.17g",
	      t_quantile(0.975, 4));
	rng_seed(&r, 20261204);
	for (t = 0; t < trials; t++) {
		for (i = 0, m = 0; i < 5; i++) {
			x[i] = 10 + 2 * normal_draw(&r);
			m += x[i] / 5;
		}
		t_interval(x, 5, m, CI_LEVEL, &lo, &hi);
		cov_t += lo <= 10 && 10 <= hi;
		bootstrap_ci(5, 500, seed_mix(t, "cov"), weighted_mean, x,
			     CI_LEVEL, &lo, &hi);
		cov_b += lo <= 10 && 10 <= hi;
	}
	check(cov_t >= 0.93 * trials && cov_t <= 0.97 * trials,
	      "stats: t-interval coverage at n=5 within [0.93, 0.97]",
	      "%.4f", (double)cov_t / trials);
	check(cov_b < 0.93 * trials && cov_b < cov_t,
	      "stats: percentile bootstrap coverage at n=5 is lower (< 0.93)",
	      "%.4f", (double)cov_b / trials);
	printf("# coverage at n=5: t-interval %.4f, bootstrap %.4f\n",
	       (double)cov_t / trials, (double)cov_b / trials);
	t_interval(x, 1, x[0], CI_LEVEL, &lo, &hi);
	check(isnan(lo) && isnan(hi), "stats: one rep, no interval (n/a)", "");
	/* 1..5: mean 3, s = sqrt(2.5), hw = 2.7764 x 1.5811 / sqrt 5 = 1.9632. */
	{
		double v[] = { 1, 2, 3, 4, 5 };

		t_interval(v, 5, 3, CI_LEVEL, &lo, &hi);
		check(close_to(hi - 3, 2.7764451051977987 * sqrt(2.5) / sqrt(5), 1e-9) &&
		      close_to(3 - lo, hi - 3, 1e-12),
		      "stats: t-interval of 1..5 is 3 -+ 1.9632", "[%g, %g]",
		      lo, hi);
	}
}

static void test_stats(void)
{
	double x1[] = { 1, 2, 3 }, y1[] = { 4, 5, 6 };
	double x2[] = { 1, 3, 5 }, y2[] = { 2, 4, 6 };
	double x3[] = { 1, 2, 3, 4 }, y3[] = { 5, 6, 7, 8 };
	double y4[] = { 5, 6, 7, 8, 9 };
	double xt[] = { 1, 2, 2, 3 }, yt[] = { 2, 3, 4, 4 };
	double v[] = { 1, 2, 3, 4, 5 }, c[] = { 7, 7, 7 };
	double q[] = { 1, 2, 3, 4 };
	double p, u, lo, hi, lo2, hi2;
	bool exact;

	/* U = 0 of C(6,3) = 20 orderings: two-sided p = 2/20. */
	p = mann_whitney(x1, 3, y1, 3, &u, &exact);
	check(exact && u == 0 && close_to(p, 0.1, 1e-12),
	      "stats: Mann-Whitney exact 3v3 separated p=0.1", "p %g u %g", p, u);
	/* U = 3; counts of U=0..3 are 1,1,2,3 -> P(U<=3)=7/20, p=0.7. */
	p = mann_whitney(x2, 3, y2, 3, &u, &exact);
	check(exact && u == 3 && close_to(p, 0.7, 1e-12),
	      "stats: Mann-Whitney exact 3v3 interleaved p=0.7", "p %g u %g", p, u);
	p = mann_whitney(x3, 4, y3, 4, &u, &exact);
	check(exact && close_to(p, 2.0 / 70, 1e-12),
	      "stats: Mann-Whitney exact 4v4 separated p=2/70", "p %g", p);
	p = mann_whitney(y4, 5, x3, 4, &u, &exact);
	check(exact && u == 20 && close_to(p, 2.0 / 126, 1e-12),
	      "stats: Mann-Whitney exact 5v4, U=20 upper tail p=2/126",
	      "p %g u %g", p, u);
	/*
	 * Ties, exact: mid-ranks 1 | 3 3 3 | 5.5 5.5 | 7.5 7.5; R_x = 12.5,
	 * U = 2.5, |U - 8| = 5.5; 14 of the C(8,4) = 70 splits are as far
	 * out (brute force below agrees): p = 0.2. The normal approximation
	 * gave 0.134169...
	 */
	p = mann_whitney(xt, 4, yt, 4, &u, &exact);
	check(exact && u == 2.5 && close_to(p, 0.2, 1e-12),
	      "stats: Mann-Whitney exact 4v4 with ties p=0.2", "p %.17g u %g",
	      p, u);
	test_mw_ties();
	test_coverage();
	/* 3 pairs x > y, 6 pairs x < y: (3 - 6) / 9. */
	check(close_to(cliffs_delta(x2, 3, y2, 3), -1.0 / 3, 1e-12) &&
	      cliffs_delta(x1, 3, y1, 3) == -1,
	      "stats: Cliff's delta", "%g", cliffs_delta(x2, 3, y2, 3));
	check(quantile_sorted(q, 4, 0.5) == 2.5 && quantile_sorted(q, 4, 0) == 1 &&
	      quantile_sorted(q, 4, 1) == 4 &&
	      close_to(quantile_sorted(q, 4, 0.25), 1.75, 1e-12),
	      "stats: type-7 quantiles", "");

	bootstrap_ci(3, 1000, 1, weighted_mean, c, 0.95, &lo, &hi);
	check(lo == 7 && hi == 7, "stats: bootstrap CI of constant reps is a point",
	      "[%g, %g]", lo, hi);
	bootstrap_ci(5, 2000, 42, weighted_mean, v, 0.95, &lo, &hi);
	bootstrap_ci(5, 2000, 42, weighted_mean, v, 0.95, &lo2, &hi2);
	check(lo == lo2 && hi == hi2, "stats: bootstrap deterministic for a seed",
	      "[%g, %g] vs [%g, %g]", lo, hi, lo2, hi2);
	/* Mean of 5 resampled values is a multiple of 0.2 in [1, 5]; the
	 * sd of the bootstrap mean is sqrt(2/5) = 0.63, so the 95% CI is
	 * about 3 -+ 1.2.
	 */
	check(lo >= 1.4 && lo <= 2.0 && hi >= 4.0 && hi <= 4.6,
	      "stats: bootstrap CI of mean(1..5) about [1.8, 4.2]",
	      "[%g, %g]", lo, hi);
	/* Pinned: regression guard for the RNG and resampling order. */
	check(close_to(lo, 1.8, 1e-12) && close_to(hi, 4.2, 1e-12),
	      "stats: bootstrap CI pinned for seed 42", "[%.17g, %.17g]", lo, hi);
	bootstrap_ci(5, 2000, 43, weighted_mean, v, 0.95, &lo2, &hi2);
	check(seed_mix(1, "a") != seed_mix(1, "b") &&
	      seed_mix(1, "a") != seed_mix(2, "a"),
	      "stats: seed_mix separates names and seeds", "");
}

static void test_metrics(void)
{
	unsigned int i, j, dup = 0;
	int k;

	metrics_init();
	for (i = 0; i < nr_metrics; i++)
		for (j = i + 1; j < nr_metrics; j++)
			if (!strcmp(metrics[i].key, metrics[j].key))
				dup++;
	check(!dup, "metrics: keys unique", "%u duplicates", dup);
	check(minst_find("clat_p99_ns") >= 0 && minst_find("nope") < 0,
	      "metrics: lookup by key", "");
	k = minst_family("perf_%s_per_io", "L1-dcache-loads");
	check(k >= 0 && !strcmp(minsts[k].key, "perf_l1_dcache_loads_per_io") &&
	      minst_family("perf_%s_per_io", "L1-dcache-loads") == k,
	      "metrics: family instance, sanitised and reused", "%s",
	      k >= 0 ? minsts[k].key : "");
	for (i = 0; i < nr_metrics; i++)
		if (metrics[i].agg == AGG_HIST_PCT &&
		    (metrics[i].pct <= 0 || metrics[i].pct >= 100))
			dup++;
	check(!dup, "metrics: percentile metrics have 0 < pct < 100", "");
}

static void test_engine_family(void)
{
	char *f = engine_family("randread-4k-qd1-psync@alone");
	char *g = engine_family("noengine@alone");
	char *h = engine_family("randread-4k-qd1-iouring-hipri@alone@nullb-5us");
	char *k = engine_family("randread-4k-pvsync2-hipri@busy");

	check(f && !strcmp(f, "randread-4k-qd1-*@alone") && !g,
	      "table: engine family strips the engine suffix", "%s", f ? f : "");
	/* io_uring hipri (upstream's polling) shares psync's family. */
	check(h && !strcmp(h, "randread-4k-qd1-*@alone@nullb-5us") &&
	      k && !strcmp(k, "randread-4k-pvsync2-*@busy") &&
	      !strcmp(engine_name("randread-4k-qd1-iouring-hipri"), "iouring-hipri") &&
	      !strcmp(engine_name("randread-4k-qd1-psync"), "psync") &&
	      !strcmp(engine_name("randread-4k-psync"), "psync"),
	      "table: the engine is the workload after <rw>-<bs>-<qd>", "%s %s",
	      h ? h : "", k ? k : "");
	free(f);
	free(g);
	free(h);
	free(k);
}

/* inline reps have kprobes-before.txt: hits are after - before. */
static void test_kprobe_delta(const struct run *run)
{
	const struct cell *c = run_find(run, "inline", "randread-4k-qd1-psync@alone");
	struct fio_result *fr = malloc(sizeof(*fr));
	int mi = minst_family("kprobe_%s_per_io", "pb_end_request");
	int r;

	r = fio_load(FIX "run-ok/inline/randread-4k-qd1-psync@alone/2/fio.json", fr);
	/* after 20002, before 102 */
	check(!r && c && c->reps[1].num == 2 &&
	      close_to(c->reps[1].val[mi], (20002.0 - 102) / fr->ios, 1e-12),
	      "rep: kprobe hits per I/O from after - before", "%g",
	      c ? c->reps[1].val[mi] : NAN);
	mi = minst_family("poll_%s_per_io", "task_polls");
	/* (70200 + 70201) - (5200 + 5201) over the rep's I/Os */
	check(!r && c && close_to(c->reps[1].val[mi], 130000.0 / fr->ios, 1e-12) &&
	      minst_find("poll_polled_inflight_per_io") < 0,
	      "rep: poll counters per I/O, gauge polled_inflight left out", "%g",
	      c ? c->reps[1].val[mi] : NAN);
	free(fr);
}

/* Sign normalisation: positive = better for both directions. */
static void test_compare(const struct run *run)
{
	const struct cell *b = run_find(run, "baseline", "randread-4k-qd1-psync@alone");
	const struct cell *c = run_find(run, "inline", "randread-4k-qd1-psync@alone");
	int p99 = minst_find("clat_p99_ns"), iops = minst_find("iops");
	double bv, cv;
	struct cmp cmp;

	if (!b || !c)
		return;
	bv = b->agg[p99].value;
	cv = c->agg[p99].value;
	compare(run, b, c, p99, &cmp);
	check(cmp.valid && close_to(cmp.change_pct, -(cv - bv) / bv * 100, 1e-12) &&
	      (cv > bv) == (cmp.change_pct < 0),
	      "compare: lower-is-better change negated", "%g", cmp.change_pct);
	bv = b->agg[iops].value;
	cv = c->agg[iops].value;
	compare(run, b, c, iops, &cmp);
	check(cmp.valid && close_to(cmp.change_pct, (cv - bv) / bv * 100, 1e-12) &&
	      cmp.exact && cmp.p >= 0.1 && !cmp.significant &&
	      fabs(cmp.cliff) <= 1,
	      "compare: higher-is-better change, 3v3 exact p >= 0.1", "%g p %g",
	      cmp.change_pct, cmp.p);
	compare(run, b, b, p99, &cmp);
	check(cmp.change_pct == 0 && !signbit(cmp.change_pct) && cmp.cliff == 0,
	      "compare: a cell against itself is +0.00%, delta 0", "%g",
	      cmp.change_pct);
}

/*
 * run-ok has clat bins only and no window files: its primaries are the
 * fallbacks clat_p50/p99_ns and cpu_busy_ns_per_io (no competitor cell:
 * no competitor_loss_pct). Secondary metrics are starred on their Holm p,
 * direction-none metrics are not tested.
 */
static void test_multiple(const struct run *run)
{
	const struct cell *b = run_find(run, "baseline", "randread-4k-qd1-psync@alone");
	const struct cell *c = run_find(run, "inline", "randread-4k-qd1-psync@alone");
	double p[] = { 0.01, 0.04, NAN, 0.03, 0.005 }, adj[5];
	unsigned int i, bad = 0, secondary = 0;
	struct cmp cmp;

	/* m = 4: 0.005 x 4 = 0.02, 0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1 -> 0.06. */
	holm_adjust(p, 5, adj);
	check(close_to(adj[4], 0.02, 1e-12) && close_to(adj[0], 0.03, 1e-12) &&
	      close_to(adj[3], 0.06, 1e-12) && close_to(adj[1], 0.06, 1e-12) &&
	      isnan(adj[2]),
	      "holm: 0.005 0.01 0.03 0.04 -> 0.02 0.03 0.06 0.06, NAN not a test",
	      "%g %g %g %g", adj[4], adj[0], adj[3], adj[1]);
	check(run->primary[minst_find("clat_p50_ns")] &&
	      run->primary[minst_find("clat_p99_ns")] &&
	      run->primary[minst_find("cpu_busy_ns_per_io")] &&
	      !run->primary[minst_find("lat_p50_ns")] &&
	      !run->primary[minst_find("cpu_per_io_ns")] &&
	      !run->primary[minst_find("iops")] &&
	      !run->primary[minst_find("clat_p90_ns")],
	      "primary: clat and /proc/stat CPU stand in for lat and counted CPU",
	      "");
	if (!b || !c)
		return;
	for (i = 0; i < nr_minsts; i++) {
		if (!c->agg[i].n || !b->agg[i].n || minsts[i].m->agg == AGG_SUM)
			continue;
		compare(run, b, c, i, &cmp);
		if (minsts[i].m->better == BETTER_NONE) {
			bad += !isnan(cmp.p) || cmp.significant;
		} else if (run->primary[i]) {
			bad += !isnan(cmp.p_holm) ||
			       cmp.significant != (cmp.p < SIGNIFICANCE_ALPHA);
		} else {
			secondary++;
			bad += isnan(cmp.p_holm) || cmp.p_holm < cmp.p ||
			       cmp.significant !=
			       (cmp.p_holm < SIGNIFICANCE_ALPHA);
		}
	}
	check(!bad && secondary > 5 && run->nr_holm >= secondary,
	      "multiple: primary on p, secondary on Holm p, none untested",
	      "%u bad, %u secondary, %u Holm tests", bad, secondary,
	      run->nr_holm);
}

/*
 * ios_per_busy_cpu_sec: per rep 1e9 / cpu_per_io_ns of that rep (counted
 * time); the cell's value is their mean, not 1e9 over the mean per I/O.
 */
static void test_busy_rate(void)
{
	struct opts o = { .seed = DEFAULT_SEED, .resamples = 200 };
	int mb = minst_find("cpu_per_io_ns");
	int mr = minst_find("ios_per_busy_cpu_sec");
	double sum = 0, inv = 0;
	unsigned int i, bad = 0;
	struct run run;
	struct cell *c;

	if (run_load(&run, FIX "run-scale", "baseline")) {
		check(0, "rundir: run-scale loads", "");
		return;
	}
	run_aggregate(&run, &o);
	c = run_find(&run, "baseline", "randread-4k-r2-psync@alone@nullb-10us");
	for (i = 0; c && i < c->nr_reps; i++) {
		if (isnan(c->reps[i].val[mb]) ||
		    !close_to(c->reps[i].val[mr], 1e9 / c->reps[i].val[mb], 1e-12))
			bad++;
		sum += c->reps[i].val[mr];
		inv += c->reps[i].val[mb];
	}
	check(c && c->nr_reps == 4 && !bad &&
	      close_to(c->agg[mr].value, sum / 4, 1e-12) &&
	      !close_to(c->agg[mr].value, 1e9 / (inv / 4), 1e-9),
	      "rundir: ios_per_busy_cpu_sec is 1e9 / cpu_per_io_ns per rep, then the mean",
	      "%u bad, %.17g vs mean %.17g", bad, c ? c->agg[mr].value : NAN,
	      sum / 4);
	run_free(&run);
}

static void test_rundir(void)
{
	struct opts o = { .seed = DEFAULT_SEED, .resamples = 200 };
	struct run run;
	struct cell *c;
	int r, mi;

	metrics_init();
	r = run_load(&run, FIX "run-ok", "baseline");
	check(!r && run.nr_cells == 8 && run.nr_variants == 2 &&
	      !strcmp(run.variants[0], "baseline"),
	      "rundir: run-ok has 8 cells, baseline first", "r %d cells %u", r,
	      run.nr_cells);
	if (r)
		return;
	c = run_find(&run, "inline", "randread-4k-qd1-pvsync2@alone@nullb-5us");
	check(c && !strcmp(c->workload, "randread-4k-qd1-pvsync2") &&
	      !strcmp(c->condition, "alone") && !strcmp(c->device, "nullb-5us") &&
	      !strcmp(run.cells[0]->device, ""),
	      "rundir: <workload>@<condition>[@<device>] split", "%s",
	      c ? c->condition : "no cell");
	c = run_find(&run, "baseline", "randread-4k-qd1-psync@alone");
	check(c && c->nr_reps == 3 && c->reps[0].num == 1 && c->reps[2].num == 3,
	      "rundir: 4.tmp skipped, reps sorted", "%u reps", c ? c->nr_reps : 0);
	run_aggregate(&run, &o);
	mi = minst_find("clat_samples");
	check(c && c->agg[mi].value == c->merged.n &&
	      c->merged.n == c->reps[0].lat->n + c->reps[1].lat->n +
			     c->reps[2].lat->n,
	      "rundir: merged histogram holds every rep's samples", "");
	mi = minst_find("intr_nvme_per_io");
	/* rep 1: nvme interrupts after - before, over total_ios. */
	check(c && !isnan(c->reps[0].val[mi]) && c->reps[0].val[mi] > 0.5,
	      "rundir: nvme interrupts per I/O computed", "%g",
	      c ? c->reps[0].val[mi] : NAN);
	test_kprobe_delta(&run);
	test_busy_rate();
	mi = minst_find("clat_p99_ns");
	check(c && c->agg[mi].lo <= c->agg[mi].value &&
	      c->agg[mi].value <= c->agg[mi].hi * 1.0000001,
	      "rundir: p99 inside its CI", "");
	run_significance(&run, &o);
	test_compare(&run);
	test_multiple(&run);
	run_free(&run);

	r = run_load(&run, FIX "run-crashed", "baseline");
	check(!r && run.nr_cells == 1 && run.cells[0]->nr_reps == 1 &&
	      run.warn.n >= 1,
	      "rundir: crashed rep skipped with a warning", "r %d", r);
	run_free(&run);
	r = run_load(&run, FIX "run-crashed-only", "baseline");
	check(r != 0, "rundir: cell with no valid rep is an error", "");
	run_free(&run);
}

#define COND FIX "run-cond/baseline/"

static void test_cond_parsers(void)
{
	struct cyclic c, d, e;
	struct cpuhog h;
	int r;

	r = cpuhog_load(COND "randread-4k-qd1-psync@competitor/1/competitor.txt", &h);
	check(!r && h.units_per_sec == 51498.647 && h.cpu_share == 0.7040 &&
	      h.units == 154560 && h.wall_seconds == 3.001244,
	      "cond: real competitor.txt", "rate %g share %g", h.units_per_sec,
	      h.cpu_share);
	check(cpuhog_load(FIX "competitor-truncated.txt", &h) != 0,
	      "cond: competitor.txt without units_per_sec rejected", "");
	check(cpuhog_load(FIX "competitor-cutline.txt", &h) != 0,
	      "cond: competitor.txt cut mid-line rejected", "");
	/* 2000 buckets, "# Total: 4151", 136 overflows, min 42, max 13205. */
	r = cyclic_load(COND "randread-4k-qd1-psync@cyclictest/1/cyclictest.txt", &c);
	check(!r && c.range == 2000 && c.n == 4151 && c.overflows == 136 &&
	      c.min_us == 42 && c.max_us == 13205,
	      "cond: real cyclictest -h histogram and summary lines",
	      "range %u n %llu ovf %llu", c.range, (unsigned long long)c.n,
	      (unsigned long long)c.overflows);
	/*
	 * awk over the buckets: 2143.5 of 4287 samples reached at 188 us;
	 * 99% (4244.13) is beyond the 4151 in range: an overflow.
	 */
	check(!r && cyclic_percentile(&c, 50) == 188 &&
	      cyclic_percentile(&c, 99) == 2000,
	      "cond: cyclictest p50 188 us, p99 among the overflows", "p50 %g p99 %g",
	      cyclic_percentile(&c, 50), cyclic_percentile(&c, 99));
	r = cyclic_load(COND "randread-4k-qd1-iouring-hipri@cyclictest/1/cyclictest.txt", &d);
	check(!r && cyclic_percentile(&d, 50) == 171 &&
	      cyclic_percentile(&d, 99) == 1203,
	      "cond: cyclictest p50 171 us, p99 1203 us (awk)", "p50 %g p99 %g",
	      cyclic_percentile(&d, 50), cyclic_percentile(&d, 99));
	memset(&e, 0, sizeof(e));
	check(!cyclic_add(&e, &c) && !cyclic_add(&e, &d) &&
	      e.n == 4151 + 5545 && e.overflows == 136 + 35 &&
	      e.max_us == 13205 && e.min_us == 42,
	      "cond: cyclictest histograms merged", "n %llu",
	      (unsigned long long)e.n);
	cyclic_free(&e);
	/* A narrower histogram: the other's buckets >= 100 become overflows. */
	d.range = 100;
	d.overflows = 0;
	d.n = 0;
	for (r = 0; r < 100; r++)
		d.n += d.cnt[r];
	check(!cyclic_add(&e, &c) && !cyclic_add(&e, &d) && e.range == 100 &&
	      e.n + e.overflows == 4287 + d.n,
	      "cond: merge keeps the smaller range, rest are overflows",
	      "range %u", e.range);
	cyclic_free(&e);
	cyclic_free(&c);
	cyclic_free(&d);
	check(cyclic_load(FIX "cyclictest-empty.txt", &c) != 0,
	      "cond: empty cyclictest histogram rejected", "");
	check(cyclic_load(FIX "cyclictest-nohist.txt", &c) != 0,
	      "cond: cyclictest output without buckets rejected", "");
	check(cyclic_load(FIX "cyclictest-truncated.txt", &c) != 0,
	      "cond: cyclictest output cut before the summary rejected", "");
	/* 2 threads and --histofall: the last column is their sum. */
	r = cyclic_load(FIX "cyclictest-2threads.txt", &c);
	check(!r && c.range == 4 && c.n == 10 && c.overflows == 3 &&
	      c.cnt[1] == 5 && c.max_us == 90 && c.min_us == 1,
	      "cond: two threads with the all-threads column", "n %llu",
	      (unsigned long long)c.n);
	cyclic_free(&c);
	check(nullb_us("nullb-20us") == 20 && nullb_us("nullb-5us") == 5 &&
	      nullb_us("nvme") < 0 && nullb_us("nullb-20") < 0 &&
	      nullb_us("nullb-20usx") < 0,
	      "sweep: device names nullb-<N>us", "");
}

static double rep_val(const struct run *run, const char *cell,
		      unsigned int rep, const char *key)
{
	const struct cell *c = run_find(run, "baseline", cell);

	return c && rep < c->nr_reps ? c->reps[rep].val[minst_find(key)] : NAN;
}

static void test_run_cond(void)
{
	struct opts o = { .seed = DEFAULT_SEED, .resamples = 200 };
	struct fair_row *rows;
	struct cell *c;
	struct run run;
	unsigned int n;
	double v;
	int r;

	metrics_init();
	r = run_load(&run, FIX "run-cond", "baseline");
	/* iouring-hipri@alone@nullb-20us: lat min 9.09 us < 20 us, invalid. */
	check(!r && run.nr_cells == 10 && run.warn.n == 1 &&
	      run.nr_invalid == 1 &&
	      !strcmp(run.invalid[0]->name,
		      "randread-4k-qd1-iouring-hipri@alone@nullb-20us") &&
	      strstr(run.invalid[0]->invalid_reason,
		     "smallest latency 9.09 us (rep 1) is below the device's 20 us"),
	      "cond: run-cond loads, competitor-only cells without fio.json, polled nullb-20us cell invalid",
	      "r %d cells %u warnings %u", r, run.nr_cells, run.warn.n);
	if (r)
		return;
	c = run_find(&run, "baseline", "none@competitor-only");
	check(c && c->nr_reps == 2 && !c->reps[0].lat && c->merged.n == 0 &&
	      rep_val(&run, "none@competitor-only", 0,
		      "competitor_units_per_sec") == 120261.048,
	      "cond: none@competitor-only has the rate, no latency", "");
	/* Same boot (-a1) as none@competitor-only rep 2: 110932.001. */
	v = rep_val(&run, "randread-4k-qd1-psync@competitor", 0,
		    "competitor_loss_pct");
	check(close_to(v, (1 - 51498.647 / 110932.001) * 100, 1e-12),
	      "fair: competitor loss against the same boot's competitor-only",
	      "%.17g", v);
	/* The old per-workload competitor-only cell wins over none@. */
	v = rep_val(&run, "randread-4k-qd1-psync@competitor@nullb-20us", 0,
		    "competitor_loss_pct");
	check(close_to(v, (1 - 57317.293 / 115405.332) * 100, 1e-12),
	      "fair: <workload>@competitor-only@<device> used when present",
	      "%.17g", v);
	c = run_find(&run, "baseline", "randread-4k-qd1-psync@competitor");
	json_object_del(c->reps[0].meta, "boot_id");
	loss_link(&run);
	v = rep_val(&run, "randread-4k-qd1-psync@competitor", 0,
		    "competitor_loss_pct");
	check(close_to(v, (1 - 51498.647 / ((120261.048 + 110932.001) / 2)) * 100,
		       1e-12),
	      "fair: no same-boot rep: against the mean over reps", "%.17g", v);
	v = rep_val(&run, "randread-4k-qd1-psync@competitor", 0,
		    "competitor_cpu_share_pct");
	check(close_to(v, 70.40, 1e-12), "cond: competitor CPU share in %",
	      "%g", v);
	v = rep_val(&run, "randread-4k-qd1-psync@busy", 0, "busy_units_per_sec");
	check(close_to(v, 115796.527 + 65021.582, 1e-12),
	      "cond: busy rate summed over busy-cpu0.txt and busy-cpu1.txt",
	      "%.17g", v);
	v = rep_val(&run, "randread-4k-qd1-psync@cyclictest", 0,
		    "cyclictest_p50_us");
	check(v == 188 && rep_val(&run, "randread-4k-qd1-psync@cyclictest", 0,
				  "cyclictest_max_us") == 13205 &&
	      rep_val(&run, "randread-4k-qd1-psync@cyclictest", 0,
		      "cyclictest_samples") == 4287,
	      "cond: cyclictest metrics per rep", "p50 %g", v);
	run_aggregate(&run, &o);
	c = run_find(&run, "baseline", "randread-4k-qd1-psync@cyclictest");
	check(c && c->agg[minst_find("cyclictest_p99_us")].value == 2000 &&
	      c->agg[minst_find("cyclictest_overflows")].value == 136,
	      "cond: cell p99 at the range (overflow), overflows summed", "");
	n = fair_rows(&run, &o, &rows);
	check(n == 3 && rows[0].ref && rows[0].c &&
	      !strcmp(rows[0].c->workload, "randread-4k-qd1-iouring-hipri") &&
	      !strcmp(rows[0].ref->name, "randread-4k-qd1-psync@competitor") &&
	      close_to(rows[0].p50_gain_pct, (272384.0 - 5536) / 272384 * 100, 1e-12) &&
	      !strcmp(rows[2].c->device, "nullb-20us") &&
	      !strcmp(rows[2].ref->name, "randread-4k-qd1-psync@competitor@nullb-20us"),
	      "fair: trade-off rows, psync reference of the same rw and device",
	      "n %u", n);
	free(rows);
	o.fair_ref = "baseline/randread-4k-qd1-iouring-hipri";
	n = fair_rows(&run, &o, &rows);
	check(n == 3 && rows[1].ref &&
	      !strcmp(rows[1].ref->name, "randread-4k-qd1-iouring-hipri@competitor") &&
	      !rows[2].ref && isnan(rows[2].p50_gain_pct),
	      "fair: --fair-ref picks the reference, none where absent", "");
	free(rows);
	run_free(&run);
}

static void test_kv_delta(void)
{
	struct kv bv[] = { { "polls", 10 }, { "gauge", 5 } };
	struct kv av[] = { { "polls", 25 }, { "gauge", 1 }, { "new", 3 } };
	struct kvlist b = { bv, 2 }, a = { av, 3 }, d;
	const struct kv *k;
	int r;

	r = kv_delta(&b, "b", &a, "a", 1, "gauge", &d);
	check(!r && d.n == 2 && (k = kv_find(&d, "polls")) && k->v == 15 &&
	      (k = kv_find(&d, "new")) && k->v == 3 && !kv_find(&d, "gauge"),
	      "procstat: kv_delta is after - before, missing key as 0, gauge skipped",
	      "r %d n %u", r, d.n);
	kv_free(&d);
	r = kv_delta(&b, "b", &a, "a", 0, "gauge", &d);
	check(r == -1 && d.n == 0,
	      "procstat: kv_delta rejects a key missing from before", "r %d", r);
	r = kv_delta(&b, "b", &a, "a", 1, NULL, &d);
	check(r == -1 && d.n == 0,
	      "procstat: kv_delta rejects a counter that went backwards", "r %d",
	      r);
}

static void test_precision(void)
{
	struct aggval a = { .value = 100, .lo = 97, .hi = 103, .n = 8 };
	struct opts o = { .seed = DEFAULT_SEED, .resamples = 200 };
	struct prec_row *rows;
	struct run run;
	unsigned int n, i, bad = 0;
	int mi;

	check(close_to(precision_hw_pct(&a), 3.0, 1e-12),
	      "precision: half-width of [97, 103] around 100 is 3%", "%g",
	      precision_hw_pct(&a));
	a.n = 0;
	check(isnan(precision_hw_pct(&a)), "precision: no reps, no half-width",
	      "");
	/*
	 * t-based: s / value = hw sqrt(n) / t(0.975, n-1); the smallest m
	 * with t(0.975, m-1) (s / value) / sqrt(m) <= 3 %. (4, 6 %): s/v =
	 * 12 / 3.1824 = 3.771 %, t7/sqrt 8 = 0.836 > 0.796 >= t8/3 = 0.769:
	 * 9 (the 1/sqrt(n) rule said 16). (5, 4.5 %): 9 (was 12); (4,
	 * 10.97 %): s/v = 6.894 %, t21/sqrt 22 = 0.443 > 0.435 >= t22/sqrt
	 * 23 = 0.432: 23 (was 54). Met: n itself; one rep: unknown.
	 */
	check(precision_reps_needed(4, 6.0, 3.0) == 9 &&
	      precision_reps_needed(5, 4.5, 3.0) == 9 &&
	      precision_reps_needed(4, 10.97, 3.0) == 23 &&
	      precision_reps_needed(8, 3.0, 3.0) == 8 &&
	      precision_reps_needed(8, 2.0, 3.0) == 8 &&
	      precision_reps_needed(1, 9.0, 3.0) == 0 &&
	      precision_reps_needed(4, NAN, 3.0) == 0,
	      "precision: boots needed from the t half-width (9, 9, 23)",
	      "%u %u %u", precision_reps_needed(4, 6.0, 3.0),
	      precision_reps_needed(5, 4.5, 3.0),
	      precision_reps_needed(4, 10.97, 3.0));

	metrics_init();
	if (run_load(&run, FIX "run-ok", "baseline")) {
		check(0, "precision: run-ok loads", "");
		return;
	}
	run_aggregate(&run, &o);
	mi = minst_find("clat_p50_ns");
	n = precision_rows(&run, &rows);
	/* QD1 @alone cells of both variants, nvme and null_blk; not @busy. */
	check(n == 8, "precision: one row per QD1 @alone cell and variant",
	      "%u rows", n);
	for (i = 0; i < n; i++) {
		const struct aggval *g = &rows[i].c->agg[mi];
		double hw = (g->hi - g->lo) / 2 / g->value * 100;

		if (!close_to(rows[i].hw_pct, hw, 1e-12) ||
		    rows[i].met != (hw <= PRECISION_TARGET_PCT) ||
		    rows[i].n != g->n ||
		    (!rows[i].met && rows[i].need !=
		     precision_reps_needed(g->n, hw, 3)) ||
		    strcmp(rows[i].c->condition, "alone"))
			bad++;
	}
	check(n && !bad,
	      "precision: rows carry the p50 CI's half-width, target and boots needed",
	      "%u bad rows", bad);
	free(rows);
	run_free(&run);
}

static int timing_of(const char *js, struct timing *t)
{
	json_t *j = json_loads(js, 0, NULL);
	int r = timing_of_meta(j, "meta.json", t);

	json_decref(j);
	return r;
}

static void test_timing(void)
{
	struct timing t = { 0 }, u = { 0 };
	char buf[96];

	check(!timing_of("{\"timing\": \"icount\", \"icount_shift\": \"0\", \"accel\": \"tcg\"}", &t) &&
	      t.kind == TIMING_ICOUNT && t.shift == 0 &&
	      !strcmp(timing_label(&t, buf, sizeof(buf)),
		      "instruction-count time (1 instruction = 2^0 ns)"),
	      "timing: icount, shift \"0\"", "");
	check(!timing_of("{\"timing\": \"icount\", \"icount_shift\": 2}", &u) &&
	      u.shift == 2 && !timing_equal(&t, &u),
	      "timing: icount shifts differ", "");
	check(!timing_of("{\"timing\": \"realtime\", \"accel\": \"kvm\"}", &t) &&
	      t.kind == TIMING_VIRTUALISED &&
	      !timing_of("{\"timing\": \"virtualised\"}", &u) &&
	      timing_equal(&t, &u) &&
	      !strcmp(timing_label(&t, buf, sizeof(buf)),
		      "virtualised wall-clock time (KVM)"),
	      "timing: realtime on KVM = older virtualised", "");
	check(!timing_of("{\"timing\": \"realtime\", \"accel\": \"tcg\"}", &t) &&
	      t.kind == TIMING_EMULATED &&
	      !timing_of("{\"timing\": \"emulated\"}", &u) &&
	      timing_equal(&t, &u) &&
	      !strcmp(timing_label(&t, buf, sizeof(buf)),
		      "emulated wall-clock time (TCG)"),
	      "timing: realtime on TCG = older emulated", "");
	check(timing_of("{\"timing\": \"icount\"}", &t) &&
	      timing_of("{\"timing\": \"icount\", \"icount_shift\": \"x\"}", &t) &&
	      timing_of("{\"timing\": \"fast\"}", &t),
	      "timing: icount without a shift, bad shift, unknown timing refused",
	      "");
}

static void test_window(void)
{
	const char *d = FIX "run-window/baseline/randread-4k-qd1-psync@alone/1/";
	char b[256], a[256];
	struct window w;

	snprintf(b, sizeof(b), "%swindow-before.txt", d);
	snprintf(a, sizeof(a), "%swindow-after.txt", d);
	check(!window_delta(b, a, &w) && w.clock_ns == 12e6 &&
	      w.dev_ios == 600 && w.task_ns == 6e6 && w.idle_ns == 12e6 &&
	      w.ncpu == 2,
	      "window: deltas of clock, dev_ios, fio task and idle over 2 vCPUs",
	      "clock %g ios %g task %g idle %g ncpu %u", w.clock_ns,
	      w.dev_ios, w.task_ns, w.idle_ns, w.ncpu);
	check(window_delta(a, b, &w), "window: after before before is refused",
	      "");
}

/*
 * One boot, one vote on run-crossover (2 reps, every I/O of rep 1 in bin
 * A = 20096 ns, of rep 2 in bin B = 20608 ns): lat p50 and p99 are the
 * median of the per-rep values, (A + B) / 2 = 20352; pooled bins give
 * p50 A and p99 B. CI: s = (B - A) / sqrt 2, t(0.975, 1) s / sqrt 2 =
 * 12.7062 x 256 = 3252.8.
 */
static void test_primary(void)
{
	struct opts o = { .seed = DEFAULT_SEED, .resamples = 200 };
	const struct aggval *p50, *p99;
	const struct cell *c;
	struct run run;

	metrics_init();
	if (run_load(&run, FIX "run-crossover", "baseline")) {
		check(0, "primary: run-crossover loads", "");
		return;
	}
	run_aggregate(&run, &o);
	c = run_find(&run, "inline", "randread-4k-qd1-pvsync2-hipri@alone@nullb-10us");
	p50 = &c->agg[minst_find("lat_p50_ns")];
	p99 = &c->agg[minst_find("lat_p99_ns")];
	check(p50->value == 20352 && p99->value == 20352 &&
	      p50->pooled == 20096 && p99->pooled == 20608,
	      "primary: latency percentile = median of per-boot values; pooled kept apart",
	      "p50 %g (pooled %g) p99 %g (pooled %g)", p50->value, p50->pooled,
	      p99->value, p99->pooled);
	check(close_to(p50->hi - p50->value, 12.706204736174696 * 256, 1e-9) &&
	      close_to(p50->value - p50->lo, p50->hi - p50->value, 1e-12),
	      "primary: t-interval around the median of 2 boots", "[%g, %g]",
	      p50->lo, p50->hi);
	run_free(&run);
}

/*
 * A cyclictest histogram of range 100 us: n[i] samples in bucket b[i],
 * plus overflows; max_us as cyclictest's "# Max Latencies".
 */
static void cyc_make(struct cyclic *c, const unsigned int *b,
		     const unsigned int *n, unsigned int k,
		     unsigned int overflows, double max_us)
{
	unsigned int i;

	memset(c, 0, sizeof(*c));
	c->range = 100;
	c->cnt = calloc(c->range, sizeof(*c->cnt));
	for (i = 0; c->cnt && i < k; i++) {
		c->cnt[b[i]] += n[i];
		c->n += n[i];
	}
	c->overflows = overflows;
	c->min_us = b[0];
	c->max_us = max_us;
}

/* A cell of reps with cyclictest histograms only, as rep.c sets them. */
static void cyc_cell(struct cell *c, struct rep *reps, struct cyclic *h,
		     unsigned int n)
{
	unsigned int i, mi;

	memset(c, 0, sizeof(*c));
	c->variant = "v";
	c->name = "randread-4k-qd1-psync@cyclictest";
	c->reps = reps;
	c->nr_reps = n;
	for (i = 0; i < n; i++) {
		memset(&reps[i], 0, sizeof(reps[i]));
		reps[i].num = i + 1;
		reps[i].cyc = &h[i];
		for (mi = 0; mi < MAX_MINST; mi++)
			reps[i].val[mi] = NAN;
		reps[i].val[minst_find("cyclictest_p50_us")] =
			cyclic_percentile(&h[i], 50);
		reps[i].val[minst_find("cyclictest_p99_us")] =
			cyclic_percentile(&h[i], 99);
		reps[i].val[minst_find("cyclictest_max_us")] = h[i].max_us;
		cyclic_add(&c->cyc, &h[i]);
	}
}

/*
 * One boot, one vote for cyclictest. Boot 1: 95 wake-ups at 10 us, 5 at
 * 30 (p50 10, p99 30, max 35); boot 2: 95 at 12, 5 at 40 (12, 40, 48);
 * boot 3: 1000 at 20 (20, 20, 22). Medians over boots: p50 12, p99 30,
 * max 35. Pooled, boot 3's 1000 samples outvote the others: p50 and p99
 * 20 (cumulative 190 of 1200 below 20), max 48. CI: t-interval around
 * the median, half-width t(0.975, 2) s / sqrt 3, s of {10, 12, 20} =
 * sqrt 28. Overflows: a boot with 10 of 100 above the range has p99 =
 * range, a lower bound; beside one boot at 10 us the median 55 is one
 * too (pooled: 10 of 200 above the range, p99 among them, 100), beside
 * two boots at 10 us the median is 10 and is not.
 */
static void test_cyclic_median(void)
{
	static const unsigned int b1[] = { 10, 30 }, n1[] = { 95, 5 };
	static const unsigned int b2[] = { 12, 40 }, n2[] = { 95, 5 };
	static const unsigned int b3[] = { 20 }, n3[] = { 1000 };
	static const unsigned int b4[] = { 10 }, n4[] = { 90 }, n5[] = { 100 };
	static const double cens2[] = { 10, 100 }, cens3[] = { 10, 100, 10 };
	static const double cens3b[] = { 100, 10, 100 };
	struct opts o = { .seed = DEFAULT_SEED, .resamples = 200 };
	struct cyclic h[3];
	struct rep reps[3];
	struct cell c, *cp = &c;
	struct run run = { .cells = &cp, .nr_cells = 1 };
	const struct aggval *p50, *p99, *mx;
	double half;
	unsigned int i;

	metrics_init();
	cyc_make(&h[0], b1, n1, 2, 0, 35);
	cyc_make(&h[1], b2, n2, 2, 0, 48);
	cyc_make(&h[2], b3, n3, 1, 0, 22);
	cyc_cell(&c, reps, h, 3);
	run_aggregate(&run, &o);
	p50 = &c.agg[minst_find("cyclictest_p50_us")];
	p99 = &c.agg[minst_find("cyclictest_p99_us")];
	mx = &c.agg[minst_find("cyclictest_max_us")];
	check(p50->value == 12 && p99->value == 30 && mx->value == 35 &&
	      p50->n == 3 && !p50->lower && !p99->lower,
	      "cyclic: p50, p99 and max = median of per-boot values",
	      "p50 %g p99 %g max %g", p50->value, p99->value, mx->value);
	check(p50->pooled == 20 && p99->pooled == 20 && mx->pooled == 48,
	      "cyclic: pooled buckets (max over boots) kept apart",
	      "p50 %g p99 %g max %g", p50->pooled, p99->pooled, mx->pooled);
	half = t_quantile(0.975, 2) * sqrt(28) / sqrt(3);
	check(close_to(p50->hi - 12, half, 1e-9) &&
	      close_to(12 - p50->lo, half, 1e-9),
	      "cyclic: t-interval around the median of 3 boots", "[%g, %g]",
	      p50->lo, p50->hi);
	cyclic_free(&c.cyc);
	for (i = 0; i < 3; i++)
		cyclic_free(&h[i]);

	cyc_make(&h[0], b4, n4, 1, 10, 250);
	cyc_make(&h[1], b4, n5, 1, 0, 11);
	cyc_cell(&c, reps, h, 2);
	run_aggregate(&run, &o);
	p99 = &c.agg[minst_find("cyclictest_p99_us")];
	check(p99->value == 55 && p99->lower && p99->pooled == 100 &&
	      c.agg[minst_find("cyclictest_p50_us")].value == 10 &&
	      !c.agg[minst_find("cyclictest_p50_us")].lower,
	      "cyclic: median over one boot among the overflows is a lower bound",
	      "p99 %g lower %d pooled %g", p99->value, p99->lower, p99->pooled);
	check(cyc_median_censored(cens2, 2, 100) &&
	      !cyc_median_censored(cens3, 3, 100) &&
	      cyc_median_censored(cens3b, 3, 100) &&
	      !cyc_median_censored(cens2, 2, 0),
	      "cyclic: lower bound iff at least half the boots are", "");
	cyclic_free(&c.cyc);
	for (i = 0; i < 2; i++)
		cyclic_free(&h[i]);
}

static void test_crossover(void)
{
	static const int us[] = { 1, 2, 5, 10 };
	static const double g[] = { 40, 12, 9, -1 }, never[] = { 50, 40, 30, 20 };
	struct run run = { 0 };

	check(xo_first_below(us, g, 4, 10) == 5 && xo_first_below(us, g, 4, 0) == 10 &&
	      xo_first_below(us, never, 4, 10) == -1,
	      "crossover: first device latency below 10% and 0, none", "");
	run.timing.kind = TIMING_ICOUNT;
	run.timing.shift = 0;
	check(close_to(xo_core_us(&run, 30), 10, 1e-12),
	      "crossover: 30 us under icount shift 0 is 10 us at 3 instructions/ns", "");
	run.timing.shift = 1;
	check(close_to(xo_core_us(&run, 30), 5, 1e-12),
	      "crossover: shift 1 halves it again", "");
	run.timing.kind = TIMING_EMULATED;
	check(isnan(xo_core_us(&run, 30)),
	      "crossover: no core conversion outside icount", "");
}

#define BD FIX "run-breakdown/"
#define BD_PS "randread-4k-qd1-psync"
#define BD_HP "randread-4k-qd1-pvsync2-hipri"

/* I/O k of t has these steps (ns, exactly), adding up to its syscall. */
static void check_io(const struct trace *t, unsigned int k, const double *want,
		     enum trace_at at, const char *name)
{
	const struct trace_io *io = k < t->nr_io ? &t->io[k] : NULL;
	double sum = 0;
	unsigned int i, bad = TS_NR;

	for (i = 0; io && i < TS_NR; i++) {
		if (io->step[i] != want[i])
			bad = i;
		sum += io->step[i];
	}
	check(io && bad == TS_NR && io->at == at && sum == io->syscall_ns,
	      name, "I/O %u of %u: step %s is %g, want %g; at %d; sum %g syscall %g",
	      k, t->nr_io, bad < TS_NR ? trace_step_names[bad] : "-",
	      io && bad < TS_NR ? io->step[bad] : NAN,
	      bad < TS_NR ? want[bad] : NAN, io ? (int)io->at : -1, sum,
	      io ? io->syscall_ns : NAN);
}

static int load_bd(const char *cell_rep, struct trace *t)
{
	char *p;
	int r;

	if (asprintf(&p, BD "%s/trace.txt.gz", cell_rep) < 0)
		return -1;
	r = trace_load(p, 10000, t);
	free(p);
	return r;
}

/* The fixture traces (make-breakdown-fixture.sh), steps worked out by hand. */
static void test_trace_fixture(void)
{
	static const double irq0[] = { 2000, 10000, 500, 500, 1000, 2000 };
	static const double irq1[] = { 2000, 10000, 1500, 500, 1000, 2000 };
	static const double poll1[] = { 1500, 10000, 600, 0, 0, 1200 };
	static const double idle2[] = { 1500, 10000, 500, 400, 2400, 2000 };
	static const double comp0[] = { 2000, 10000, 500, 500, 7000, 2000 };
	static const double comp1[] = { 2000, 10000, 500, 500, 3000, 2000 };
	struct trace t;

	if (load_bd("baseline-nullb.traced/" BD_PS "@alone@nullb-10us/1", &t)) {
		check(0, "trace: fixture loads", "");
		return;
	}
	check(t.tick_ns == 1 && t.markers == 2 && t.nr_io == 3 && t.tasks == 1 &&
	      !t.no_request && !t.dropped && !t.lost && t.at[TA_ASLEEP] == 3,
	      "trace: interrupt-style trace: 3 I/Os of one task, 1 ns per tick",
	      "tick %g markers %u ios %u tasks %u", t.tick_ns, t.markers,
	      t.nr_io, t.tasks);
	check_io(&t, 0, irq0, TA_ASLEEP,
		 "trace: interrupt-style I/O: sleep, timer completes, wake-up, switch");
	check_io(&t, 1, irq1, TA_ASLEEP,
		 "trace: the pid of a <...> line is the task's");
	check(t.median[TS_FIND] == 500 && close_to(t.mean[TS_FIND], 2500.0 / 3, 1e-12) &&
	      t.syscall_median == 16000 && close_to(t.syscall_mean, 49000.0 / 3, 1e-12),
	      "trace: per-rep median and mean over I/Os", "find %g/%g syscall %g/%g",
	      t.median[TS_FIND], t.mean[TS_FIND], t.syscall_median, t.syscall_mean);
	trace_free(&t);
	if (!load_bd("inline.traced/" BD_HP "@alone@nullb-10us/1", &t)) {
		check_io(&t, 1, poll1, TA_ONCPU,
			 "trace: inline-style I/O: polled in its own context, no switch");
		trace_free(&t);
	}
	if (!load_bd("idle.traced/" BD_HP "@alone@nullb-10us/1", &t)) {
		check(t.tick_ns == 0.5, "trace: 2 ticks per ns from the markers",
		      "%g", t.tick_ns);
		check_io(&t, 2, idle2, TA_ASLEEP,
			 "trace: idle-style I/O: <idle>-0 completes and wakes, ticks scaled");
		trace_free(&t);
	}
	if (!load_bd("baseline-nullb.traced/" BD_PS "@competitor@nullb-10us/1", &t)) {
		check_io(&t, 0, comp0, TA_ASLEEP,
			 "trace: beside a competitor: woken, waits 7 us in the run queue");
		check_io(&t, 1, comp1, TA_ASLEEP,
			 "trace: beside a competitor: 3 us in the run queue");
		trace_free(&t);
	}
}

static int parse_str(const char *text, double dev_ns, struct trace *t)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int r;

	if (!f)
		return -1;
	r = trace_parse(f, "(string)", dev_ns, t);
	fclose(f);
	return r;
}

#define MARK0 "sh-9 [001] ..... 0: tracing_mark_write: pb_clock 1000\n"
#define MARK1 "sh-9 [001] ..... 100000: tracing_mark_write: pb_clock 101000\n"
#define ENTER(ts) "fio-301 [001] ..... " #ts ": sys_enter: NR 327 (3, 0, 1, 0, 0, 1)\n"
#define EXIT(ts) "fio-301 [001] ..... " #ts ": sys_exit: NR 327 = 4096\n"
#define ISSUE(ctx, ts) ctx " [001] ..... " #ts ": block_rq_issue: 251,0 R 4096 () 64 + 8 none,0,0 [fio]\n"
#define DONE(ctx, ts) ctx " [001] d.h1. " #ts ": block_rq_complete: 251,0 R () 64 + 8 none,0,0 [0]\n"
#define SW(ts, pc, pp, st, nc, np) "x-" #pp " [001] d..2. " #ts ": sched_switch: prev_comm=" pc " prev_pid=" #pp " prev_prio=120 prev_state=" st " ==> next_comm=" nc " next_pid=" #np " next_prio=120\n"
#define WAKE(ctx, ts) ctx " [001] d.h2. " #ts ": sched_wakeup: comm=fio pid=301 prio=120 target_cpu=001\n"

/* Hand-written traces: the cases the fixture runs do not have. */
static void test_trace_cases(void)
{
	/* Preempted (prev_state R+), completed by an interrupt meanwhile. */
	static const char preempt[] = MARK0 ENTER(1000) ISSUE("fio-301", 2000)
		SW(3000, "fio", 301, "R+", "cpuhog", 250)
		DONE("cpuhog-250", 12500) SW(15000, "cpuhog", 250, "R", "fio", 301)
		EXIT(16000) MARK1;
	static const double want_pre[] = { 1000, 10000, 500, 0, 2500, 1000 };
	/* Asleep, woken by its timer before the completion (hybrid). */
	static const char early[] = MARK0 ENTER(1000) ISSUE("fio-301", 2000)
		SW(2500, "fio", 301, "D", "swapper/1", 0)
		WAKE("<idle>-0", 9000) DONE("<idle>-0", 12200)
		SW(13000, "swapper/1", 0, "R", "fio", 301) EXIT(14000) MARK1;
	static const double want_early[] = { 1000, 10000, 200, 0, 800, 1000 };
	/* Completed before issue + D, issued from a kworker. */
	static const char neg[] = MARK0 ENTER(1000)
		ISSUE("kworker/1:1H-40", 2000) DONE("fio-301", 11000) EXIT(11500)
		"cat-77 [000] ..... 12000: sys_enter: NR 17 (3, 0, 1, 0)\n"
		"cat-77 [000] ..... 12100: sys_exit: NR 17 = 1\n"
		ENTER(20000) EXIT(20100) MARK1;
	static const double want_neg[] = { 1000, 10000, -1000, 0, 0, 500 };
	static const char lost[] = MARK0 "CPU:1 [LOST 12 EVENTS]\n" ENTER(1000)
		ISSUE("fio-301", 2000) DONE("fio-301", 12100) EXIT(13000) MARK1;
	static const char nomark[] = ENTER(1000) ISSUE("fio-301", 2000)
		DONE("fio-301", 12100) EXIT(13000);
	static const char broken[] = MARK0 ENTER(1000)
		"fio-301 [001] ..... 1500: block_rq_issue: garbage\n";
	struct trace t;

	if (!parse_str(preempt, 10000, &t)) {
		check_io(&t, 0, want_pre, TA_RUNNABLE,
			 "trace: preempted while runnable: no wake-up, run queue from the completion");
		trace_free(&t);
	}
	if (!parse_str(early, 10000, &t)) {
		check_io(&t, 0, want_early, TA_RUNNABLE,
			 "trace: woken before its completion: runnable, no wake step");
		trace_free(&t);
	}
	if (!parse_str(neg, 10000, &t)) {
		check_io(&t, 0, want_neg, TA_ONCPU,
			 "trace: a kworker's issue is the waiting task's; find < 0 kept");
		check(t.neg_find == 1 && t.no_request == 1 && t.tasks == 1,
		      "trace: negative find counted; only the I/O task's call without a request counts",
		      "neg %u no_request %u tasks %u", t.neg_find, t.no_request,
		      t.tasks);
		trace_free(&t);
	}
	if (!parse_str(lost, 10000, &t)) {
		check(t.lost == 12 && t.nr_io == 1, "trace: [LOST n EVENTS] counted",
		      "lost %u", t.lost);
		trace_free(&t);
	}
	if (!parse_str(nomark, 10000, &t)) {
		check(t.markers == 0 && isnan(t.tick_ns) && t.nr_io == 1 &&
		      isnan(t.median[TS_SUBMIT]) && isnan(t.syscall_mean),
		      "trace: without markers no scale and no steps", "tick %g",
		      t.tick_ns);
		trace_free(&t);
	}
	check(parse_str(broken, 10000, &t) == -1,
	      "trace: an unreadable block_rq_issue is an error", "");
}

/*
 * Lines as a 6.12 guest wrote them (inline kernel, psync on nullb-10us
 * and pvsync2 hipri, icount): the first I/O of each trace verbatim,
 * between markers made 1 ns per tick.
 */
static void test_trace_real(void)
{
	static const char psync[] =
		"             awk-159     [001] .....   7681000000: tracing_mark_write: pb_clock 6408000000\n"
		"        cpuclock-141     [001] dN...   7681003038: sched_wakeup: comm=fio pid=140 prio=120 target_cpu=001\n"
		"        cpuclock-141     [001] d....   7681005464: sched_switch: prev_comm=cpuclock prev_pid=141 prev_prio=120 prev_state=Z ==> next_comm=fio next_pid=140 next_prio=120\n"
		"             fio-140     [001] .....   7681088968: sys_enter: NR 17 (7, 55625f10c000, 1000, 3dc2000, 0, 7f0c5d608090)\n"
		"             fio-140     [001] .....   7681098791: block_rq_issue: 253,0 RS 4096 () 126480 + 8 be,0,4 [fio]\n"
		"             fio-140     [001] d....   7681103195: sched_switch: prev_comm=fio prev_pid=140 prev_prio=120 prev_state=D ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
		"          <idle>-0       [001] d.h..   7681110179: hrtimer_expire_entry: hrtimer=00000000bc652c94 function=null_cmd_timer_expired now=6412736465\n"
		"          <idle>-0       [001] d.h..   7681110789: block_rq_complete: 253,0 RS () 126480 + 8 be,0,4 [0]\n"
		"          <idle>-0       [001] dNh..   7681112723: sched_wakeup: comm=fio pid=140 prio=120 target_cpu=001\n"
		"          <idle>-0       [001] d....   7681115067: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=fio next_pid=140 next_prio=120\n"
		"             fio-140     [001] .....   7681116719: sys_exit: NR 17 = 4096\n"
		"             awk-160     [001] .....   7682000000: tracing_mark_write: pb_clock 6409000000\n";
	static const char hipri[] =
		"             awk-98      [001] .....   4472000000: tracing_mark_write: pb_clock 3200000000\n"
		"             fio-75      [001] .....   4472260582: sys_enter: NR 327 (7, 55987b334ea0, 1, 3dc2000, 0, 1)\n"
		"             fio-75      [001] .....   4472270559: block_rq_issue: 253,0 RS 4096 () 126480 + 8 be,0,4 [fio]\n"
		"             fio-75      [001] .....   4472281508: block_rq_complete: 253,0 RS () 126480 + 8 be,0,4 [0]\n"
		"             fio-75      [001] .....   4472283425: sys_exit: NR 327 = 4096\n"
		"             awk-99      [001] .....   4473000000: tracing_mark_write: pb_clock 3201000000\n";
	static const double want_ps[] = { 9823, 10000, 1998, 1934, 2344, 1652 };
	static const double want_hp[] = { 9977, 10000, 949, 0, 0, 1917 };
	struct trace t;

	if (!parse_str(psync, 10000, &t)) {
		check_io(&t, 0, want_ps, TA_ASLEEP,
			 "trace: a real 6.12 psync I/O: sleep, null_blk's timer, wake-up, switch");
		trace_free(&t);
	}
	if (!parse_str(hipri, 10000, &t)) {
		check_io(&t, 0, want_hp, TA_ONCPU,
			 "trace: a real 6.12 pvsync2 hipri I/O on the inline kernel: polled");
		trace_free(&t);
	}
}

/* One boot, one vote over the fixture's cells; tracing's cost. */
static void test_breakdown(void)
{
	struct opts o = { .seed = DEFAULT_SEED, .resamples = 200 };
	const struct cell *c;
	struct bd_cell b;
	struct run run;

	metrics_init();
	if (run_load(&run, BD, "baseline-nullb")) {
		check(0, "breakdown: run-breakdown loads", "");
		return;
	}
	run_aggregate(&run, &o);
	c = run_find(&run, "baseline-nullb.traced", BD_PS "@alone@nullb-10us");
	check(c && bd_traced(&run, c) &&
	      !bd_traced(&run, run_find(&run, "baseline-nullb", BD_PS "@alone@nullb-10us")) &&
	      !strcmp(bd_untraced_label(&run, "idle.traced"), "idle"),
	      "breakdown: traced cells, and the untraced label of the same settings", "");
	if (!c) {
		run_free(&run);
		return;
	}
	bd_cell(&run, c, &b);
	/* Reps: submit 2000 and 2200; find medians 500, 700 (means 833.3, 700). */
	check(b.status == BD_OK && b.reps == 2 && b.ios == 6 &&
	      !strcmp(b.design, "baseline-nullb") && b.median[TS_SUBMIT] == 2100 &&
	      b.median[TS_FIND] == 600 &&
	      close_to(b.mean[TS_FIND], (2500.0 / 3 + 700) / 2, 1e-12) &&
	      b.median_sum == 16200 &&
	      close_to(b.syscall_mean, (49000.0 / 3 + 16400) / 2, 1e-12),
	      "breakdown: medians over boots of each boot's median and mean",
	      "status %d submit %g find %g/%g sum %g", b.status,
	      b.median[TS_SUBMIT], b.median[TS_FIND], b.mean[TS_FIND],
	      b.median_sum);
	/* fio: rep 1 bins 2 x 16512 + 17536, rep 2 3 x 16768. */
	check(b.fio_p50 == 16640 && close_to(b.fio_mean, (50560.0 / 3 + 16768) / 2, 1e-12) &&
	      close_to(b.coverage_pct, (49000.0 / 50560 + 16400.0 / 16768) * 50, 1e-12) &&
	      close_to(b.outside, (520 + 368) / 2.0, 1e-9) &&
	      b.partial && isnan(b.user) && isnan(b.edge) &&
	      b.syscall_coverage_pct == b.coverage_pct &&
	      close_to(b.p50_coverage_pct, 16200.0 / 16640 * 100, 1e-12),
	      "breakdown: coverage of fio's mean and p50 per boot; without fio-null.json and syscall-edge.txt the system call's alone",
	      "cov %g outside %g partial %d", b.coverage_pct, b.outside,
	      b.partial);
	check(b.untraced && b.p50_untraced == 15936 && b.cost_p50_ns == 704 &&
	      close_to(b.cost_p50_pct, 70400.0 / 15936, 1e-12),
	      "breakdown: tracing's cost against the untraced label", "%g",
	      b.cost_p50_ns);
	run_free(&run);
}

/*
 * mdtab_print_split(): a name column and 3 groups of 2 columns, each
 * group 2 x (4 + 3) = 14 wide, the name column 1 + 4 + 3 = 8: 36 holds
 * two groups, 35 one; every table repeats the name column.
 */
static void test_mdtab_split(void)
{
	static const char want2[] =
		"| name |   a1 |   a2 |   b1 |   b2 |\n"
		"|:---- | ----:| ----:| ----:| ----:|\n"
		"| x    | 1111 | 2222 | 3333 | 4444 |\n"
		"\n"
		"| name |   c1 |   c2 |\n"
		"|:---- | ----:| ----:|\n"
		"| x    | 5555 | 6666 |\n";
	struct mdtab t;
	char *buf = NULL;
	size_t len = 0, k;
	FILE *f;
	int lines = 0;

	mdtab_init(&t, 7);
	mdtab_add(&t, 0, "name");
	for (k = 0; k < 6; k++)
		mdtab_add(&t, k + 1, "%c%zu", (int)('a' + k / 2), k % 2 + 1);
	mdtab_add(&t, 0, "x");
	for (k = 0; k < 6; k++)
		mdtab_add(&t, k + 1, "%zu%zu%zu%zu", k + 1, k + 1, k + 1, k + 1);
	f = open_memstream(&buf, &len);
	mdtab_print_split(f, &t, 1, 2, 36);
	fclose(f);
	check(buf && !strcmp(buf, want2),
	      "mdtab: split keeps groups together, as many as fit in 36 columns",
	      "\n%s", buf);
	free(buf);
	f = open_memstream(&buf, &len);
	mdtab_print_split(f, &t, 1, 2, 35);
	fclose(f);
	for (k = 0; buf && k < len; k++)
		lines += buf[k] == '\n';
	check(lines == 3 * 3 + 2, "mdtab: one group a table when two do not fit",
	      "%d lines", lines);
	free(buf);
	mdtab_free(&t);
}

/* Scale workloads: <rw>-<bs>-r<N>[<suffix>]-<engine>, on run-scale/. */
static void test_scale(void)
{
	static const char *const bad[] = {
		"randread-4k-qd1-psync", "randread-4k-r0-psync",
		"randread-4k-r-psync", "randread-4k-r8", "randread-4k-r8-",
		"randread-4k-r8PIN-psync", "randread-4k-r8x1-psync",
	};
	struct opts o = { .seed = DEFAULT_SEED, .resamples = 200 };
	struct scale_group *g;
	struct scale_below b;
	struct scale_wl w;
	struct run run;
	unsigned int i, n, nbad = 0;
	const struct cell *inl = NULL, *idl = NULL;
	char s[512];

	check(!scale_parse("randread-4k-r8-psync", &w) &&
	      !strcmp(w.prefix, "randread-4k") && w.readers == 8 &&
	      !strcmp(w.suffix, "") && !strcmp(w.engine, "psync") &&
	      !scale_parse("randread-4k-r16pin-pvsync2-hipri", &w) &&
	      w.readers == 16 && !strcmp(w.suffix, "pin") &&
	      !strcmp(w.engine, "pvsync2-hipri") &&
	      !scale_parse("randread-4k-r8think-pvsync2-hipri", &w) &&
	      !strcmp(w.suffix, "think"),
	      "scale: r<N>, r<N>pin, r<N>think workloads parsed", "");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!scale_parse(bad[i], &w))
			nbad++;
	check(!nbad, "scale: qd1, r0, r, no engine, capitals are not scale workloads",
	      "%u accepted", nbad);

	metrics_init();
	if (run_load(&run, FIX "run-scale", "baseline")) {
		check(0, "scale: run-scale loads", "");
		return;
	}
	run_aggregate(&run, &o);
	run_significance(&run, &o);
	n = scale_groups(&run, &g);
	check(n == 2 && g[0].nr_readers == 4 && g[0].readers[0] == 1 &&
	      g[0].readers[3] == 8 && g[0].nr_designs == 4 &&
	      !strcmp(g[1].wl.suffix, "pin") && g[1].nr_readers == 2 &&
	      scale_vcpus(&run) == 2,
	      "scale: run-scale has 2 tables (readers 1-8, 4 designs; pin 2 and 4), 2 vCPUs",
	      "%u", n);
	for (i = 0; n && i < g[0].nr_designs; i++) {
		if (!strcmp(g[0].designs[i]->variant, "inline"))
			inl = g[0].designs[i];
		if (!strcmp(g[0].designs[i]->variant, "idle"))
			idl = g[0].designs[i];
	}
	if (inl && idl) {
		scale_below(&run, &g[0], inl, &b);
		check(b.readers == 4 && b.iops == 30075 && b.ref_iops == 36060 &&
		      b.cmp.exact && close_to(b.cmp.p, 2.0 / 70, 1e-12) &&
		      !isnan(b.cmp.p_holm) && b.cmp.p_holm >= b.cmp.p &&
		      b.cmp.significant == (b.cmp.p_holm < SIGNIFICANCE_ALPHA),
		      "scale: inline below interrupts from N = 4 (30075 < 36060), exact p 2/70, Holm-adjusted",
		      "N %d iops %g ref %g p %g holm %g", b.readers, b.iops,
		      b.ref_iops, b.cmp.p, b.cmp.p_holm);
		scale_below(&run, &g[0], idl, &b);
		check(b.readers == -1 && isnan(b.cmp.p),
		      "scale: idle never below interrupts", "N %d", b.readers);
	}
	b.readers = 8;
	b.iops = 90;
	b.ref_iops = 100;
	b.reps = b.ref_reps = 5;
	b.cmp.p = 2.0 / 252;
	b.cmp.exact = 1;
	b.cmp.p_holm = 0.03;
	b.cmp.significant = 1;
	scale_below_str(&run, &b, s, sizeof(s));
	check(strstr(s, "from N = 8: 90 vs 100 IOPS (-10.00%); Mann-Whitney p = 0.00794, Holm p = 0.03 over the report's") &&
	      strstr(s, "secondary tests: significant"),
	      "scale: a Holm-significant drop is called significant", "%s", s);
	scale_groups_free(g, n);
	run_free(&run);
}

/* --compare's arithmetic and its reading of summary.json fields. */
static void test_runcmp(void)
{
	static const char *const keys[] = {
		"unknown", "icount", "emulated", "virtualised",
	};
	json_t *p, *q, *arr, *blank, *none;
	struct timing t;
	unsigned int i, ok = 1;

	for (i = 0; i < 4; i++)
		ok &= !timing_of_key(keys[i], 3, &t) &&
		      !strcmp(timing_key(&t), keys[i]) &&
		      t.shift == (t.kind == TIMING_ICOUNT ? 3 : 0);
	check(ok && timing_of_key("realtime", 0, &t) &&
	      timing_of_key(NULL, 0, &t) && t.kind == TIMING_UNKNOWN,
	      "runcmp: timing_of_key() inverts timing_key(), refuses others",
	      "");
	check(close_to(rc_change_pct(14656, 14720), 64.0 / 14656 * 100, 1e-12) &&
	      rc_change_pct(200, 100) == -50 && rc_change_pct(-200, -100) == 50 &&
	      isnan(rc_change_pct(0, 1)) && isnan(rc_change_pct(NAN, 1)) &&
	      isnan(rc_change_pct(1, NAN)),
	      "runcmp: change (B - A) / |A|, none from 0 or a missing side",
	      "%g", rc_change_pct(200, 100));
	check(rc_disjoint(1, 2, 3, 4) == 1 && rc_disjoint(3, 4, 1, 2) == 1 &&
	      rc_disjoint(1, 2, 2, 3) == 0 && rc_disjoint(1, 4, 2, 3) == 0 &&
	      rc_disjoint(5, 5, 5, 5) == 0 && rc_disjoint(5, 5, 6, 6) == 1 &&
	      rc_disjoint(1, NAN, 3, 4) == -1 && rc_disjoint(1, 2, NAN, 4) == -1,
	      "runcmp: intervals disjoint, touching ones overlap, missing -1",
	      "");
	arr = json_string("0001-a.patch 0002-b.patch  0001-c.patch ");
	p = rc_patches(arr);
	json_decref(arr);
	arr = json_pack("[s, s]", "0001-a.patch", "0002-b.patch");
	q = rc_patches(arr);
	json_decref(arr);
	arr = json_string(" ");
	blank = rc_patches(arr);
	none = rc_patches(NULL);
	check(json_array_size(p) == 3 &&
	      !strcmp(json_string_value(json_array_get(p, 2)), "0001-c.patch") &&
	      json_array_size(q) == 2 && !json_array_size(blank) &&
	      !json_array_size(none),
	      "runcmp: series as a string of names or a list, blank none",
	      "%zu names", json_array_size(p));
	json_decref(p);
	json_decref(q);
	json_decref(arr);
	json_decref(blank);
	json_decref(none);
}

int main(void)
{
	test_bins();
	test_percentiles();
	test_fio();
	test_readers();
	test_procstat();
	test_stats();
	test_metrics();
	test_engine_family();
	test_rundir();
	test_cond_parsers();
	test_run_cond();
	test_kv_delta();
	test_precision();
	test_timing();
	test_window();
	test_crossover();
	test_primary();
	test_cyclic_median();
	test_trace_fixture();
	test_trace_cases();
	test_trace_real();
	test_breakdown();
	test_mdtab_split();
	test_scale();
	test_runcmp();
	return failed ? 1 : 0;
}
