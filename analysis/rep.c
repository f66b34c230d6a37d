// SPDX-License-Identifier: GPL-2.0
/*
 * Load one rep dir and compute its per-rep metric values. fio.json and
 * meta.json are required (missing: the rep is skipped with a warning),
 * except in competitor-only cells, which have competitor.txt instead of
 * fio.json; the other captures are optional, but a capture that is
 * present and broken is an error, as is a before/after pair with only
 * one half.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cond.h"
#include "device.h"
#include "fio.h"
#include "jain.h"
#include "model.h"
#include "procstat.h"
#include "window.h"

static void set(struct rep *rep, const char *key, double v)
{
	int i = minst_find(key);

	if (i < 0) {
		fprintf(stderr, "BUG: metric %s not declared in metrics.c\n",
			key);
		abort();
	}
	rep->val[i] = v;
}

static int set_family(struct rep *rep, const char *family, const char *name,
		      double v)
{
	int i = minst_family(family, name);

	if (i < 0) {
		fprintf(stderr, "%s: too many metrics (max %d)\n", rep->dir,
			MAX_MINST);
		return -1;
	}
	rep->val[i] = v;
	return 0;
}

static char *rpath(const struct rep *rep, const char *file)
{
	char *p;

	if (asprintf(&p, "%s/%s", rep->dir, file) < 0) {
		perror("asprintf");
		exit(1);
	}
	return p;
}

static int exists(const struct rep *rep, const char *file)
{
	char *p = rpath(rep, file);
	int r = !access(p, F_OK);

	free(p);
	return r;
}

/*
 * A before/after capture pair: 0 both halves present (*pb and *pa set,
 * caller frees); 1 neither (metric absent); -1 only one of them, which
 * means the capture broke.
 */
static int pair(const struct rep *rep, const char *before, const char *after,
		char **pb, char **pa)
{
	int b = exists(rep, before), a = exists(rep, after);

	*pb = *pa = NULL;
	if (a && b) {
		*pb = rpath(rep, before);
		*pa = rpath(rep, after);
		return 0;
	}
	if (!a && !b)
		return 1;
	fprintf(stderr, "%s: has %s but not %s\n", rep->dir,
		b ? before : after, b ? after : before);
	return -1;
}

/*
 * The per-key change of a "key value" capture over the cell, loaded with
 * load from before (optional when missing_is_zero: then it counts as 0)
 * and after. 1: no capture; 0: *d filled; -1: broken (message printed).
 */
static int kv_pair_delta(struct rep *rep, const char *before,
			 const char *after,
			 int (*load)(const char *, struct kvlist *),
			 int missing_is_zero, const char *skip,
			 struct kvlist *d)
{
	struct kvlist b = { 0 }, a = { 0 };
	char *pb, *pa;
	int r;

	if (missing_is_zero && exists(rep, after) && !exists(rep, before)) {
		pa = rpath(rep, after);
		pb = NULL;
		r = 0;
	} else {
		r = pair(rep, before, after, &pb, &pa);
		if (r)
			return r;
	}
	if ((pb && load(pb, &b)) || load(pa, &a) ||
	    kv_delta(&b, pb ? pb : "(none)", &a, pa, missing_is_zero, skip, d))
		r = -1;
	kv_free(&a);
	kv_free(&b);
	free(pb);
	free(pa);
	return r;
}

static int cpu_metrics(struct rep *rep, double ios)
{
	struct cpustat b, a;
	char *pb, *pa;
	double d[CPU_NR_FIELDS], total = 0, busy;
	int i, r = pair(rep, "stat-before.txt", "stat-after.txt", &pb, &pa);

	if (r)
		return r < 0 ? -1 : 0;
	r = cpustat_load(pb, &b) || cpustat_load(pa, &a);
	for (i = 0; !r && i < CPU_NR_FIELDS; i++) {
		if (a.f[i] < b.f[i]) {
			fprintf(stderr, "%s: cpu field %d went backwards\n",
				pa, i + 1);
			r = -1;
		}
		d[i] = (double)(a.f[i] - b.f[i]);
		total += d[i];
	}
	free(pb);
	free(pa);
	if (r)
		return -1;
	if (total <= 0)
		return 0;	/* too short to tick: leave absent */
	busy = total - d[CPU_IDLE] - d[CPU_IOWAIT];
	set(rep, "cpu_busy_ns_per_io", busy * (1e9 / USER_HZ) / ios);
	set(rep, "cpu_user_pct", (d[CPU_USER] + d[CPU_NICE]) / total * 100);
	set(rep, "cpu_system_pct", d[CPU_SYSTEM] / total * 100);
	set(rep, "cpu_idle_pct", (d[CPU_IDLE] + d[CPU_IOWAIT]) / total * 100);
	set(rep, "cpu_irq_pct", d[CPU_IRQ] / total * 100);
	set(rep, "cpu_softirq_pct", d[CPU_SOFTIRQ] / total * 100);
	return 0;
}

static int irq_metrics(struct rep *rep, double ios)
{
	struct irqsum b, a;
	char *pb, *pa;
	int r = pair(rep, "interrupts-before.txt", "interrupts-after.txt",
		     &pb, &pa);

	if (r)
		return r < 0 ? -1 : 0;
	r = interrupts_load(pb, &b) || interrupts_load(pa, &a);
	if (!r && (a.nvme < b.nvme || a.all < b.all)) {
		fprintf(stderr, "%s: interrupt counts went backwards\n", pa);
		r = -1;
	}
	free(pb);
	free(pa);
	if (r)
		return -1;
	set(rep, "intr_nvme_per_io", (double)(a.nvme - b.nvme) / ios);
	set(rep, "intr_all_per_io", (double)(a.all - b.all) / ios);
	return 0;
}

/*
 * kprobes.txt is kprobe_profile after the job; with kprobes-before.txt
 * (guest/cell.sh writes both) the hits are the difference.
 */
static int kprobe_metrics(struct rep *rep, double ios)
{
	struct kvlist d;
	unsigned int i;
	int r = kv_pair_delta(rep, "kprobes-before.txt", "kprobes.txt",
			      kprobes_load, 1, NULL, &d);

	if (r)
		return r < 0 ? -1 : 0;
	for (i = 0; !r && i < d.n; i++)
		r = set_family(rep, "kprobe_%s_per_io", d.v[i].name,
			       d.v[i].v / ios);
	kv_free(&d);
	return r;
}

/* perf stat spans fio's whole process, not the window: per fio I/O. */
static int perf_metrics(struct rep *rep, uint64_t ios)
{
	struct kvlist l;
	unsigned int i;
	char *p;
	int r = 0;

	if (!exists(rep, "perf-stat.txt"))
		return 0;
	p = rpath(rep, "perf-stat.txt");
	if (perfstat_load(p, &l))
		r = -1;
	for (i = 0; !r && i < l.n; i++) {
		if (!strcmp(l.v[i].name, "context-switches") ||
		    !strcmp(l.v[i].name, "cs"))
			set(rep, "perf_ctx_per_io", l.v[i].v / ios);
		else
			r = set_family(rep, "perf_%s_per_io", l.v[i].name,
				       l.v[i].v / ios);
	}
	kv_free(&l);
	free(p);
	return r;
}

/* *idle_poll_ns: the idle_poll_ns counter's change, NAN without it. */
static int poll_metrics(struct rep *rep, double ios, double *idle_poll_ns)
{
	struct kvlist d;
	unsigned int i;
	/* polled_inflight is a gauge, not a counter: its delta means nothing. */
	int r = kv_pair_delta(rep, "poll-stats-before.txt",
			      "poll-stats-after.txt", pollstats_load, 0,
			      "polled_inflight", &d);

	*idle_poll_ns = NAN;
	if (r)
		return r < 0 ? -1 : 0;
	if (kv_find(&d, "idle_poll_ns"))
		*idle_poll_ns = kv_find(&d, "idle_poll_ns")->v;
	for (i = 0; !r && i < d.n; i++)
		r = set_family(rep, "poll_%s_per_io", d.v[i].name,
			       d.v[i].v / ios);
	kv_free(&d);
	return r;
}

static int cpuhog_file(struct rep *rep, const char *file, struct cpuhog *h)
{
	char *p = rpath(rep, file);
	int r = cpuhog_load(p, h);

	free(p);
	return r;
}

/* busy-cpu<N>.txt: one cpuhog per CPU; their rates are summed. */
static int busy_metrics(struct rep *rep)
{
	struct cpuhog h;
	struct dirent *de;
	double sum = 0;
	int n = 0, r = 0;
	DIR *d = opendir(rep->dir);

	if (!d) {
		fprintf(stderr, "%s: %s\n", rep->dir, strerror(errno));
		return -1;
	}
	while (!r && (de = readdir(d))) {
		unsigned int cpu;
		int end = 0;

		if (sscanf(de->d_name, "busy-cpu%u.txt%n", &cpu, &end) != 1 ||
		    de->d_name[end] || !end)
			continue;
		r = cpuhog_file(rep, de->d_name, &h);
		sum += h.units_per_sec;
		n++;
	}
	closedir(d);
	if (!r && n)
		set(rep, "busy_units_per_sec", sum);
	return r;
}

static int cyclic_metrics(struct rep *rep)
{
	struct cyclic *c;
	char *p;

	if (!exists(rep, "cyclictest.txt"))
		return 0;
	c = malloc(sizeof(*c));
	p = rpath(rep, "cyclictest.txt");
	if (!c || cyclic_load(p, c)) {
		free(c);
		free(p);
		return -1;
	}
	free(p);
	rep->cyc = c;
	set(rep, "cyclictest_p50_us", cyclic_percentile(c, 50));
	set(rep, "cyclictest_p99_us", cyclic_percentile(c, 99));
	set(rep, "cyclictest_p99_9_us", cyclic_percentile(c, 99.9));
	set(rep, "cyclictest_max_us", c->max_us);
	set(rep, "cyclictest_overflows", c->overflows);
	set(rep, "cyclictest_samples", c->n + c->overflows);
	return 0;
}

/*
 * The condition's own outputs. competitor_loss_pct needs the
 * competitor-only cell as well: fair.c sets it once all cells are in.
 */
static int cond_metrics(struct rep *rep)
{
	struct cpuhog h;

	if (exists(rep, "competitor.txt")) {
		if (cpuhog_file(rep, "competitor.txt", &h))
			return -1;
		set(rep, "competitor_units_per_sec", h.units_per_sec);
		if (!isnan(h.cpu_share))
			set(rep, "competitor_cpu_share_pct", h.cpu_share * 100);
	}
	return busy_metrics(rep) || cyclic_metrics(rep) ? -1 : 0;
}

/* The competitor's rate alone: no fio run, competitor.txt instead. */
int cond_no_fio(const char *condition)
{
	return !strcmp(condition, "competitor-only");
}

/* The histogram a latency metric reads: clat, or total (M_TOTAL). */
const struct hist *rep_hist(const struct rep *r, const struct metric *m)
{
	return m->flags & M_TOTAL ? r->tlat : r->lat;
}

static void lat_metrics(struct rep *rep)
{
	unsigned int i;

	for (i = 0; i < nr_minsts; i++) {
		const struct metric *m = minsts[i].m;
		const struct hist *h = rep_hist(rep, m);

		if (!h)
			continue;
		switch (m->agg) {
		case AGG_HIST_PCT:
			rep->val[i] = hist_percentile(h, m->pct);
			break;
		case AGG_HIST_MEAN:
			rep->val[i] = hist_mean(h);
			break;
		case AGG_HIST_MAX:
			rep->val[i] = hist_max(h);
			break;
		default:
			break;
		}
	}
}

/*
 * The per-I/O denominator of every before/after capture: with window
 * files, the device's I/Os over exactly that window (fio's total_ios
 * leaves out its ramp, which the captures include); without, total_ios.
 * 1: no window files; 0: *w filled; -1: broken.
 */
static int window_metrics(struct rep *rep, struct window *w)
{
	char *pb, *pa;
	int r = pair(rep, "window-before.txt", "window-after.txt", &pb, &pa);

	if (r)
		return r;
	r = window_delta(pb, pa, w);
	free(pb);
	free(pa);
	if (r)
		return -1;
	set(rep, "task_cpu_ns_per_io", w->task_ns / w->dev_ios);
	set(rep, "vcpu_busy_ns_per_io",
	    w->busy_ns / w->dev_ios);
	if (!isnan(w->fio_busy_ns))
		set(rep, "fio_vcpu_busy_ns_per_io", w->fio_busy_ns / w->dev_ios);
	return 0;
}

/* The captures around the window, per I/O. */
static int capture_metrics(struct rep *rep, const struct fio_result *fr)
{
	struct window w;
	double ios = fr->ios, idle_poll;
	int win = window_metrics(rep, &w);

	if (win < 0)
		return -1;
	if (!win)
		ios = w.dev_ios;
	rep->win_ios = ios;
	if (!ios)
		return 0;
	if (cpu_metrics(rep, ios) || irq_metrics(rep, ios) ||
	    kprobe_metrics(rep, ios) || perf_metrics(rep, fr->ios) ||
	    poll_metrics(rep, ios, &idle_poll))
		return -1;
	/*
	 * Idle-loop polling is idle to the kernel's accounting: add it. The
	 * I/O's own work runs on fio's vCPU (submission, interrupt, wake-up,
	 * the waiter's polling) or in some idle loop (the idle design), so
	 * where fio's vCPU is known the other vCPUs' busy time, background
	 * unrelated to the I/O, is left out.
	 */
	if (!win) {
		double busy = (isnan(w.fio_busy_ns) ? w.busy_ns : w.fio_busy_ns) +
			      (isnan(idle_poll) ? 0 : idle_poll);

		set(rep, "cpu_per_io_ns", busy / w.dev_ios);
		/*
		 * The same counted ratio upside down, per rep: the mean over
		 * reps of the reciprocals, not the reciprocal of the mean.
		 */
		if (busy > 0)
			set(rep, "ios_per_busy_cpu_sec", w.dev_ios / (busy / 1e9));
	}
	return 0;
}

/*
 * What a traced rep measured after its window of what no tracepoint sees:
 * fio-null.json (the job on fio's null engine: fio's own code between its
 * clock reads, mean total latency) and syscall-edge.txt (guest/tools/
 * syscall-edge.c: "call_ns" around a preadv2() that fails at once,
 * "clock_ns" between two clock reads; minus the traced part of those
 * calls, the way in and out outside the tracepoints).
 */
static int outside_metrics(struct rep *rep)
{
	const struct kv *call, *clk;
	struct fio_result f;
	struct kvlist l;
	char *p;
	int r = 0;

	if (exists(rep, "fio-null.json")) {
		p = rpath(rep, "fio-null.json");
		r = fio_load(p, &f);
		free(p);
		if (r)
			return r;
		rep->user_ns = hist_mean(f.has_tlat ? &f.tlat : &f.lat);
	}
	if (!exists(rep, "syscall-edge.txt"))
		return 0;
	p = rpath(rep, "syscall-edge.txt");
	r = kvfile_load(p, &l);
	free(p);
	if (r)
		return r;
	call = kv_find(&l, "call_ns");
	clk = kv_find(&l, "clock_ns");
	if (call && clk && rep->trace->edge_calls)
		rep->edge_ns = call->v - clk->v -
			       rep->trace->edge_traced_ns;
	kv_free(&l);
	return 0;
}

/*
 * trace.txt.gz (trace:1 labels): the per-I/O path breakdown, against the
 * device's set latency (nullb-<N>us; other disks have none).
 */
static int trace_metrics(struct rep *rep, const char *device)
{
	int us = nullb_us(device);
	char *p;
	int r;

	if (!exists(rep, "trace.txt.gz"))
		return 0;
	rep->trace = malloc(sizeof(*rep->trace));
	if (!rep->trace)
		return -1;
	p = rpath(rep, "trace.txt.gz");
	r = trace_load(p, us < 0 ? NAN : us * 1000.0, rep->trace);
	free(p);
	if (r) {
		free(rep->trace);
		rep->trace = NULL;
		return r;
	}
	return outside_metrics(rep);
}

/*
 * Per-reader fairness over the jobs of one fio run, each job's rate being
 * its I/Os over its own runtime. Absent with one job, or when a job has
 * no runtime (fio wrote none).
 */
static void reader_metrics(struct rep *rep, const struct fio_result *fr)
{
	double rate[FIO_MAX_JOBS];
	unsigned int i;

	if (fr->jobs < 2)
		return;
	for (i = 0; i < fr->jobs; i++) {
		if (isnan(fr->job[i].runtime_ms))
			return;
		rate[i] = fr->job[i].ios / (fr->job[i].runtime_ms / 1000);
	}
	set(rep, "reader_jain", jain_index(rate, fr->jobs));
	set(rep, "reader_min_share_pct", min_share_pct(rate, fr->jobs));
}

/* 0: loaded; 1: skipped with a warning; -1: broken input. */
int rep_load(struct run *run, struct rep *rep, const char *dir,
	     const char *condition, const char *device)
{
	const char *data = cond_no_fio(condition) ? "competitor.txt" : "fio.json";
	struct fio_result *fr;
	json_error_t jerr;
	const char *end;
	unsigned int i;
	char *p;

	memset(rep, 0, sizeof(*rep));
	rep->dir = strdup(dir);
	end = strrchr(dir, '/');
	rep->num = strtoul(end ? end + 1 : dir, NULL, 10);
	for (i = 0; i < MAX_MINST; i++)
		rep->val[i] = NAN;
	rep->lat_min_ns = NAN;
	rep->win_ios = NAN;
	rep->user_ns = rep->edge_ns = NAN;

	if (!exists(rep, data) || !exists(rep, "meta.json")) {
		run_warn(run, "%s: no %s (guest died mid-run?), rep skipped",
			 dir, exists(rep, data) ? "meta.json" : data);
		rep_free(rep);
		return 1;
	}
	p = rpath(rep, "meta.json");
	rep->meta = json_load_file(p, 0, &jerr);
	if (!rep->meta || !json_is_object(rep->meta)) {
		fprintf(stderr, "%s: line %d column %d: %s\n", p, jerr.line,
			jerr.column, rep->meta ? "not an object" : jerr.text);
		free(p);
		goto err;
	}
	free(p);
	if (cond_metrics(rep))
		goto err;
	if (cond_no_fio(condition))
		return 0;

	fr = malloc(sizeof(*fr));
	p = rpath(rep, "fio.json");
	if (!fr || fio_load(p, fr)) {
		free(fr);
		free(p);
		goto err;
	}
	free(p);
	rep->lat = malloc(sizeof(*rep->lat));
	if (!rep->lat) {
		free(fr);
		goto err;
	}
	*rep->lat = fr->lat;
	if (fr->has_tlat) {
		rep->tlat = malloc(sizeof(*rep->tlat));
		if (!rep->tlat) {
			free(fr);
			goto err;
		}
		*rep->tlat = fr->tlat;
	}
	rep->lat_min_ns = isnan(fr->lat_min_ns) ? fr->clat_min_ns :
						  fr->lat_min_ns;
	set(rep, "iops", fr->iops);
	set(rep, "fio_cpu_pct", fr->cpu_pct);
	set(rep, "clat_samples", fr->lat.n);
	reader_metrics(rep, fr);
	if (fr->ios)
		set(rep, "ctx_per_io", (double)fr->ctx / fr->ios);
	lat_metrics(rep);
	rep->win_ios = fr->ios;
	if (capture_metrics(rep, fr) || trace_metrics(rep, device)) {
		free(fr);
		goto err;
	}
	free(fr);
	return 0;
err:
	rep_free(rep);
	return -1;
}

void rep_free(struct rep *rep)
{
	free(rep->dir);
	free(rep->lat);
	free(rep->tlat);
	rep->tlat = NULL;
	if (rep->cyc)
		cyclic_free(rep->cyc);
	free(rep->cyc);
	rep->cyc = NULL;
	if (rep->trace)
		trace_free(rep->trace);
	free(rep->trace);
	rep->trace = NULL;
	json_decref(rep->meta);
	rep->dir = NULL;
	rep->lat = NULL;
	rep->meta = NULL;
}

/* The rep values of metric mi that exist, in rep order. */
int rep_values(const struct cell *c, unsigned int mi, double *out)
{
	unsigned int i;
	int n = 0;

	for (i = 0; i < c->nr_reps; i++)
		if (!isnan(c->reps[i].val[mi]))
			out[n++] = c->reps[i].val[mi];
	return n;
}
