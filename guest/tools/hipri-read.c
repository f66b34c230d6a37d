// SPDX-License-Identifier: GPL-2.0
/*
 * hipri-read: synchronous polled reads, each error counted by its errno.
 *
 *   hipri-read DEVICE SECONDS
 *
 * Reads 4 KiB at pseudo-random aligned offsets of DEVICE (O_DIRECT) with
 * preadv2(RWF_HIPRI) until SECONDS have passed. Prints "reads N" and one "errno E N" line per
 * errno seen (95 is EOPNOTSUPP). fio stops a job at its first error or
 * reports only the first; a test that asks "did any polled read fail with
 * this errno" needs every one counted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <linux/fs.h>
#include <time.h>
#include <unistd.h>

#define BS 4096
#define MAX_ERRNO 4096

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static unsigned long errs[MAX_ERRNO];
	unsigned long long size, blocks, x = 88172645463325252ULL;
	unsigned long reads = 0;
	double end;
	void *buf;
	int fd, e;

	if (argc != 3 || atof(argv[2]) <= 0) {
		fprintf(stderr, "usage: hipri-read DEVICE SECONDS\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_DIRECT);
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &size) || size < BS) {
		perror(argv[1]);
		return 2;
	}
	if (posix_memalign(&buf, BS, BS))
		return 2;
	blocks = size / BS;
	end = now_s() + atof(argv[2]);
	while (now_s() < end) {
		struct iovec iov = { .iov_base = buf, .iov_len = BS };

		/* xorshift64: the same offsets every run. */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if (preadv2(fd, &iov, 1, (off_t)(x % blocks) * BS, RWF_HIPRI) < 0) {
			e = errno < MAX_ERRNO ? errno : 0;
			errs[e]++;
		}
		reads++;
	}
	printf("reads %lu\n", reads);
	for (e = 0; e < MAX_ERRNO; e++)
		if (errs[e])
			printf("errno %d %lu\n", e, errs[e]);
	return 0;
}
