// SPDX-License-Identifier: GPL-2.0
/*
 * syscall-edge: the cost of a read system call's way in and out that the
 * kernel's syscall tracepoints do not see, for the path breakdown.
 *
 *   syscall-edge N
 *
 * Times N preadv2() calls on a closed descriptor (they fail at once with
 * EBADF, so the kernel's work between the sys_enter and sys_exit
 * tracepoints is a few instructions that the trace itself measures) and N
 * pairs of back-to-back clock reads, the clock fio and uring-lat use
 * (CLOCK_MONOTONIC through the vDSO). Prints "call_ns MEAN" (clock read
 * to clock read around one call) and "clock_ns MEAN" (one clock read
 * to the next). With the tracepoints on, the analysis takes the traced
 * enter-to-exit time of these calls (comm syscall-edge) from call_ns -
 * clock_ns: what remains is libc's wrapper and the kernel's entry and
 * exit outside the tracepoints, which every traced I/O pays too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long long call = 0, clk = 0, t0, t1;
	char buf[64], *end;
	struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
	long i, n;

	n = argc == 2 ? strtol(argv[1], &end, 10) : 0;
	if (argc != 2 || *end || n <= 0) {
		fprintf(stderr, "usage: syscall-edge N (N > 0)\n");
		return 2;
	}
	for (i = 0; i < n; i++) {
		t0 = now_ns();
		if (preadv2(-1, &iov, 1, 0, 0) != -1 || errno != EBADF) {
			fprintf(stderr, "syscall-edge: preadv2(-1) did not fail with EBADF: %s\n",
				strerror(errno));
			return 1;
		}
		t1 = now_ns();
		call += t1 - t0;
		t0 = now_ns();
		t1 = now_ns();
		clk += t1 - t0;
	}
	printf("calls %ld\ncall_ns %.1f\nclock_ns %.1f\n", n, (double)call / n,
	       (double)clk / n);
	return 0;
}
