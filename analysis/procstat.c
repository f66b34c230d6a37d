// SPDX-License-Identifier: GPL-2.0
/*
 * Parsers for the guest's text captures: /proc/stat, /proc/interrupts,
 * kprobe_profile, perf stat -x, and the "key value" poll-stats files.
 * Each returns -1 after printing "<file>:<line>: <what was wrong>".
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procstat.h"

static FILE *open_or_complain(const char *path)
{
	FILE *f = fopen(path, "r");

	if (!f)
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
	return f;
}

int cpustat_load(const char *path, struct cpustat *cs)
{
	char line[1024];
	FILE *f = open_or_complain(path);
	int lineno = 0, found = 0;

	if (!f)
		return -1;
	memset(cs, 0, sizeof(*cs));
	while (fgets(line, sizeof(line), f)) {
		char *p = line + 3, *end;
		int i;

		lineno++;
		if (strncmp(line, "cpu ", 4))
			continue;
		for (i = 0; i < CPU_NR_FIELDS; i++) {
			errno = 0;
			cs->f[i] = strtoull(p, &end, 10);
			if (end == p || errno) {
				fprintf(stderr,
					"%s:%d: \"cpu\" line has fewer than %d numbers\n",
					path, lineno, CPU_NR_FIELDS);
				fclose(f);
				return -1;
			}
			p = end;
		}
		found = 1;
		break;
	}
	fclose(f);
	if (!found) {
		fprintf(stderr, "%s: no aggregate \"cpu \" line\n", path);
		return -1;
	}
	return 0;
}

/*
 * /proc/interrupts: a header "CPU0 CPU1 ...", then "<irq>: <count per
 * CPU> <chip> <hwirq> <name>". Lines with fewer counts (ERR:, MIS:) are
 * skipped. A line counts as NVMe when any token after the counts starts
 * with "nvme" (nvme0q0, nvme0q1, ...).
 */
int interrupts_load(const char *path, struct irqsum *s)
{
	char line[4096], *tok, *save;
	FILE *f = open_or_complain(path);
	int lineno = 1, ncpu = 0;

	if (!f)
		return -1;
	memset(s, 0, sizeof(*s));
	if (!fgets(line, sizeof(line), f)) {
		fprintf(stderr, "%s: empty file\n", path);
		fclose(f);
		return -1;
	}
	for (tok = strtok_r(line, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (strncmp(tok, "CPU", 3))
			break;
		ncpu++;
	}
	if (!ncpu) {
		fprintf(stderr, "%s:1: no \"CPU<n>\" header\n", path);
		fclose(f);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		uint64_t sum = 0;
		int i, nvme = 0;

		lineno++;
		tok = strtok_r(line, " \t\n", &save);
		if (!tok || tok[strlen(tok) - 1] != ':') {
			fprintf(stderr, "%s:%d: expected \"<irq>:\"\n", path,
				lineno);
			fclose(f);
			return -1;
		}
		for (i = 0; i < ncpu; i++) {
			char *end;

			tok = strtok_r(NULL, " \t\n", &save);
			if (!tok)
				break;
			sum += strtoull(tok, &end, 10);
			if (*end)
				break;
		}
		if (i < ncpu)
			continue;
		while ((tok = strtok_r(NULL, " \t\n,", &save)))
			if (!strncmp(tok, "nvme", 4))
				nvme = 1;
		s->all += sum;
		if (nvme)
			s->nvme += sum;
	}
	fclose(f);
	return 0;
}

static int kv_add(struct kvlist *l, const char *name, double v)
{
	struct kv *n = realloc(l->v, (l->n + 1) * sizeof(*n));

	if (!n)
		return -1;
	l->v = n;
	snprintf(n[l->n].name, KV_NAME_LEN, "%s", name);
	n[l->n++].v = v;
	return 0;
}

const struct kv *kv_find(const struct kvlist *l, const char *name)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].name, name))
			return &l->v[i];
	return NULL;
}

void kv_free(struct kvlist *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/*
 * kv_lines: the skeleton of every "one value per line" capture: open,
 * feed each line (with its number) to parse, which adds to l, returns 0,
 * or prints "<file>:<line>: ..." and returns -1; on any error l is freed.
 */
static int kv_lines(const char *path, struct kvlist *l,
		    int (*parse)(const char *path, int lineno, char *line,
				 struct kvlist *l))
{
	char line[4096];
	FILE *f = open_or_complain(path);
	int lineno = 0;

	l->v = NULL;
	l->n = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (parse(path, ++lineno, line, l)) {
			fclose(f);
			kv_free(l);
			return -1;
		}
	}
	fclose(f);
	return 0;
}

/* kprobe_profile: "<event> <hits> <misses>"; '#' starts a comment. */
static int kprobe_line(const char *path, int lineno, char *line,
		       struct kvlist *l)
{
	char name[KV_NAME_LEN];
	double v, extra;

	if (sscanf(line, " %63s", name) != 1 || name[0] == '#')
		return 0;
	if (sscanf(line, " %63s %lf %lf", name, &v, &extra) != 3) {
		fprintf(stderr, "%s:%d: expected %s, got \"%.*s\"\n", path,
			lineno, "\"<event> <hits> <misses>\"",
			(int)strcspn(line, "\n"), line);
		return -1;
	}
	return kv_add(l, name, v);
}

/*
 * poll-stats-*.txt: guest/cell.sh prefixes each line of every
 * /sys/kernel/debug/block/<disk>/hctx<N>/poll_stats with its path, so a
 * line is "<disk>/hctx<N>/poll_stats <context>_<counter> <value>"; plain
 * "<key> <value>" lines are accepted too. Values are summed per key over
 * all hardware queues.
 */
static int pollstats_line(const char *path, int lineno, char *line,
			  struct kvlist *l)
{
	char a[256], b[256], c[256], *end;
	const char *key = NULL, *val = NULL;
	struct kv *k;
	double v;
	int got = sscanf(line, " %255s %255s %255s", a, b, c);

	if (got < 1 || a[0] == '#')
		return 0;
	if (got == 2) {
		key = a;
		val = b;
	} else if (got == 3) {
		key = b;
		val = c;
	}
	v = val ? strtod(val, &end) : 0;
	if (!val || *end || end == val) {
		fprintf(stderr,
			"%s:%d: expected \"[<disk>/hctx<N>/poll_stats] <key> <value>\", got \"%.*s\"\n",
			path, lineno, (int)strcspn(line, "\n"), line);
		return -1;
	}
	k = (struct kv *)kv_find(l, key);
	if (k) {
		k->v += v;
		return 0;
	}
	return kv_add(l, key, v);
}

/* Strict "<key> <number>" lines, each key once ('#' comments, blanks). */
static int kvfile_line(const char *path, int lineno, char *line,
		       struct kvlist *l)
{
	char k[KV_NAME_LEN], v[64], extra[2], *end;
	double x;
	int got = sscanf(line, " %63s %63s %1s", k, v, extra);

	if (got < 1 || k[0] == '#')
		return 0;
	x = got == 2 ? strtod(v, &end) : 0;
	if (got != 2 || *end || x < 0) {
		fprintf(stderr, "%s:%d: expected \"<key> <non-negative number>\", got \"%.*s\"\n",
			path, lineno, (int)strcspn(line, "\n"), line);
		return -1;
	}
	if (kv_find(l, k)) {
		fprintf(stderr, "%s:%d: %s twice\n", path, lineno, k);
		return -1;
	}
	return kv_add(l, k, x);
}

int kvfile_load(const char *path, struct kvlist *l)
{
	return kv_lines(path, l, kvfile_line);
}

int pollstats_load(const char *path, struct kvlist *l)
{
	return kv_lines(path, l, pollstats_line);
}

int kprobes_load(const char *path, struct kvlist *l)
{
	return kv_lines(path, l, kprobe_line);
}

/*
 * perf stat -x, : "<value>,<unit>,<event>,<run time>,<pct>,..."; comment
 * and blank lines skipped, "<not counted>"/"<not supported>" ignored.
 * msec counters (task-clock, cpu-clock) are converted to ns and get
 * "_ns" appended to their name.
 */
static int perfstat_line(const char *path, int lineno, char *line,
			 struct kvlist *l)
{
	char *val, *unit, *event, *save, *end;
	char name[KV_NAME_LEN];
	double v;

	line[strcspn(line, "\n")] = '\0';
	if (!line[0] || line[0] == '#')
		return 0;
	val = line;
	unit = strchr(val, ',');
	event = unit ? strchr(unit + 1, ',') : NULL;
	if (!event) {
		fprintf(stderr,
			"%s:%d: expected \"<value>,<unit>,<event>,...\"\n",
			path, lineno);
		return -1;
	}
	*unit++ = '\0';
	*event++ = '\0';
	strtok_r(event, ",", &save);
	if (val[0] == '<')
		return 0;
	errno = 0;
	v = strtod(val, &end);
	if (errno || end == val || *end) {
		fprintf(stderr, "%s:%d: \"%s\" is not a number\n", path,
			lineno, val);
		return -1;
	}
	if (!strncmp(unit, "msec", 4)) {
		v *= 1e6;
		snprintf(name, sizeof(name), "%.58s_ns", event);
	} else {
		snprintf(name, sizeof(name), "%s", event);
	}
	return kv_add(l, name, v);
}

int perfstat_load(const char *path, struct kvlist *l)
{
	return kv_lines(path, l, perfstat_line);
}

/*
 * The counters' change over a cell: out = after - before for every key of
 * after, except skip (a gauge, or NULL). A key missing from before counts
 * as 0 if missing_is_zero, else is an error; a counter that went
 * backwards is an error. Errors name the files; out is then empty.
 */
int kv_delta(const struct kvlist *before, const char *before_path,
	     const struct kvlist *after, const char *after_path,
	     int missing_is_zero, const char *skip, struct kvlist *out)
{
	unsigned int i;

	out->v = NULL;
	out->n = 0;
	for (i = 0; i < after->n; i++) {
		const struct kv *a = &after->v[i];
		const struct kv *b = kv_find(before, a->name);

		if (skip && !strcmp(a->name, skip))
			continue;
		if (!b && !missing_is_zero) {
			fprintf(stderr, "%s: key %s missing from %s\n",
				after_path, a->name, before_path);
			goto err;
		}
		if (b && a->v < b->v) {
			fprintf(stderr, "%s: %s went backwards (%s: %.17g, here %.17g)\n",
				after_path, a->name, before_path, b->v, a->v);
			goto err;
		}
		if (kv_add(out, a->name, a->v - (b ? b->v : 0)))
			goto err;
	}
	return 0;
err:
	kv_free(out);
	return -1;
}
