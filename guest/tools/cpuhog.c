// SPDX-License-Identifier: GPL-2.0
/*
 * cpuhog: the competitor. A CPU-bound loop pinned to one CPU that counts
 * fixed units of work, so its work rate beside a polling task against its
 * rate alone is the fairness cost of polling.
 *
 * Writes "key value" lines: units, wall_seconds, units_per_sec,
 * cpu_seconds, cpu_share (cpu_seconds / wall_seconds).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static double now(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One unit of work: a fixed number of dependent multiply-adds. */
static unsigned long work_unit(unsigned long x)
{
	int i;

	for (i = 0; i < 4096; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-c CPU] [-t SECONDS] [-o FILE]\n"
		"  -c CPU      pin to this CPU (default: not pinned)\n"
		"  -t SECONDS  run this long (default: 10; SIGTERM/SIGINT end early)\n"
		"  -o FILE     write results here (default: stdout)\n",
		prog);
	exit(2);
}

int main(int argc, char **argv)
{
	double seconds = 10, t0, t1, c0, c1;
	unsigned long units = 0, x = 1;
	const char *out = NULL;
	int cpu = -1, opt;
	char *end;
	FILE *f;

	while ((opt = getopt(argc, argv, "c:t:o:h")) != -1) {
		switch (opt) {
		case 'c':
			cpu = strtol(optarg, &end, 10);
			if (*end || cpu < 0)
				usage(argv[0]);
			break;
		case 't':
			seconds = strtod(optarg, &end);
			if (*end || seconds <= 0)
				usage(argv[0]);
			break;
		case 'o':
			out = optarg;
			break;
		default:
			usage(argv[0]);
		}
	}
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			fprintf(stderr, "cpuhog: cannot pin to CPU %d: %s\n",
				cpu, strerror(errno));
			return 1;
		}
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);

	t0 = now(CLOCK_MONOTONIC);
	c0 = now(CLOCK_PROCESS_CPUTIME_ID);
	while (!stop) {
		x = work_unit(x);
		units++;
		/* Checking the clock every 64 units keeps its cost negligible. */
		if (!(units & 63) && now(CLOCK_MONOTONIC) - t0 >= seconds)
			break;
	}
	t1 = now(CLOCK_MONOTONIC);
	c1 = now(CLOCK_PROCESS_CPUTIME_ID);

	f = out ? fopen(out, "w") : stdout;
	if (!f) {
		fprintf(stderr, "cpuhog: cannot write %s: %s\n", out, strerror(errno));
		return 1;
	}
	fprintf(f, "cpu %d\nunits %lu\nwall_seconds %.6f\nunits_per_sec %.3f\n"
		"cpu_seconds %.6f\ncpu_share %.4f\nchecksum %lu\n",
		cpu, units, t1 - t0, units / (t1 - t0), c1 - c0,
		(c1 - c0) / (t1 - t0), x & 0xff);
	if (out && fclose(f)) {
		fprintf(stderr, "cpuhog: cannot write %s: %s\n", out, strerror(errno));
		return 1;
	}
	return 0;
}
