/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The measurement window: window-before.txt and window-after.txt, taken
 * by fio's exec_prerun/exec_postrun right around its I/O loop, at the
 * same instants as the other before/after captures.
 */
#ifndef PB_WINDOW_H
#define PB_WINDOW_H

/* after - before of each counter. */
struct window {
	double clock_ns;	/* guest CLOCK_MONOTONIC */
	double dev_ios;		/* I/Os completed by the device under test */
	double task_ns;		/* CPU time of fio's job process */
	double idle_ns;		/* idle time summed over the vCPUs */
	unsigned int ncpu;	/* vCPUs with a cpu<K>_idle_ns line */
	double busy_ns;		/* sum over vCPUs of their clock less idle */
	double fio_busy_ns;	/* the same for fio's vCPU (fio_cpu); NAN if unknown */
};

int window_delta(const char *before, const char *after, struct window *d);

#endif
