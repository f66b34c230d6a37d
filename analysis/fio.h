/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_FIO_H
#define PB_FIO_H

#include <stdint.h>

#include "hist.h"

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
};

int fio_load(const char *path, struct fio_result *r);

#endif
