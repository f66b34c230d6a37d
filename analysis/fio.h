/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_FIO_H
#define PB_FIO_H

#include <stdint.h>

#include "hist.h"

/*
 * Jobs read per file: a scale cell runs up to 4 readers per vCPU as
 * separate jobs; more than this is not a run of this harness.
 */
#define FIO_MAX_JOBS	1024

/* One job (one reader with group_reporting=0): its own I/Os and time. */
struct fio_job {
	uint64_t ios;		/* total_ios, read + write */
	double runtime_ms;	/* job_runtime, else the longer side's runtime; NAN */
};

/* One fio --output-format=json+ file, all jobs and directions merged. */
struct fio_result {
	struct hist lat;	/* clat_ns.bins, read + write, all jobs */
	struct hist tlat;	/* lat_ns.bins (fio --lat_percentiles=1) */
	int has_tlat;		/* every side with samples had lat_ns.bins */
	double clat_min_ns;	/* fio's exact clat_ns.min over sides, or NAN */
	double lat_min_ns;	/* fio's exact lat_ns.min over sides, or NAN */
	uint64_t ios;		/* total_ios, read + write, all jobs */
	double iops;		/* sum over jobs and directions */
	double cpu_pct;		/* sum over jobs of usr_cpu + sys_cpu */
	uint64_t ctx;		/* sum over jobs */
	unsigned int jobs;
	struct fio_job job[FIO_MAX_JOBS];	/* the first `jobs` are set */
};

int fio_load(const char *path, struct fio_result *r);

#endif
