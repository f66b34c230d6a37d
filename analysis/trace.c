// SPDX-License-Identifier: GPL-2.0
/*
 * trace.txt.gz (guest/trace.sh): the ftrace text of a traced cell's
 * window, nop tracer, trace_clock x86-tsc (timestamps are raw ticks),
 * with the events raw_syscalls:sys_enter/sys_exit (the I/O system calls
 * only), block:block_rq_issue/block_rq_complete, sched:sched_wakeup,
 * sched:sched_switch, timer:hrtimer_expire_entry and two trace_marker
 * lines "pb_clock <ns>" (CLOCK_MONOTONIC at the window's start and end),
 * whose ratio gives ns per tick. Lines:
 *
 *   TASK-PID [CPU] FLAGS TIMESTAMP: EVENT: PAYLOAD
 *
 * (TASK is "<...>" when the comm was not cached: the pid is what counts).
 *
 * Each I/O task (a pid whose I/O system call issued a request; QD1: one
 * request in flight per task) is followed through its calls: sys_enter,
 * the first block_rq_issue after it (in the task's own context, else in
 * another one when this task is the one waiting for it), the first
 * block_rq_complete of that request's device and sector, then, when the
 * task was off its vCPU at the completion, the wake-up and the switch
 * back in, and sys_exit. Its steps (trace.h) add up to exit - enter:
 *
 *   submit = issue - enter          device = D (the disk's set latency)
 *   find   = complete - (issue + D) wake   = wake-up - complete
 *   runq   = switch-in - wake-up    return = exit - max(complete, switch-in)
 *
 * A task asleep at the completion is woken by the first sched_wakeup of
 * its pid after it; a task off its vCPU but runnable (switched out with
 * prev_state R, or woken before the completion) needs no wake-up: wake is
 * 0 and its runq wait runs from the completion. A task on its vCPU has
 * wake = runq = 0.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

const char *const trace_step_names[TS_NR] = {
	"submit", "device", "find", "wake", "runq", "return",
};

enum ev_kind {
	EV_NONE, EV_ENTER, EV_EXIT, EV_ISSUE, EV_COMPLETE, EV_WAKEUP,
	EV_SWITCH, EV_MARK,
};

struct ev {
	enum ev_kind kind;
	int pid;		/* the context's pid */
	double ts;		/* ticks */
	unsigned int major, minor;
	unsigned long long sector;
	int pid2;		/* woken pid; switch: prev_pid */
	int next_pid;
	int prev_runnable;	/* switch: prev_state R (preempted) */
	double mark_ns;
};

/* An I/O's instants, in ticks, until the scale is known. */
struct raw_io {
	double enter, issue, complete, wakeup, switchin, exit;
	enum trace_at at;
};

struct task {
	int pid;
	int in_call, has_issue, has_complete, has_wakeup, has_switchin;
	int oncpu, runnable, ios, no_request;
	double no_request_ticks;	/* summed over calls without a request */
	unsigned int major, minor;
	unsigned long long sector;
	struct raw_io io;
};

struct parser {
	const char *name;
	unsigned int line;
	struct task *task;
	unsigned int nr_task;
	struct raw_io *raw;
	unsigned int nr_raw, cap_raw;
	double mark_tick[2], mark_ns[2];
	struct trace *t;
};

static struct task *task_of(struct parser *p, int pid, int create)
{
	struct task *n;
	unsigned int i;

	for (i = 0; i < p->nr_task; i++)
		if (p->task[i].pid == pid)
			return &p->task[i];
	if (!create)
		return NULL;
	n = realloc(p->task, (p->nr_task + 1) * sizeof(*n));
	if (!n)
		return NULL;
	p->task = n;
	n = &p->task[p->nr_task++];
	memset(n, 0, sizeof(*n));
	n->pid = pid;
	return n;
}

/* "TASK-PID [CPU] FLAGS TS: EVENT: PAYLOAD" -> pid, ts, event, payload. */
static int split_line(char *line, int *pid, double *ts, char **event,
		      char **payload)
{
	char *cpu = line, *dash, *s, *tok, *end;

	for (;;) {
		cpu = strchr(cpu, '[');
		if (!cpu)
			return -1;
		s = cpu + 1;
		while (isdigit((unsigned char)*s))
			s++;
		if (cpu > line && cpu[-1] == ' ' && s > cpu + 1 && *s == ']')
			break;
		cpu++;
	}
	/* TASK-PID, perhaps followed by "(TGID)": the pid after the last '-'. */
	end = memchr(line, '(', cpu - line);
	if (!end || (end > line && end[-1] != ' '))
		end = cpu;
	*end = '\0';
	dash = strrchr(line, '-');
	if (!dash || !isdigit((unsigned char)dash[1]))
		return -1;
	*pid = strtol(dash + 1, NULL, 10);
	/* FLAGS (absent without irq-info), then TS ending in ':'. */
	s++;
	tok = strtok_r(s, " \t", &end);
	if (tok && tok[strlen(tok) - 1] != ':')
		tok = strtok_r(NULL, " \t", &end);
	if (!tok || tok[strlen(tok) - 1] != ':' ||
	    !isdigit((unsigned char)*tok))
		return -1;
	tok[strlen(tok) - 1] = '\0';
	/* x86-tsc: integer ticks; a ns clock's sec.usec: ns, us resolution. */
	*ts = strtod(tok, &s);
	if (*s)
		return -1;
	if (strchr(tok, '.'))
		*ts *= 1e9;
	tok = strtok_r(NULL, " \t", &end);
	if (!tok || tok[strlen(tok) - 1] != ':')
		return -1;
	tok[strlen(tok) - 1] = '\0';
	*event = tok;
	*payload = end ? end + strspn(end, " \t") : (char *)"";
	return 0;
}

/* "MAJ,MIN RWBS [BYTES] (CMD) SECTOR + NR ...": device and sector. */
static int parse_rq(const char *s, struct ev *e)
{
	const char *plus = strstr(s, " + "), *b;

	if (sscanf(s, "%u,%u", &e->major, &e->minor) != 2 || !plus)
		return -1;
	for (b = plus; b > s && isdigit((unsigned char)b[-1]); b--)
		;
	if (b == plus)
		return -1;
	e->sector = strtoull(b, NULL, 10);
	return 0;
}

static int int_after(const char *s, const char *key, int *v)
{
	const char *k = strstr(s, key);
	char *end;

	if (!k)
		return -1;
	*v = strtol(k + strlen(key), &end, 10);
	return end == k + strlen(key) ? -1 : 0;
}

/* 1: an event of interest in *e; 0: a line to skip; -1: broken. */
static int parse_event(struct parser *p, char *line, struct ev *e)
{
	char *event, *pl, *state, *next;
	unsigned long lost;
	long nr, ret;

	memset(e, 0, sizeof(*e));
	line[strcspn(line, "\n")] = '\0';
	if (!line[strspn(line, " \t")] || line[strspn(line, " \t")] == '#')
		return 0;
	if (strstr(line, "[LOST ") &&
	    sscanf(strstr(line, "[LOST "), "[LOST %lu EVENTS]", &lost) == 1) {
		p->t->lost += lost;
		return 0;
	}
	if (split_line(line, &e->pid, &e->ts, &event, &pl)) {
		fprintf(stderr, "%s:%u: not an ftrace line\n", p->name, p->line);
		return -1;
	}
	if (!strcmp(event, "sys_enter") || !strcmp(event, "sys_exit")) {
		e->kind = strcmp(event, "sys_exit") ? EV_ENTER : EV_EXIT;
		if (sscanf(pl, e->kind == EV_ENTER ? "NR %ld (" : "NR %ld = %ld",
			   &nr, &ret) < 1)
			goto bad;
	} else if (!strcmp(event, "block_rq_issue") ||
		   !strcmp(event, "block_rq_complete")) {
		e->kind = strcmp(event, "block_rq_issue") ? EV_COMPLETE :
							     EV_ISSUE;
		if (parse_rq(pl, e))
			goto bad;
	} else if (!strcmp(event, "sched_wakeup")) {
		e->kind = EV_WAKEUP;
		if (int_after(pl, " pid=", &e->pid2))
			goto bad;
	} else if (!strcmp(event, "sched_switch")) {
		e->kind = EV_SWITCH;
		next = strstr(pl, " ==> ");
		state = strstr(pl, " prev_state=");
		if (!next || !state || state > next ||
		    int_after(pl, " prev_pid=", &e->pid2) ||
		    int_after(next, " next_pid=", &e->next_pid))
			goto bad;
		e->prev_runnable = state[12] == 'R';
	} else if (!strcmp(event, "tracing_mark_write")) {
		if (strncmp(pl, "pb_clock ", 9))
			return 0;
		e->kind = EV_MARK;
		if (sscanf(pl, "pb_clock %lf", &e->mark_ns) != 1)
			goto bad;
	} else {
		return 0;	/* hrtimer_expire_entry and the like */
	}
	return 1;
bad:
	fprintf(stderr, "%s:%u: cannot read this %s event\n", p->name, p->line,
		event);
	return -1;
}

static int keep_io(struct parser *p, struct task *k)
{
	struct raw_io *n;

	if (p->nr_raw == p->cap_raw) {
		p->cap_raw = p->cap_raw ? 2 * p->cap_raw : 256;
		n = realloc(p->raw, p->cap_raw * sizeof(*n));
		if (!n)
			return -1;
		p->raw = n;
	}
	p->raw[p->nr_raw++] = k->io;
	k->ios++;
	return 0;
}

/* The request issued from another context: the task waiting longest. */
static struct task *issue_owner(struct parser *p, int ctx)
{
	struct task *k = task_of(p, ctx, 0), *best = NULL;
	unsigned int i;

	if (k && k->in_call)
		return k->has_issue ? NULL : k;
	for (i = 0; i < p->nr_task; i++) {
		k = &p->task[i];
		if (k->in_call && !k->has_issue &&
		    (!best || k->io.enter < best->io.enter))
			best = k;
	}
	return best;
}

static int step(struct parser *p, const struct ev *e)
{
	struct task *k;
	unsigned int i;

	switch (e->kind) {
	case EV_ENTER:
		k = task_of(p, e->pid, 1);
		if (!k)
			return -1;
		if (k->in_call)
			p->t->dropped++;	/* an enter without its exit */
		memset(&k->io, 0, sizeof(k->io));
		k->in_call = 1;
		k->has_issue = k->has_complete = 0;
		k->has_wakeup = k->has_switchin = 0;
		k->oncpu = 1;		/* it is running its system call */
		k->runnable = 0;
		k->io.enter = e->ts;
		break;
	case EV_EXIT:
		k = task_of(p, e->pid, 0);
		if (!k || !k->in_call)
			break;		/* entered before the window */
		k->in_call = 0;
		k->io.exit = e->ts;
		if (!k->has_issue) {
			k->no_request++;
			k->no_request_ticks += k->io.exit - k->io.enter;
		}
		else if (!k->has_complete ||
			 (k->io.at != TA_ONCPU && !k->has_switchin))
			p->t->dropped++;
		else if (keep_io(p, k))
			return -1;
		break;
	case EV_ISSUE:
		k = issue_owner(p, e->pid);
		if (!k)
			break;
		k->has_issue = 1;
		k->io.issue = e->ts;
		k->major = e->major;
		k->minor = e->minor;
		k->sector = e->sector;
		break;
	case EV_COMPLETE:
		for (i = 0; i < p->nr_task; i++) {
			k = &p->task[i];
			if (!k->in_call || !k->has_issue || k->has_complete ||
			    k->major != e->major || k->minor != e->minor ||
			    k->sector != e->sector)
				continue;
			k->has_complete = 1;
			k->io.complete = e->ts;
			k->io.at = k->oncpu ? TA_ONCPU :
				   k->runnable ? TA_RUNNABLE : TA_ASLEEP;
			break;
		}
		break;
	case EV_WAKEUP:
		k = task_of(p, e->pid2, 0);
		if (!k || !k->in_call || k->oncpu)
			break;
		if (!k->has_complete) {
			k->runnable = 1;	/* woken before completion */
		} else if (k->io.at == TA_ASLEEP && !k->has_wakeup) {
			k->has_wakeup = 1;
			k->io.wakeup = e->ts;
		}
		break;
	case EV_SWITCH:
		k = task_of(p, e->pid2, 0);
		if (k && k->in_call && e->pid2) {
			k->oncpu = 0;
			k->runnable = e->prev_runnable;
		}
		k = task_of(p, e->next_pid, 0);
		if (!k || !k->in_call || !e->next_pid)
			break;
		k->oncpu = 1;
		k->runnable = 0;
		if (k->has_complete && k->io.at != TA_ONCPU &&
		    !k->has_switchin &&
		    (k->io.at == TA_RUNNABLE || k->has_wakeup)) {
			k->has_switchin = 1;
			k->io.switchin = e->ts;
		}
		break;
	case EV_MARK:
		/* The first and the last: the window's, then syscall-edge's. */
		i = p->t->markers ? 1 : 0;
		p->mark_tick[i] = e->ts;
		p->mark_ns[i] = e->mark_ns;
		p->t->markers++;
		break;
	default:
		break;
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median and mean of x[0..n) (sorted in place); NAN when n is 0. */
static void med_mean(double *x, unsigned int n, double *med, double *mean)
{
	double sum = 0;
	unsigned int i;

	*med = *mean = NAN;
	if (!n)
		return;
	for (i = 0; i < n; i++)
		sum += x[i];
	*mean = sum / n;
	qsort(x, n, sizeof(*x), cmp_double);
	*med = n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* Ticks -> ns with the markers' scale, and the steps of every I/O. */
static int finish(struct parser *p, double dev_ns)
{
	struct trace *t = p->t;
	double s, d = isnan(dev_ns) ? 0 : dev_ns, *x;
	unsigned int i, k;

	/*
	 * Only I/O tasks count: other pids' reads need no request. The calls
	 * of tasks that issued none are syscall-edge's (guest/tools): their
	 * traced enter-to-exit time is what the tracepoints see of a call
	 * that does nothing.
	 */
	double edge_ticks = 0;

	t->edge_calls = 0;
	for (i = 0; i < p->nr_task; i++) {
		if (!p->task[i].ios) {
			t->edge_calls += p->task[i].no_request;
			edge_ticks += p->task[i].no_request_ticks;
			continue;
		}
		t->tasks++;
		t->no_request += p->task[i].no_request;
	}
	t->nr_io = p->nr_raw;
	for (k = 0; k < TS_NR; k++)
		t->median[k] = t->mean[k] = NAN;
	t->syscall_median = t->syscall_mean = NAN;
	t->tick_ns = NAN;
	/* Two markers (the window), or four (and syscall-edge's calls). */
	if ((t->markers == 2 || t->markers == 4) && p->mark_tick[1] > p->mark_tick[0] &&
	    p->mark_ns[1] > p->mark_ns[0])
		t->tick_ns = (p->mark_ns[1] - p->mark_ns[0]) /
			     (p->mark_tick[1] - p->mark_tick[0]);
	t->io = calloc(p->nr_raw + 1, sizeof(*t->io));
	x = calloc(p->nr_raw + 1, sizeof(*x));
	if (!t->io || !x) {
		free(x);
		return -1;
	}
	s = t->tick_ns;
	t->edge_traced_ns = t->edge_calls ? edge_ticks / t->edge_calls * s : NAN;
	for (i = 0; i < p->nr_raw; i++) {
		const struct raw_io *r = &p->raw[i];
		struct trace_io *io = &t->io[i];
		double back = r->at == TA_ONCPU ? r->complete : r->switchin;
		double woken;

		io->at = r->at;
		t->at[r->at]++;
		io->step[TS_SUBMIT] = (r->issue - r->enter) * s;
		io->step[TS_DEVICE] = dev_ns;
		io->step[TS_FIND] = (r->complete - r->issue) * s - d;
		io->step[TS_WAKE] = r->at == TA_ASLEEP ?
				    (r->wakeup - r->complete) * s : 0;
		woken = r->at == TA_ASLEEP ? r->wakeup : r->complete;
		io->step[TS_RUNQ] = r->at == TA_ONCPU ? 0 :
				    (r->switchin - woken) * s;
		io->step[TS_RETURN] = (r->exit - back) * s;
		io->syscall_ns = (r->exit - r->enter) * s;
		t->neg_find += io->step[TS_FIND] < 0;
	}
	if (isnan(s)) {
		free(x);
		return 0;
	}
	for (k = 0; k < TS_NR; k++) {
		for (i = 0; i < t->nr_io; i++)
			x[i] = t->io[i].step[k];
		med_mean(x, t->nr_io, &t->median[k], &t->mean[k]);
	}
	for (i = 0; i < t->nr_io; i++)
		x[i] = t->io[i].syscall_ns;
	med_mean(x, t->nr_io, &t->syscall_median, &t->syscall_mean);
	free(x);
	return 0;
}

/*
 * Parse f (name for messages); dev_ns is the device's set latency, NAN
 * when it has none (then find holds the device's time too). 0: *t filled
 * (t->tick_ns NAN when the trace lacks its two markers: no steps);
 * -1: broken, with a message naming the file and line.
 */
int trace_parse(FILE *f, const char *name, double dev_ns, struct trace *t)
{
	struct parser p = { .name = name, .t = t };
	char *line = NULL;
	size_t cap = 0;
	struct ev e;
	int r = 0;

	memset(t, 0, sizeof(*t));
	while (!r && getline(&line, &cap, f) >= 0) {
		p.line++;
		r = parse_event(&p, line, &e);
		if (r > 0)
			r = step(&p, &e);
	}
	free(line);
	if (!r)
		r = finish(&p, dev_ns);
	free(p.task);
	free(p.raw);
	if (r)
		trace_free(t);
	return r;
}

/* trace.txt.gz through gzip -dc (no zlib dependency). */
int trace_load(const char *path, double dev_ns, struct trace *t)
{
	char *cmd, *q;
	size_t i, n = 0;
	FILE *f;
	int r, st;

	/* Single-quote the path for the shell: ' becomes '\''. */
	q = malloc(4 * strlen(path) + 3);
	if (!q)
		return -1;
	q[n++] = '\'';
	for (i = 0; path[i]; i++) {
		if (path[i] == '\'') {
			memcpy(q + n, "'\\''", 4);
			n += 4;
		} else {
			q[n++] = path[i];
		}
	}
	q[n++] = '\'';
	q[n] = '\0';
	r = asprintf(&cmd, "gzip -dc %s", q);
	free(q);
	if (r < 0)
		return -1;
	f = popen(cmd, "r");
	free(cmd);
	if (!f) {
		perror("popen gzip");
		return -1;
	}
	r = trace_parse(f, path, dev_ns, t);
	st = pclose(f);
	if (!r && st) {
		fprintf(stderr, "%s: gzip -dc failed (status %d)\n", path, st);
		trace_free(t);
		r = -1;
	}
	return r;
}

void trace_free(struct trace *t)
{
	free(t->io);
	t->io = NULL;
	t->nr_io = 0;
}
