// SPDX-License-Identifier: GPL-2.0
/*
 * answer.txt: report.md's crossover headline cut down to what a kernel
 * maintainer can paste into a mail. Plain ASCII, at most ANSWER_COLS
 * columns: one row per design under the name people use for it, one
 * overhead/gain pair per device latency (in blocks when they do not fit
 * side by side), then the CPU per I/O at one latency. names.c names
 * the designs. Every number is a crossover.c point printed as the
 * headline prints it, so the two agree to the digit.
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "crossover.h"
#include "engine.h"
#include "fmt.h"
#include "names.h"

#define NUM_LEN		32
#define GAP		2	/* spaces between columns */
/* The device latency whose CPU per I/O is shown (the nearest one run). */
#define CPU_AT_US	10

/* A space wrapf() does not break at ("\x1f" in strings), printed as one. */
#define NBSP		0x1f

/* Print text word-wrapped at ANSWER_COLS, continuation lines indented. */
static void wrapf(FILE *f, const char *fmt, ...)
{
	const unsigned int indent = 2;
	unsigned int col = 0;
	char *s, *w, *save = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		return;
	for (w = strtok_r(s, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (col && col + 1 + strlen(w) > ANSWER_COLS) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col) {
			fputc(' ', f);
			col++;
		}
		col += strlen(w);
		for (; *w; w++)
			fputc(*w == NBSP ? ' ' : *w, f);
	}
	fputc('\n', f);
	free(s);
}

/* The designs of the headline condition, named and in usual order. */
static struct design *designs(const struct run *run, const char *cond,
			      unsigned int *nr)
{
	struct design *v = calloc(run->nr_cells + 1, sizeof(*v));
	unsigned int i, n = 0;

	for (i = 0; v && i < run->nr_cells; i++) {
		const struct cell *c = run->cells[i];

		if (!xo_in(c) || strcmp(c->condition, cond) ||
		    !xo_first_of(run, i, 1))
			continue;
		v[n].d = c;
		v[n].order = n;
		n++;
	}
	if (v)
		designs_name(run, v, n);
	*nr = n;
	return v;
}

static const char *meta(const struct cell *c, const char *key)
{
	json_t *v = json_object_get(c->reps[0].meta, key);

	return json_is_string(v) ? json_string_value(v) : "?";
}

/* A folder's name, whatever path it was given by. */
const char *dir_name(const char *dir, char *buf, size_t len)
{
	char *real = realpath(dir, NULL);
	const char *s = real ? real : dir, *slash = strrchr(s, '/');

	snprintf(buf, len, "%s", slash && slash[1] ? slash + 1 : s);
	free(real);
	return buf;
}

/* The run's folder name. */
const char *run_name(const struct run *run, char *buf, size_t len)
{
	return dir_name(run->dir, buf, len);
}

static void kernel_of(const struct cell *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s\x1f(commit\x1f%.12s)",
		 meta(c, "kernel_release"), meta(c, "kernel_commit"));
}

/* "QEMU emulator version 7.2.22 (...)" -> "7.2.22 (...)" */
const char *qemu_short(const char *q)
{
	static const char prefix[] = "QEMU emulator version ";

	return strncmp(q, prefix, sizeof(prefix) - 1) ? q :
	       q + sizeof(prefix) - 1;
}

static void qemu_of(const struct cell *c, char *buf, size_t len)
{
	snprintf(buf, len, "QEMU %s, accel %s",
		 qemu_short(meta(c, "qemu_version")), meta(c, "accel"));
}

/* sep-separated what() of the designs, each distinct string once. */
static void distinct(char *buf, size_t len, const char *sep,
		     const struct design *v, unsigned int n,
		     void (*what)(const struct cell *, char *, size_t))
{
	char s[512], t[512];
	unsigned int i, j;
	size_t l = 0;

	buf[0] = '\0';
	for (i = 0; i < n && l < len; i++) {
		what(v[i].d, s, sizeof(s));
		for (j = 0; j < i; j++) {
			what(v[j].d, t, sizeof(t));
			if (!strcmp(s, t))
				break;
		}
		if (j == i)
			l += snprintf(buf + l, len - l, "%s%s", l ? sep : "",
				      s);
	}
}

/* Kernel and QEMU of the designs, short, as report.md's tables name them. */
static void provenance(FILE *f, const struct design *v, unsigned int n)
{
	char s[2048];

	distinct(s, sizeof(s), ", ", v, n, kernel_of);
	wrapf(f, "Kernels: %s.", s);
	distinct(s, sizeof(s), "; ", v, n, qemu_of);
	wrapf(f, "%s.", s);
}

/* "randread-4k-qd1" when every design runs the same one, else NULL. */
static char *family(const struct design *v, unsigned int n)
{
	const char *w = v[0].d->workload, *eng = engine_name(w);
	size_t l = eng > w ? (size_t)(eng - w - 1) : 0;
	unsigned int i;

	for (i = 1; l && i < n; i++)
		if (strncmp(v[i].d->workload, w, l) ||
		    v[i].d->workload[l] != '-')
			l = 0;
	return l ? strndup(w, l) : NULL;
}

/* The overhead and gain strings of design i at device k, as headline. */
#define OVH(i, k)	(s[((i) * nd + (k)) * 2])
#define GAIN(i, k)	(s[((i) * nd + (k)) * 2 + 1])

static void table(FILE *f, const struct run *run, const char *cond,
		  const struct design *v, unsigned int n, const int *pts,
		  unsigned int nd)
{
	static const char head0[] = "device latency", head1[] = "design";
	char (*s)[NUM_LEN] = calloc((size_t)n * nd * 2 + 1, sizeof(*s));
	unsigned int nw = strlen(head0), ow = strlen("overhead");
	unsigned int gw = strlen("gain"), pw, per, blocks, b, i, k;
	struct xo_point p;

	if (!s)
		return;
	for (i = 0; i < n; i++) {
		if (strlen(v[i].name) > nw)
			nw = strlen(v[i].name);
		for (k = 0; k < nd; k++) {
			xo_point(run, xo_cell(run, v[i].d->variant,
					      v[i].d->workload, cond, pts[k]),
				 pts[k], &p);
			fmt_num(OVH(i, k), NUM_LEN, p.ovh50, 1000, "%.2f");
			if (p.c && p.ref == p.c)
				snprintf(GAIN(i, k), NUM_LEN, "ref");
			else
				fmt_num(GAIN(i, k), NUM_LEN, p.gain50, 1, "%+.2f%%");
			if (strlen(OVH(i, k)) > ow)
				ow = strlen(OVH(i, k));
			if (strlen(GAIN(i, k)) > gw)
				gw = strlen(GAIN(i, k));
		}
	}
	pw = ow + 1 + gw;
	/* As many devices side by side as fit, at least one. */
	per = nw + GAP + pw < ANSWER_COLS ?
	      (ANSWER_COLS - nw) / (GAP + pw) : 1;
	blocks = (nd + per - 1) / per;
	/* Even blocks: 8 devices as 4 + 4, not 6 + 2. */
	per = (nd + blocks - 1) / blocks;
	for (b = 0; b < blocks; b++) {
		unsigned int k0 = b * per, k1 = k0 + per < nd ? k0 + per : nd;
		char us[NUM_LEN];

		fprintf(f, "\n%-*s", nw, head0);
		for (k = k0; k < k1; k++) {
			snprintf(us, sizeof(us), "%d us", pts[k]);
			fprintf(f, "%*s", GAP + pw, us);
		}
		fprintf(f, "\n%-*s", nw, head1);
		for (k = k0; k < k1; k++)
			fprintf(f, "%*s%*s %*s", GAP, "", ow, "overhead", gw,
				"gain");
		fputc('\n', f);
		for (i = 0; i < n; i++) {
			fprintf(f, "%-*s", nw, v[i].name);
			for (k = k0; k < k1; k++)
				fprintf(f, "%*s%*s %*s", GAP, "", ow, OVH(i, k),
					gw, GAIN(i, k));
			fputc('\n', f);
		}
	}
	free(s);
}

/* CPU per I/O of each design at the device latency nearest CPU_AT_US. */
static void cpu(FILE *f, const struct run *run, const char *cond,
		const struct design *v, unsigned int n, const int *pts,
		unsigned int nd)
{
	char (*val)[NUM_LEN] = calloc(n + 1, sizeof(*val));
	unsigned int i, k, any = 0, nw = 0, vw = 0;
	int us = pts[0];

	for (k = 1; k < nd; k++)
		if (abs(pts[k] - CPU_AT_US) < abs(us - CPU_AT_US))
			us = pts[k];
	for (i = 0; val && i < n; i++) {
		double x = xo_val(xo_cell(run, v[i].d->variant,
					  v[i].d->workload, cond, us),
				  "cpu_per_io_ns");

		any |= !isnan(x);
		fmt_num(val[i], NUM_LEN, x, 1000, "%.2f");
		if (strlen(v[i].name) > nw)
			nw = strlen(v[i].name);
		if (strlen(val[i]) > vw)
			vw = strlen(val[i]);
	}
	if (any) {
		fputc('\n', f);
		wrapf(f, "CPU per I/O at %d us, in us (busy time of all vCPUs plus idle-loop polling, per device I/O):",
		      us);
		for (i = 0; i < n; i++)
			fprintf(f, "  %-*s%*s%*s\n", nw, v[i].name, GAP, "",
				vw, val[i]);
	}
	free(val);
}

static void answer(FILE *f, const struct run *run, const char *report_path)
{
	const char *cond = xo_headline_cond(run);
	int *pts = calloc(run->nr_cells + 1, sizeof(*pts));
	unsigned int nd = pts ? xo_devices(run, pts) : 0, n = 0, i, k;
	unsigned int lo = UINT_MAX, hi = 0;
	struct design *v = cond && nd ? designs(run, cond, &n) : NULL;
	char name[256], boots[32];
	char *fam;

	wrapf(f, "pollbench run %s, %s.", run_name(run, name, sizeof(name)),
	      run->timing_label);
	if (!n) {
		wrapf(f, "No valid null_blk (nullb-<N>us) cells: no crossover to show here; the full report's headline compares the kernels.");
		goto out;
	}
	provenance(f, v, n);
	for (i = 0; i < n; i++)
		for (k = 0; k < nd; k++) {
			const struct cell *c = xo_cell(run, v[i].d->variant,
						       v[i].d->workload, cond,
						       pts[k]);

			if (c && c->nr_reps < lo)
				lo = c->nr_reps;
			if (c && c->nr_reps > hi)
				hi = c->nr_reps;
		}
	snprintf(boots, sizeof(boots), lo == hi ? "%u" : "%u-%u", lo, hi);
	fam = family(v, n);
	wrapf(f, "%s%snull_blk devices completing N us after submission, condition %s, %s boot%s per design and N.",
	      fam ?: "", fam ? " on " : "", cond, boots, hi == 1 ? "" : "s");
	free(fam);
	wrapf(f, "overhead = %s p50 - N, in us (p50: the median of the per-boot p50s); gain = p50 gain vs interrupts, (interrupts - design) / interrupts, positive = faster.%s",
	      run->has_tlat ? "total-latency" :
	      "completion-latency (clat: this run has no total-latency bins)",
	      run->nr_invalid ?
	      " Invalid cells are left out (see the report)." : "");
	table(f, run, cond, v, n, pts, nd);
	cpu(f, run, cond, v, n, pts, nd);
out:
	fprintf(f, "\nFull report: %s\n", report_path);
	free(v);
	free(pts);
}

int write_answer(const struct run *run, const char *path,
		 const char *report_path)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		perror(path);
		return -1;
	}
	answer(f, run, report_path);
	if (fclose(f)) {
		perror(path);
		return -1;
	}
	return 0;
}
