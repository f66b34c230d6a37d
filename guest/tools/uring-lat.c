// SPDX-License-Identifier: GPL-2.0
/*
 * uring-lat: random O_DIRECT reads through io_uring with IOPOLL, with or
 * without IORING_SETUP_HYBRID_IOPOLL, and their latency as the
 * application sees it, in fio's json+ form.
 *
 *   uring-lat [-H] [-I] (-n IOS | -t SECONDS) [-r RAMP] [-q QD] [-b BS]
 *             [-s SEED] [-j NAME] [-o FILE] [-B CMD] [-A CMD] DEVICE
 *
 * It times IOS reads (-n) or every read it issues for SECONDS (-t), as
 * fio's number_ios and runtime do, after a ramp (-r) of RAMP untimed
 * reads with -n or RAMP seconds with -t (fio's ramp_time). Each phase
 * ends by reaping the reads it has in flight, so no read straddles the
 * ramp and the timed part.
 *
 * Each read's latency runs from just before the io_uring_enter() that
 * submits it to just after the io_uring_enter() that returned with its
 * completion (IOPOLL reaps completions only inside io_uring_enter()), on
 * CLOCK_MONOTONIC. At QD1 that is one system call per read, as fio's
 * io_uring engine with iodepth=1 and hipri=1 does it.
 *
 * -B and -A run a shell command right before the first timed read (after
 * the ramp) and right after the last completion, from this process, as
 * fio's exec_prerun and exec_postrun do: the harness snapshots its
 * counters there (guest/window.sh), so its window holds exactly the timed
 * reads (fio's also holds its ramp). A command that fails fails the run.
 *
 * Output: a fio-like JSON document, {"jobs":[{...}]}, whose "read" side
 * has total_ios, iops and lat_ns and clat_ns (the same histogram: there is
 * no separate submission latency) with fio's log-linear bins
 * (FIO_IO_U_PLAT_BITS 6, 29 groups, each bin by its midpoint), min, max,
 * mean, stddev and N; an empty "write" side; usr_cpu, sys_cpu (percent of
 * the measured wall time) and ctx (context switches) from getrusage(); and
 * the tool's own record under "uring_lat" (setup flags, the ramp's reads
 * and ns, CPU seconds).
 *
 * Raw system calls, no liburing: the binary is static and needs nothing
 * from the guest. The uapi headers of the build host may predate hybrid
 * polling, so the flag is defined here if they lack it.
 *
 * Exit status: 0 done; 1 an error (open, setup, a failed or short read);
 * 2 bad usage; 3 not supported here: io_uring itself, the hybrid flag,
 * O_DIRECT or polled I/O on this file (setup or first read failing with
 * EOPNOTSUPP or EINVAL).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>
#include <linux/io_uring.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#ifndef IORING_SETUP_HYBRID_IOPOLL
#define IORING_SETUP_HYBRID_IOPOLL	(1U << 17)	/* Linux 6.13 */
#endif

#define EXIT_USAGE	2
#define EXIT_UNSUPP	3

/* fio's stat.h */
#define PLAT_BITS	6
#define PLAT_VAL	(1 << PLAT_BITS)
#define PLAT_GROUP_NR	29
#define PLAT_NR		(PLAT_GROUP_NR * PLAT_VAL)

#define MAX_QD		1024
#define MAX_BS		(1U << 20)
#define MAX_SECONDS	UINT32_MAX	/* in ns, far from overflowing */
#define NSEC_PER_SEC	1000000000ULL

struct lat {
	uint64_t bins[PLAT_NR];
	uint64_t n, min, max;
	double mean, m2;	/* Welford */
};

struct ring {
	int fd;
	unsigned int flags;
	unsigned int *sq_head, *sq_tail, *sq_mask, *sq_array;
	unsigned int *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
	unsigned int sq_pending;	/* in the SQ ring, not yet submitted */
};

static const char *prog = "uring-lat";

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s [options] DEVICE\n"
		"  -n, --ios N       reads to time (give -n or -t)\n"
		"  -t, --runtime N   seconds to time reads for (give -n or -t)\n"
		"  -q, --qd N        reads in flight, 1-%d (default 1)\n"
		"  -b, --bs N        bytes per read, a multiple of 512 (default 4096)\n"
		"  -H, --hybrid      IORING_SETUP_HYBRID_IOPOLL as well as IOPOLL\n"
		"  -I, --irq         no IOPOLL: interrupt-driven io_uring\n"
		"  -r, --ramp N      untimed reads first, outside -B/-A: N reads with -n,\n"
		"                    N seconds with -t (default 0)\n"
		"  -s, --seed N      seed of the random offsets (default 1)\n"
		"  -j, --jobname S   jobname in the JSON (default uring-lat)\n"
		"  -o, --output F    write the JSON to F (default stdout)\n"
		"  -B, --exec-prerun CMD   run CMD (sh -c) right before the first read\n"
		"  -A, --exec-postrun CMD  run CMD (sh -c) right after the last completion\n"
		"  -h, --help\n"
		"exit: 0 ok, 1 error, 2 usage, 3 not supported here\n",
		prog, MAX_QD);
}

/* A bad number for option -c: say so, with the usage; EXIT_USAGE. */
static int bad_num(int c, const char *arg)
{
	fprintf(stderr, "%s: -%c: not a valid number here: '%s'\n", prog, c,
		arg);
	usage(stderr);
	return EXIT_USAGE;
}

static int parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *v)
{
	unsigned long long x;
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end || x < lo || x > hi)
		return -1;
	*v = x;
	return 0;
}

/* fio's plat_val_to_idx() */
static unsigned int plat_val_to_idx(uint64_t val)
{
	unsigned int msb, error_bits, base, offset, idx;

	msb = val ? 63 - __builtin_clzll(val) : 0;
	if (msb <= PLAT_BITS)
		return val;
	error_bits = msb - PLAT_BITS;
	base = (error_bits + 1) << PLAT_BITS;
	offset = (PLAT_VAL - 1) & (val >> error_bits);
	idx = base + offset;
	return idx < PLAT_NR - 1 ? idx : PLAT_NR - 1;
}

/*
 * fio's plat_idx_to_val(): a bin's midpoint, base + (k + 0.5) << e, which
 * is an integer for every bin above the exact ones (e >= 1).
 */
static uint64_t plat_idx_to_val(unsigned int idx)
{
	unsigned int error_bits;
	uint64_t base, k;

	if (idx < (PLAT_VAL << 1))
		return idx;
	error_bits = (idx >> PLAT_BITS) - 1;
	base = 1ULL << (error_bits + PLAT_BITS);
	k = idx % PLAT_VAL;
	return base + (k << error_bits) + (1ULL << (error_bits - 1));
}

static void lat_add(struct lat *l, uint64_t ns)
{
	double d;

	l->bins[plat_val_to_idx(ns)]++;
	if (!l->n || ns < l->min)
		l->min = ns;
	if (ns > l->max)
		l->max = ns;
	l->n++;
	d = ns - l->mean;
	l->mean += d / l->n;
	l->m2 += d * (ns - l->mean);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static uint64_t tv_us(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000ULL + tv->tv_usec;
}

/* xorshift64* */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

static int sys_setup(unsigned int entries, struct io_uring_params *p)
{
	return syscall(__NR_io_uring_setup, entries, p);
}

static int sys_enter(int fd, unsigned int submit, unsigned int min,
		     unsigned int flags)
{
	return syscall(__NR_io_uring_enter, fd, submit, min, flags, NULL, 0);
}

/* 0, or the errno of io_uring_setup(); the ring is mapped on success. */
static int ring_setup(struct ring *r, unsigned int entries, unsigned int flags)
{
	struct io_uring_params p;
	size_t sq_len, cq_len;
	void *sq, *cq;

	memset(&p, 0, sizeof(p));
	p.flags = flags;
	r->fd = sys_setup(entries, &p);
	if (r->fd < 0)
		return errno;
	r->flags = flags;

	sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (p.features & IORING_FEAT_SINGLE_MMAP) {
		if (cq_len > sq_len)
			sq_len = cq_len;
		cq_len = sq_len;
	}
	sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQ_RING);
	if (sq == MAP_FAILED)
		return errno;
	if (p.features & IORING_FEAT_SINGLE_MMAP) {
		cq = sq;
	} else {
		cq = mmap(NULL, cq_len, PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_CQ_RING);
		if (cq == MAP_FAILED)
			return errno;
	}
	r->sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe),
		       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		       r->fd, IORING_OFF_SQES);
	if (r->sqes == MAP_FAILED)
		return errno;

	r->sq_head = (unsigned int *)((char *)sq + p.sq_off.head);
	r->sq_tail = (unsigned int *)((char *)sq + p.sq_off.tail);
	r->sq_mask = (unsigned int *)((char *)sq + p.sq_off.ring_mask);
	r->sq_array = (unsigned int *)((char *)sq + p.sq_off.array);
	r->cq_head = (unsigned int *)((char *)cq + p.cq_off.head);
	r->cq_tail = (unsigned int *)((char *)cq + p.cq_off.tail);
	r->cq_mask = (unsigned int *)((char *)cq + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)((char *)cq + p.cq_off.cqes);
	r->sq_pending = 0;
	return 0;
}

static void queue_read(struct ring *r, int fd, void *buf, unsigned int len,
		       uint64_t off, uint64_t tag)
{
	unsigned int tail = *r->sq_tail;
	unsigned int i = tail & *r->sq_mask;
	struct io_uring_sqe *sqe = &r->sqes[i];

	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_READ;
	sqe->fd = fd;
	sqe->addr = (uintptr_t)buf;
	sqe->len = len;
	sqe->off = off;
	sqe->user_data = tag;
	r->sq_array[i] = i;
	__atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
	r->sq_pending++;
}

/*
 * Submit what is queued and wait for at least one completion. Returns 0
 * or -errno.
 */
static int submit_and_wait(struct ring *r)
{
	int ret;

	for (;;) {
		ret = sys_enter(r->fd, r->sq_pending, 1,
				IORING_ENTER_GETEVENTS);
		if (ret >= 0)
			break;
		if (errno != EINTR && errno != EAGAIN && errno != EBUSY)
			return -errno;
	}
	r->sq_pending -= ret;
	return 0;
}

struct slot {
	void *buf;
	uint64_t off;
	uint64_t t0;		/* before the io_uring_enter() that submitted it */
	int busy;		/* queued or in flight */
	int fresh;		/* queued, t0 not yet set */
};

struct job {
	const char *dev;
	int fd;
	uint64_t ios, ramp;		/* reads: -n and its ramp, or 0 */
	uint64_t runtime_ns, ramp_ns;	/* -t and its ramp, or 0 */
	uint64_t done;			/* reads reaped, ramp included */
	uint64_t ramp_done, ramp_wall_ns;
	uint64_t seed, nblocks;
	unsigned int qd, bs;
	struct slot *slots;
	struct lat lat;
	uint64_t wall_ns;
	struct rusage ru0, ru1;
	const char *prerun, *postrun;
};

/* Run a -B/-A command; 0, or EXIT_FAILURE if it did not exit 0. */
static int exec_hook(const char *opt, const char *cmd)
{
	int st;

	if (!cmd)
		return 0;
	fflush(NULL);
	st = system(cmd);
	if (st == -1) {
		fprintf(stderr, "%s: %s '%s': %s\n", prog, opt, cmd,
			strerror(errno));
		return EXIT_FAILURE;
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "%s: %s '%s' failed (%s %d)\n", prog, opt, cmd,
			WIFEXITED(st) ? "exit status" : "signal",
			WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
		return EXIT_FAILURE;
	}
	return 0;
}

static int fail_read(const struct job *j, uint64_t done, uint64_t off,
		     int res)
{
	if (!done && (res == -EOPNOTSUPP || res == -EINVAL)) {
		fprintf(stderr,
			"%s: %s: first read failed: %s: polled O_DIRECT reads are not supported on this file\n",
			prog, j->dev, strerror(-res));
		return EXIT_UNSUPP;
	}
	if (res < 0)
		fprintf(stderr, "%s: %s: read of %u bytes at %" PRIu64 ": %s\n",
			prog, j->dev, j->bs, off, strerror(-res));
	else
		fprintf(stderr,
			"%s: %s: short read at %" PRIu64 ": %d of %u bytes\n",
			prog, j->dev, off, res, j->bs);
	return EXIT_FAILURE;
}

/*
 * One phase: reads qd at a time until count have been issued or, with
 * count 0, until the clock has passed deadline; then the ones in flight
 * are reaped, so that the phase ends with none. Each read's latency goes
 * to lat unless it is NULL (the ramp). Returns 0 or an exit status.
 */
static int run_phase(struct job *j, struct ring *r, uint64_t count,
		     uint64_t deadline, struct lat *lat)
{
	uint64_t issued = 0;
	unsigned int i, inflight = 0;
	int stop = 0;

	for (;;) {
		uint64_t t0, t1;
		unsigned int head, tail;
		int ret;

		/* refill: every free slot gets a new read */
		for (i = 0; i < j->qd && !stop; i++) {
			struct slot *s = &j->slots[i];

			if (s->busy)
				continue;
			s->off = (rnd(&j->seed) % j->nblocks) * j->bs;
			queue_read(r, j->fd, s->buf, j->bs, s->off, i);
			issued++;
			inflight++;
			s->busy = 1;
			s->fresh = 1;
			if (count && issued == count)
				stop = 1;
		}
		if (!inflight)
			break;

		t0 = now_ns();
		for (i = 0; i < j->qd; i++) {
			if (j->slots[i].fresh) {
				j->slots[i].t0 = t0;
				j->slots[i].fresh = 0;
			}
		}
		ret = submit_and_wait(r);
		t1 = now_ns();
		if (ret) {
			if (!j->done && (ret == -EOPNOTSUPP || ret == -EINVAL))
				return fail_read(j, 0, j->slots[0].off, ret);
			fprintf(stderr, "%s: io_uring_enter: %s\n", prog,
				strerror(-ret));
			return EXIT_FAILURE;
		}

		head = *r->cq_head;
		tail = __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE);
		for (; head != tail; head++) {
			struct io_uring_cqe *cqe = &r->cqes[head & *r->cq_mask];
			struct slot *s;

			if (cqe->user_data >= j->qd) {
				fprintf(stderr, "%s: unexpected completion %llu\n",
					prog, (unsigned long long)cqe->user_data);
				return EXIT_FAILURE;
			}
			s = &j->slots[cqe->user_data];
			if (!s->busy || s->fresh) {
				fprintf(stderr, "%s: completion of idle slot %u\n",
					prog, (unsigned int)cqe->user_data);
				return EXIT_FAILURE;
			}
			if (cqe->res != (int)j->bs)
				return fail_read(j, j->done, s->off, cqe->res);
			if (lat)
				lat_add(lat, t1 - s->t0);
			j->done++;
			s->busy = 0;
			inflight--;
		}
		__atomic_store_n(r->cq_head, head, __ATOMIC_RELEASE);
		if (!count && t1 >= deadline)
			stop = 1;
	}
	return 0;
}

/* The ramp, then the timed reads between the -B and -A commands. */
static int run(struct job *j, struct ring *r)
{
	uint64_t t_start;
	int ret;

	if (j->ramp || j->ramp_ns) {
		t_start = now_ns();
		ret = run_phase(j, r, j->ramp, t_start + j->ramp_ns, NULL);
		if (ret)
			return ret;
		j->ramp_wall_ns = now_ns() - t_start;
		j->ramp_done = j->done;
	}
	if (exec_hook("--exec-prerun", j->prerun))
		return EXIT_FAILURE;
	getrusage(RUSAGE_SELF, &j->ru0);
	t_start = now_ns();
	ret = run_phase(j, r, j->ios, t_start + j->runtime_ns, &j->lat);
	if (ret)
		return ret;
	getrusage(RUSAGE_SELF, &j->ru1);
	j->wall_ns = now_ns() - t_start;
	return exec_hook("--exec-postrun", j->postrun);
}

/* Newton's square root: the Makefile links no libm. */
static double sqrt_d(double x)
{
	double y = x > 1 ? x : 1;
	int i;

	if (x <= 0)
		return 0;
	for (i = 0; i < 200; i++) {
		double n = (y + x / y) / 2;

		if (n >= y)
			break;
		y = n;
	}
	return y;
}

static void print_lat(FILE *f, const char *name, const struct lat *l)
{
	double sd = l->n > 1 ? sqrt_d(l->m2 / (l->n - 1)) : 0.0;
	const char *sep = "";
	unsigned int i;

	fprintf(f,
		"        \"%s\" : {\n"
		"          \"min\" : %" PRIu64 ",\n"
		"          \"max\" : %" PRIu64 ",\n"
		"          \"mean\" : %.6f,\n"
		"          \"stddev\" : %.6f,\n"
		"          \"N\" : %" PRIu64 ",\n"
		"          \"bins\" : {",
		name, l->min, l->max, l->mean, sd, l->n);
	for (i = 0; i < PLAT_NR; i++) {
		if (!l->bins[i])
			continue;
		fprintf(f, "%s\n            \"%" PRIu64 "\" : %" PRIu64, sep,
			plat_idx_to_val(i), l->bins[i]);
		sep = ",";
	}
	fprintf(f, "%s}\n        }", *sep ? "\n          " : "");
}

/* Minimal JSON string: the few characters that need escaping. */
static void print_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void print_json(FILE *f, const struct job *j, const char *name,
		       unsigned int flags)
{
	static const struct lat empty;
	uint64_t usr = tv_us(&j->ru1.ru_utime) - tv_us(&j->ru0.ru_utime);
	uint64_t sys = tv_us(&j->ru1.ru_stime) - tv_us(&j->ru0.ru_stime);
	long nvcsw = j->ru1.ru_nvcsw - j->ru0.ru_nvcsw;
	long nivcsw = j->ru1.ru_nivcsw - j->ru0.ru_nivcsw;
	double wall_s = j->wall_ns / 1e9;
	double wall_us = j->wall_ns / 1e3;
	uint64_t bytes = j->lat.n * j->bs;
	uint64_t runtime_ms = j->wall_ns / 1000000;

	fprintf(f, "{\n  \"fio version\" : \"uring-lat\",\n  \"jobs\" : [\n");
	fprintf(f, "    {\n      \"jobname\" : ");
	print_str(f, name);
	fprintf(f,
		",\n      \"groupid\" : 0,\n      \"error\" : 0,\n"
		"      \"job_runtime\" : %" PRIu64 ",\n", runtime_ms);
	fprintf(f,
		"      \"read\" : {\n"
		"        \"io_bytes\" : %" PRIu64 ",\n"
		"        \"io_kbytes\" : %" PRIu64 ",\n"
		"        \"bw_bytes\" : %.0f,\n"
		"        \"bw\" : %.0f,\n"
		"        \"iops\" : %.6f,\n"
		"        \"runtime\" : %" PRIu64 ",\n"
		"        \"total_ios\" : %" PRIu64 ",\n",
		bytes, bytes / 1024, wall_s > 0 ? bytes / wall_s : 0.0,
		wall_s > 0 ? bytes / 1024.0 / wall_s : 0.0,
		wall_s > 0 ? j->lat.n / wall_s : 0.0, runtime_ms, j->lat.n);
	print_lat(f, "clat_ns", &j->lat);
	fprintf(f, ",\n");
	print_lat(f, "lat_ns", &j->lat);
	fprintf(f, "\n      },\n");
	fprintf(f,
		"      \"write\" : {\n"
		"        \"io_bytes\" : 0,\n        \"io_kbytes\" : 0,\n"
		"        \"bw_bytes\" : 0,\n        \"bw\" : 0,\n"
		"        \"iops\" : 0.0,\n        \"runtime\" : 0,\n"
		"        \"total_ios\" : 0,\n");
	print_lat(f, "clat_ns", &empty);
	fprintf(f, ",\n");
	print_lat(f, "lat_ns", &empty);
	fprintf(f, "\n      },\n");
	fprintf(f,
		"      \"usr_cpu\" : %.6f,\n"
		"      \"sys_cpu\" : %.6f,\n"
		"      \"ctx\" : %ld,\n"
		"      \"majf\" : %ld,\n"
		"      \"minf\" : %ld,\n",
		wall_us > 0 ? 100.0 * usr / wall_us : 0.0,
		wall_us > 0 ? 100.0 * sys / wall_us : 0.0, nvcsw + nivcsw,
		j->ru1.ru_majflt - j->ru0.ru_majflt,
		j->ru1.ru_minflt - j->ru0.ru_minflt);
	fprintf(f, "      \"uring_lat\" : {\n        \"device\" : ");
	print_str(f, j->dev);
	fprintf(f,
		",\n        \"iopoll\" : %d,\n        \"hybrid_iopoll\" : %d,\n"
		"        \"setup_flags\" : %u,\n        \"qd\" : %u,\n"
		"        \"bs\" : %u,\n        \"ramp_ios\" : %" PRIu64 ",\n"
		"        \"ramp_ns\" : %" PRIu64 ",\n"
		"        \"wall_ns\" : %" PRIu64 ",\n"
		"        \"usr_us\" : %" PRIu64 ",\n        \"sys_us\" : %" PRIu64 ",\n"
		"        \"nvcsw\" : %ld,\n        \"nivcsw\" : %ld\n"
		"      }\n    }\n  ]\n}\n",
		!!(flags & IORING_SETUP_IOPOLL),
		!!(flags & IORING_SETUP_HYBRID_IOPOLL), flags, j->qd, j->bs,
		j->ramp_done, j->ramp_wall_ns, j->wall_ns, usr, sys, nvcsw,
		nivcsw);
}

static int open_dev(struct job *j)
{
	struct stat st;
	uint64_t size;

	if (stat(j->dev, &st)) {
		fprintf(stderr, "%s: %s: %s\n", prog, j->dev, strerror(errno));
		return EXIT_FAILURE;
	}
	if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode)) {
		fprintf(stderr, "%s: %s: not a block device or regular file\n",
			prog, j->dev);
		return EXIT_FAILURE;
	}
	j->fd = open(j->dev, O_RDONLY | O_DIRECT);
	if (j->fd < 0) {
		int e = errno;

		fprintf(stderr, "%s: %s: %s%s\n", prog, j->dev, strerror(e),
			e == EINVAL ? " (no O_DIRECT on this file system?)" : "");
		return e == EINVAL ? EXIT_UNSUPP : EXIT_FAILURE;
	}
	if (fstat(j->fd, &st)) {
		fprintf(stderr, "%s: %s: %s\n", prog, j->dev, strerror(errno));
		return EXIT_FAILURE;
	}
	if (S_ISBLK(st.st_mode)) {
		if (ioctl(j->fd, BLKGETSIZE64, &size)) {
			fprintf(stderr, "%s: %s: BLKGETSIZE64: %s\n", prog,
				j->dev, strerror(errno));
			return EXIT_FAILURE;
		}
	} else if (S_ISREG(st.st_mode)) {
		size = st.st_size;
	} else {
		fprintf(stderr, "%s: %s: not a block device or regular file\n",
			prog, j->dev);
		return EXIT_FAILURE;
	}
	j->nblocks = size / j->bs;
	if (!j->nblocks) {
		fprintf(stderr, "%s: %s: %" PRIu64 " bytes, smaller than one read of %u\n",
			prog, j->dev, size, j->bs);
		return EXIT_FAILURE;
	}
	return 0;
}

static int make_ring(struct ring *r, const struct job *j, unsigned int flags)
{
	int e = ring_setup(r, j->qd, flags);

	if (!e)
		return 0;
	if (e == EINVAL && (flags & IORING_SETUP_HYBRID_IOPOLL)) {
		struct ring plain;

		if (!ring_setup(&plain, j->qd, flags & ~IORING_SETUP_HYBRID_IOPOLL)) {
			fprintf(stderr,
				"%s: IORING_SETUP_HYBRID_IOPOLL not supported by this kernel (io_uring_setup: %s)\n",
				prog, strerror(e));
			return EXIT_UNSUPP;
		}
	}
	fprintf(stderr, "%s: io_uring_setup: %s%s\n", prog, strerror(e),
		e == ENOSYS ? ": io_uring not supported by this kernel" :
		e == EPERM ? ": io_uring disabled (kernel.io_uring_disabled?)" : "");
	return e == ENOSYS || e == EPERM ? EXIT_UNSUPP : EXIT_FAILURE;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ios", required_argument, NULL, 'n' },
		{ "runtime", required_argument, NULL, 't' },
		{ "qd", required_argument, NULL, 'q' },
		{ "bs", required_argument, NULL, 'b' },
		{ "hybrid", no_argument, NULL, 'H' },
		{ "irq", no_argument, NULL, 'I' },
		{ "ramp", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 's' },
		{ "jobname", required_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "exec-prerun", required_argument, NULL, 'B' },
		{ "exec-postrun", required_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct job *j;
	const char *name = "uring-lat", *out = NULL, *ramp = NULL;
	int hybrid = 0, irq = 0, c, ret;
	unsigned int flags, i;
	uint64_t v;
	struct ring r;
	FILE *f;

	j = calloc(1, sizeof(*j));
	if (!j) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return EXIT_FAILURE;
	}
	j->qd = 1;
	j->bs = 4096;
	j->seed = 1;

	while ((c = getopt_long(argc, argv, "n:t:q:b:HIr:s:j:o:B:A:h", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (parse_u64(optarg, 1, UINT64_MAX / MAX_BS, &j->ios))
				return bad_num(c, optarg);
			break;
		case 't':
			if (parse_u64(optarg, 1, MAX_SECONDS, &v))
				return bad_num(c, optarg);
			j->runtime_ns = v * NSEC_PER_SEC;
			break;
		case 'q':
			if (parse_u64(optarg, 1, MAX_QD, &v))
				return bad_num(c, optarg);
			j->qd = v;
			break;
		case 'b':
			if (parse_u64(optarg, 512, MAX_BS, &v) || v % 512)
				return bad_num(c, optarg);
			j->bs = v;
			break;
		case 'H':
			hybrid = 1;
			break;
		case 'I':
			irq = 1;
			break;
		case 'r':
			/* reads or seconds: known once -n or -t is */
			ramp = optarg;
			break;
		case 's':
			if (parse_u64(optarg, 0, UINT64_MAX, &j->seed))
				return bad_num(c, optarg);
			break;
		case 'j':
			name = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'B':
			j->prerun = optarg;
			break;
		case 'A':
			j->postrun = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "%s: %s\n", prog,
			optind == argc ? "no DEVICE given" : "more than one DEVICE");
		usage(stderr);
		return EXIT_USAGE;
	}
	if (hybrid && irq) {
		fprintf(stderr, "%s: --hybrid is a mode of IOPOLL, not of --irq\n",
			prog);
		return EXIT_USAGE;
	}
	if (!j->ios == !j->runtime_ns) {
		fprintf(stderr, "%s: %s\n", prog, j->ios ?
			"-n and -t exclude each other: count reads or time them" :
			"give the reads to time (-n IOS) or the seconds (-t SECONDS)");
		return EXIT_USAGE;
	}
	if (ramp && j->ios &&
	    parse_u64(ramp, 0, UINT64_MAX / MAX_BS, &j->ramp))
		return bad_num('r', ramp);
	if (ramp && j->runtime_ns) {
		if (parse_u64(ramp, 0, MAX_SECONDS, &v))
			return bad_num('r', ramp);
		j->ramp_ns = v * NSEC_PER_SEC;
	}
	j->dev = argv[optind];
	/* xorshift has no zero state */
	j->seed = j->seed * 0x9E3779B97F4A7C15ULL + 1;
	if (!j->seed)
		j->seed = 1;

	ret = open_dev(j);
	if (ret)
		return ret;
	j->slots = calloc(j->qd, sizeof(*j->slots));
	if (!j->slots) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return EXIT_FAILURE;
	}
	for (i = 0; i < j->qd; i++) {
		if (posix_memalign(&j->slots[i].buf, 4096, j->bs)) {
			fprintf(stderr, "%s: out of memory\n", prog);
			return EXIT_FAILURE;
		}
		memset(j->slots[i].buf, 0, j->bs);
	}

	flags = irq ? 0 : IORING_SETUP_IOPOLL;
	if (hybrid)
		flags |= IORING_SETUP_HYBRID_IOPOLL;
	ret = make_ring(&r, j, flags);
	if (ret)
		return ret;

	ret = run(j, &r);
	if (ret)
		return ret;

	f = out ? fopen(out, "w") : stdout;
	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", prog, out, strerror(errno));
		return EXIT_FAILURE;
	}
	print_json(f, j, name, flags);
	if (fflush(f) || (out && fclose(f))) {
		fprintf(stderr, "%s: %s: %s\n", prog, out ? out : "stdout",
			strerror(errno));
		return EXIT_FAILURE;
	}
	return 0;
}
