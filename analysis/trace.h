/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.txt.gz: the ftrace text of a traced cell's window (guest/trace.sh)
 * split into per-I/O steps of the I/O task's system calls.
 */
#ifndef PB_TRACE_H
#define PB_TRACE_H

#include <stdio.h>

/* The steps of one I/O, in order; they add up to its system call time. */
enum trace_step {
	TS_SUBMIT,	/* issue - enter */
	TS_DEVICE,	/* the device's set latency D (NAN: not a nullb disk) */
	TS_FIND,	/* complete - (issue + D) */
	TS_WAKE,	/* wake-up - complete (the waiter slept) */
	TS_RUNQ,	/* switch-in - wake-up (woken, waiting for its vCPU) */
	TS_RETURN,	/* exit - max(complete, switch-in) */
	TS_NR
};

extern const char *const trace_step_names[TS_NR];

/* Where the I/O task was when its request completed. */
enum trace_at {
	TA_ONCPU,	/* running: it found the completion or saw it happen */
	TA_RUNNABLE,	/* off its vCPU but runnable (preempted, or woken) */
	TA_ASLEEP,	/* asleep: a wake-up follows the completion */
	TA_NR
};

struct trace_io {
	double step[TS_NR];	/* ns */
	double syscall_ns;	/* exit - enter */
	enum trace_at at;
};

struct trace {
	double tick_ns;		/* ns per tick from the pb_clock markers; NAN */
	unsigned int markers;	/* pb_clock markers seen */
	struct trace_io *io;	/* I/Os with enter, issue, complete and exit */
	unsigned int nr_io;
	unsigned int no_request;	/* I/O tasks' calls without a request */
	unsigned int dropped;	/* I/Os whose events do not fit the model */
	unsigned int lost;	/* events the ring buffer says it lost */
	unsigned int tasks;	/* I/O tasks (pids with a traced I/O) */
	unsigned int neg_find;	/* I/Os completed before issue + D */
	unsigned int at[TA_NR];
	/* Calls of tasks without requests (syscall-edge): count, mean ns. */
	unsigned int edge_calls;
	double edge_traced_ns;
	/* Per step over the I/Os (NAN without I/Os or without the scale). */
	double median[TS_NR], mean[TS_NR];
	double syscall_median, syscall_mean;
};

int trace_parse(FILE *f, const char *name, double dev_ns, struct trace *t);
int trace_load(const char *path, double dev_ns, struct trace *t);
void trace_free(struct trace *t);

#endif
