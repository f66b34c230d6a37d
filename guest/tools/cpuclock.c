// SPDX-License-Identifier: GPL-2.0
/*
 * cpuclock: each CPU's idle time, read on that CPU, with the clock of the
 * same read, for the edges of a measured window (guest/window.sh).
 *
 *   cpuclock [-l CPU] NCPU
 *
 * For every CPU K below NCPU it moves itself to K and reads
 * /proc/timer_list there: the kernel adds an idle period to a CPU's
 * idle_sleeptime only when the period ends, so a CPU that runs the reader
 * is not idle and its figure is current. Prints "cpu<K>_clock_ns N" ("now
 * at" of that read) and "cpu<K>_idle_ns N" (idle_sleeptime +
 * iowait_sleeptime). -l CPU reads that CPU last, -f CPU first: the CPU of
 * the measured task, so that the reader's own work on it falls outside
 * the window. One process does every read, so no fork or exec lands on
 * the measured CPU between its read and the window.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int read_on(int cpu)
{
	unsigned long long now = 0, idle = 0, iowait = 0, v;
	int cur = -1, found = 0;
	char line[512];
	cpu_set_t set;
	FILE *f;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "cpuclock: cannot move to CPU %d: %s\n", cpu,
			strerror(errno));
		return -1;
	}
	f = fopen("/proc/timer_list", "r");
	if (!f) {
		fprintf(stderr, "cpuclock: /proc/timer_list: %s\n",
			strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "now at %llu nsecs", &v) == 1)
			now = v;
		else if (sscanf(line, "cpu: %d", &cur) == 1)
			continue;
		else if (cur == cpu &&
			 sscanf(line, " .idle_sleeptime : %llu nsecs", &v) == 1)
			idle = v, found++;
		else if (cur == cpu &&
			 sscanf(line, " .iowait_sleeptime: %llu nsecs", &v) == 1)
			iowait = v, found++;
	}
	fclose(f);
	if (!now || found != 2) {
		fprintf(stderr, "cpuclock: no clock or idle times for CPU %d in /proc/timer_list\n",
			cpu);
		return -1;
	}
	printf("cpu%d_clock_ns %llu\ncpu%d_idle_ns %llu\n", cpu, now, cpu,
	       idle + iowait);
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: cpuclock [-f CPU | -l CPU] NCPU\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int first = -1, last = -1, ncpu, cpu, opt;
	char *end;

	while ((opt = getopt(argc, argv, "f:l:")) != -1) {
		switch (opt) {
		case 'f':
			first = strtol(optarg, &end, 10);
			if (*end || first < 0)
				usage();
			break;
		case 'l':
			last = strtol(optarg, &end, 10);
			if (*end || last < 0)
				usage();
			break;
		default:
			usage();
		}
	}
	if (optind != argc - 1 || (first >= 0 && last >= 0))
		usage();
	ncpu = strtol(argv[optind], &end, 10);
	if (*end || ncpu <= 0 || first >= ncpu || last >= ncpu)
		usage();
	if (first >= 0 && read_on(first))
		return 1;
	for (cpu = 0; cpu < ncpu; cpu++)
		if (cpu != first && cpu != last && read_on(cpu))
			return 1;
	if (last >= 0 && read_on(last))
		return 1;
	return fflush(stdout) ? 1 : 0;
}
