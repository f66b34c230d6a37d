// SPDX-License-Identifier: GPL-2.0
/*
 * setslice: run a command with a custom EEVDF slice (Linux >= 6.12).
 *
 *   setslice SLICE_NS COMMAND [ARG]...
 *
 * Sets SCHED_OTHER with sched_attr.sched_runtime = SLICE_NS on itself
 * (the kernel clamps it to 0.1..100 ms) and execs COMMAND; threads and
 * children inherit the slice (unless SCHED_RESET_ON_FORK).
 * Build: gcc -O2 -Wall -Wextra -Werror -static -o setslice setslice.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

struct sched_attr_v1 {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

int main(int argc, char **argv)
{
	struct sched_attr_v1 a;
	char *end;
	unsigned long long ns;

	if (argc < 3) {
		fprintf(stderr, "usage: setslice SLICE_NS COMMAND [ARG]...\n");
		return 2;
	}
	errno = 0;
	ns = strtoull(argv[1], &end, 10);
	if (errno || *end || ns == 0) {
		fprintf(stderr, "setslice: bad slice '%s'\n", argv[1]);
		return 2;
	}
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.sched_policy = SCHED_OTHER;
	a.sched_runtime = ns;
	if (syscall(SYS_sched_setattr, 0, &a, 0)) {
		perror("setslice: sched_setattr");
		return 1;
	}
	execvp(argv[2], argv + 2);
	perror("setslice: exec");
	return 127;
}
