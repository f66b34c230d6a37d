// SPDX-License-Identifier: GPL-2.0
/*
 * The path breakdown rendered (breakdown.c computes it): report.md's
 * "Where the microseconds go" section, one table per condition and a
 * table of tracing's cost, and summary.json "breakdown".
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "breakdown_out.h"
#include "device.h"
#include "fmt.h"
#include "mdtab.h"

static const char *const status_str[] = { "ok", "invalid", "missing" };

static void us(struct mdtab *t, unsigned int col, double ns)
{
	if (isnan(ns))
		mdtab_add(t, col, "-");
	else
		mdtab_add(t, col, "%.2f", ns / 1000 + 0.0);
}

static void bd_table(FILE *f, const struct run *run, const char *cond)
{
	const struct cell **rows = calloc(run->nr_cells + 1, sizeof(*rows));
	unsigned int n = rows ? bd_rows(run, cond, rows) : 0, i, k, col;
	struct bd_cell b;
	struct mdtab t;
	char name[256];

	mdtab_init(&t, 13 + TS_NR);
	t.left = 2;
	mdtab_add(&t, 0, "device");
	mdtab_add(&t, 1, "design");
	for (k = 0; k < TS_NR; k++)
		mdtab_add(&t, 2 + k, "%s", trace_step_names[k]);
	col = 2 + TS_NR;
	mdtab_add(&t, col, "user");
	mdtab_add(&t, col + 1, "edge");
	mdtab_add(&t, col + 2, "sum of medians");
	mdtab_add(&t, col + 3, "fio p50");
	mdtab_add(&t, col + 4, "syscall mean");
	mdtab_add(&t, col + 5, "fio mean");
	mdtab_add(&t, col + 6, "outside trace");
	mdtab_add(&t, col + 7, "syscall coverage");
	mdtab_add(&t, col + 8, "coverage");
	mdtab_add(&t, col + 9, "asleep at completion");
	mdtab_add(&t, col + 10, "tracing cost p50");
	for (i = 0; i < n; i++) {
		bd_cell(run, rows[i], &b);
		bd_row_name(run, &b, name, sizeof(name));
		mdtab_add(&t, 0, "%s", *b.c->device ? b.c->device : "nvme");
		if (b.status != BD_OK) {
			mdtab_add(&t, 1, "%s: **%s** (below)", name,
				  status_str[b.status]);
			for (k = 2; k < t.cols; k++)
				mdtab_add(&t, k, "-");
			continue;
		}
		mdtab_add(&t, 1, "%s", name);
		for (k = 0; k < TS_NR; k++)
			us(&t, 2 + k, b.median[k]);
		us(&t, col, b.user);
		us(&t, col + 1, b.edge);
		us(&t, col + 2, b.total_median_sum);
		us(&t, col + 3, b.fio_p50);
		us(&t, col + 4, b.syscall_mean);
		us(&t, col + 5, b.fio_mean);
		us(&t, col + 6, b.outside);
		mdtab_add(&t, col + 7, "%.1f%%", b.syscall_coverage_pct);
		mdtab_add(&t, col + 8, "%.1f%%%s%s", b.coverage_pct,
			  b.partial ? " (syscall only)" : "",
			  bd_covered(b.coverage_pct) ? "" : " (!)");
		if (b.ios)
			mdtab_add(&t, col + 9, "%.0f%%",
				  100.0 * b.at[TA_ASLEEP] / b.ios);
		else
			mdtab_add(&t, col + 9, "-");
		if (isnan(b.cost_p50_pct))
			mdtab_add(&t, col + 10, "-");
		else
			mdtab_add(&t, col + 10, "%+.1f%%", b.cost_p50_pct + 0.0);
	}
	fprintf(f, "### %s\n\n", cond);
	mdtab_print(f, &t);
	mdtab_free(&t);
	fputc('\n', f);
	for (i = 0, k = 0; i < n; i++, k++) {
		bd_cell(run, rows[i], &b);
		if (b.status != BD_OK)
			fprintf(f, "- `%s/%s`: breakdown %s: %s.\n", b.c->variant,
				b.c->name, status_str[b.status], b.reason);
		else if (b.neg_find)
			fprintf(f, "- `%s/%s`: %u of %u I/Os completed before issue + the device's latency (find < 0): the step model does not hold for them.\n",
				b.c->variant, b.c->name, b.neg_find, b.ios);
		else
			k--;
	}
	if (k)
		fputc('\n', f);
	free(rows);
}

static void cost_table(FILE *f, const struct run *run, const char **conds,
		       unsigned int nc)
{
	const struct cell **rows = calloc(run->nr_cells + 1, sizeof(*rows));
	unsigned int i, j, k, n;
	struct bd_cell b;
	struct mdtab t;
	char name[256];

	if (!rows)
		return;
	mdtab_init(&t, 11);
	t.left = 3;
	mdtab_add(&t, 0, "condition");
	mdtab_add(&t, 1, "device");
	mdtab_add(&t, 2, "design");
	mdtab_add(&t, 3, "p50 untraced");
	mdtab_add(&t, 4, "p50 traced");
	mdtab_add(&t, 5, "p50 cost");
	mdtab_add(&t, 6, "p50 cost %%");
	mdtab_add(&t, 7, "mean untraced");
	mdtab_add(&t, 8, "mean traced");
	mdtab_add(&t, 9, "mean cost");
	mdtab_add(&t, 10, "mean cost %%");
	for (j = 0; j < nc; j++) {
		n = bd_rows(run, conds[j], rows);
		for (i = 0; i < n; i++) {
			bd_cell(run, rows[i], &b);
			bd_row_name(run, &b, name, sizeof(name));
			mdtab_add(&t, 0, "%s", conds[j]);
			mdtab_add(&t, 1, "%s", *b.c->device ? b.c->device : "nvme");
			if (!b.untraced) {
				mdtab_add(&t, 2, "%s (no untraced label)", name);
				for (k = 3; k < 11; k++)
					mdtab_add(&t, k, "-");
				continue;
			}
			mdtab_add(&t, 2, "%s (`%s`)", name, b.untraced->variant);
			us(&t, 3, b.p50_untraced);
			us(&t, 4, b.p50_untraced + b.cost_p50_ns);
			mdtab_add(&t, 5, "%+.2f", b.cost_p50_ns / 1000 + 0.0);
			mdtab_add(&t, 6, "%+.1f%%", b.cost_p50_pct + 0.0);
			us(&t, 7, b.mean_untraced);
			us(&t, 8, b.mean_untraced + b.cost_mean_ns);
			mdtab_add(&t, 9, "%+.2f", b.cost_mean_ns / 1000 + 0.0);
			mdtab_add(&t, 10, "%+.1f%%", b.cost_mean_pct + 0.0);
		}
	}
	mdtab_print(f, &t);
	mdtab_free(&t);
	fputc('\n', f);
	free(rows);
}

void breakdown_report(FILE *f, const struct run *run)
{
	const char **conds = calloc(run->nr_cells + 1, sizeof(*conds));
	unsigned int nc = conds ? bd_conds(run, conds) : 0, j;
	const char *lat = run->has_tlat ? "lat" : "clat";

	if (!nc) {
		free(conds);
		return;
	}
	fprintf(f, "## Where the microseconds go — %s\n\n", run->timing_label);
	fprintf(f, "Each traced cell's I/Os (labels with `trace:1`: the kernel's tracepoints "
		   "over the window, `trace.txt.gz`) split into steps, per I/O: **submit** = "
		   "block_rq_issue - sys_enter; **device** = the disk's set latency D "
		   "(`nullb-<N>us`); **find** = block_rq_complete - (issue + D), the time "
		   "until the completion was found (interrupt or timer, the waiter's poll, "
		   "the idle loop, io_uring's poll), including the driver's own time after "
		   "the issue tracepoint until null_blk arms its timer; **wake** = sched_wakeup - complete when "
		   "the task was asleep at the completion, else 0; **runq** = switch-in - "
		   "wake-up (from the completion when the task was off its vCPU but "
		   "runnable), else 0; **return** = sys_exit - max(complete, switch-in). "
		   "They add up to the system call's time. Ticks (x86-tsc) are scaled to ns "
		   "by the first and last `pb_clock` markers. Per step: each boot's median over its "
		   "I/Os, then the median over boots (one boot, one vote), in us; no "
		   "interval is given. Medians do not add up: **sum of medians** is set "
		   "against fio's %s p50 (median over the same boots), while means do: "
		   "**syscall mean** (each boot's mean system call, median over boots) "
		   "against **fio mean** (fio's %s mean of the same boot, from its bins: "
		   "within 0.78%%). Two parts lie outside the tracepoints and are measured "
		   "after the window in the same boot: **user**, fio's own code between "
		   "its clock reads (the job on fio's null engine, `fio-null.json`, mean), "
		   "and **edge**, libc and the system call's way in and out outside the "
		   "tracepoints (`syscall-edge.txt`: a preadv2() that fails at once, timed "
		   "by fio's clock, minus its traced part); n/a for engines without them "
		   "(uring-lat). **outside trace** = fio mean - syscall mean, what they "
		   "should explain; **syscall coverage** = syscall mean / fio mean; "
		   "**coverage** = (user + edge + syscall mean) / fio mean (each boot, "
		   "median over boots); `(!)` marks one outside 100 +- %.0f%%. Every "
		   "traced step includes the tracepoints' own cost (a traced call that "
		   "does nothing takes about 1 us between its two events). "
		   "**asleep at completion**: the share of I/Os whose task slept when its "
		   "request completed. **tracing cost p50**: (traced - untraced) / untraced "
		   "%s p50 (below). A cell whose trace has more or fewer I/Os than the "
		   "device completed over the window (more than %.0f%% apart), or lost "
		   "events, is invalid; one without its two markers is missing. Plots: "
		   "`plots/breakdown@<condition>` (step means, stacked).\n\n",
		lat, lat, BD_COVER_TOL_PCT, lat, BD_COUNT_TOL_PCT);
	for (j = 0; j < nc; j++)
		bd_table(f, run, conds[j]);
	fprintf(f, "**Tracing's cost** (traced - untraced label with the same settings; "
		   "%s p50 the median over boots, mean over the pooled bins; us):\n\n",
		lat);
	cost_table(f, run, conds, nc);
	free(conds);
}

static json_t *per_rep(const struct cell *c, int what, unsigned int k)
{
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; i < c->nr_reps; i++) {
		const struct trace *t = c->reps[i].trace;
		double v = NAN;

		if (t && !isnan(t->tick_ns)) {
			switch (what) {
			case 0:
				v = t->median[k];
				break;
			case 1:
				v = t->mean[k];
				break;
			case 2:
				v = t->syscall_mean;
				break;
			default:
				v = t->tick_ns;
			}
		}
		json_array_append_new(a, jnum(v));
	}
	return a;
}

static json_t *counts(const struct cell *c, int what)
{
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; i < c->nr_reps; i++) {
		const struct trace *t = c->reps[i].trace;

		if (what == 5)
			json_array_append_new(a, jnum(c->reps[i].win_ios));
		else if (!t)
			json_array_append_new(a, json_null());
		else
			json_array_append_new(a, json_integer(
				what == 0 ? t->nr_io : what == 1 ? t->markers :
				what == 2 ? t->no_request : what == 3 ?
				t->dropped : t->lost));
	}
	return a;
}

static void set2(json_t *o, const char *a, const char *b, json_t *v)
{
	char key[128];

	snprintf(key, sizeof(key), "%s%s", a, b);
	json_object_set_new(o, key, v);
}

static json_t *cell_json(const struct run *run, const struct bd_cell *b)
{
	const struct cell *c = b->c;
	int us = nullb_us(c->device);
	json_t *o = json_object(), *at = json_object(), *cost;
	unsigned int k;

	json_object_set_new(o, "variant", json_string(c->variant));
	json_object_set_new(o, "cell", json_string(c->name));
	json_object_set_new(o, "design", json_string(b->design));
	json_object_set_new(o, "workload", json_string(c->workload));
	json_object_set_new(o, "condition", json_string(c->condition));
	json_object_set_new(o, "device", json_string(c->device));
	json_object_set_new(o, "device_ns", us < 0 ? json_null() :
						json_integer(us * 1000LL));
	json_object_set_new(o, "status", json_string(status_str[b->status]));
	json_object_set_new(o, "reason", b->status == BD_OK ? json_null() :
						   json_string(b->reason));
	json_object_set_new(o, "reps", json_integer(b->reps));
	json_object_set_new(o, "ios_parsed", json_integer(b->ios));
	json_object_set_new(o, "ios_parsed_per_rep", counts(c, 0));
	json_object_set_new(o, "window_ios_per_rep", counts(c, 5));
	json_object_set_new(o, "markers_per_rep", counts(c, 1));
	json_object_set_new(o, "calls_without_request_per_rep", counts(c, 2));
	json_object_set_new(o, "ios_dropped_per_rep", counts(c, 3));
	json_object_set_new(o, "events_lost_per_rep", counts(c, 4));
	json_object_set_new(o, "tick_ns_per_rep", per_rep(c, 3, 0));
	for (k = 0; k < TS_NR; k++) {
		set2(o, trace_step_names[k], "_median_ns", jnum(b->median[k]));
		set2(o, trace_step_names[k], "_mean_ns", jnum(b->mean[k]));
		set2(o, trace_step_names[k], "_median_ns_per_rep",
		     per_rep(c, 0, k));
		set2(o, trace_step_names[k], "_mean_ns_per_rep",
		     per_rep(c, 1, k));
	}
	json_object_set_new(o, "step_medians_sum_ns", jnum(b->median_sum));
	json_object_set_new(o, "syscall_mean_ns", jnum(b->syscall_mean));
	json_object_set_new(o, "syscall_mean_ns_per_rep", per_rep(c, 2, 0));
	json_object_set_new(o, "syscall_median_ns", jnum(b->syscall_median));
	json_object_set_new(o, "fio_mean_ns", jnum(b->fio_mean));
	json_object_set_new(o, "fio_p50_ns", jnum(b->fio_p50));
	json_object_set_new(o, "user_ns", jnum(b->user));
	json_object_set_new(o, "edge_ns", jnum(b->edge));
	json_object_set_new(o, "total_mean_ns", jnum(b->total_mean));
	json_object_set_new(o, "outside_trace_ns", jnum(b->outside));
	json_object_set_new(o, "syscall_coverage_pct",
			    jnum(b->syscall_coverage_pct));
	json_object_set_new(o, "coverage_syscall_only", json_boolean(b->partial));
	json_object_set_new(o, "coverage_pct", jnum(b->coverage_pct));
	json_object_set_new(o, "coverage_ok",
			    json_boolean(b->status == BD_OK &&
					 bd_covered(b->coverage_pct)));
	json_object_set_new(o, "p50_coverage_pct", jnum(b->p50_coverage_pct));
	json_object_set_new(o, "negative_find_ios", json_integer(b->neg_find));
	json_object_set_new(at, "on_cpu", json_integer(b->at[TA_ONCPU]));
	json_object_set_new(at, "runnable", json_integer(b->at[TA_RUNNABLE]));
	json_object_set_new(at, "asleep", json_integer(b->at[TA_ASLEEP]));
	json_object_set_new(o, "task_at_completion_ios", at);
	cost = json_object();
	json_object_set_new(cost, "untraced_variant", b->untraced ?
			    json_string(b->untraced->variant) : json_null());
	json_object_set_new(cost, "p50_untraced_ns", jnum(b->p50_untraced));
	json_object_set_new(cost, "p50_traced_ns",
			    jnum(b->p50_untraced + b->cost_p50_ns));
	json_object_set_new(cost, "p50_diff_ns", jnum(b->cost_p50_ns));
	json_object_set_new(cost, "p50_diff_pct", jnum(b->cost_p50_pct));
	json_object_set_new(cost, "mean_untraced_ns", jnum(b->mean_untraced));
	json_object_set_new(cost, "mean_traced_ns",
			    jnum(b->mean_untraced + b->cost_mean_ns));
	json_object_set_new(cost, "mean_diff_ns", jnum(b->cost_mean_ns));
	json_object_set_new(cost, "mean_diff_pct", jnum(b->cost_mean_pct));
	json_object_set_new(o, "tracing_cost", cost);
	(void)run;
	return o;
}

json_t *breakdown_json(const struct run *run)
{
	const char **conds = calloc(run->nr_cells + 1, sizeof(*conds));
	const struct cell **rows = calloc(run->nr_cells + 1, sizeof(*rows));
	json_t *o = json_object(), *steps = json_array(), *cells = json_array();
	unsigned int nc = conds && rows ? bd_conds(run, conds) : 0, i, j, n;
	struct bd_cell b;

	json_object_set_new(o, "timing_model",
			    json_string(timing_key(&run->timing)));
	json_object_set_new(o, "timing_label", json_string(run->timing_label));
	json_object_set_new(o, "latency", json_string(run->has_tlat ?
						       "lat" : "clat"));
	for (i = 0; i < TS_NR; i++)
		json_array_append_new(steps, json_string(trace_step_names[i]));
	json_object_set_new(o, "steps", steps);
	json_object_set_new(o, "statistic",
			    json_string("per step: each rep's median (mean) over its I/Os, then the median over reps"));
	json_object_set_new(o, "coverage_tolerance_pct",
			    json_real(BD_COVER_TOL_PCT));
	json_object_set_new(o, "count_tolerance_pct",
			    json_real(BD_COUNT_TOL_PCT));
	for (j = 0; j < nc; j++) {
		n = bd_rows(run, conds[j], rows);
		for (i = 0; i < n; i++) {
			bd_cell(run, rows[i], &b);
			json_array_append_new(cells, cell_json(run, &b));
		}
	}
	json_object_set_new(o, "cells", cells);
	free(conds);
	free(rows);
	return o;
}
