/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_OPTS_H
#define PB_OPTS_H

#include <stdint.h>

/* The command line (main.c), read by every layer above the model. */
struct opts {
	const char *run_dir;
	const char *out_dir;
	uint64_t seed;
	unsigned int resamples;
	const char *base_variant;
	char **base_cells;	/* --baseline VARIANT/CELL */
	unsigned int nr_base_cells;
	int validate;
	int no_plots;
	const char *fair_ref;	/* --fair-ref [VARIANT/]WORKLOAD, or NULL */
	const char *scale_dir;	/* --scale OUT_DIR: runs side by side, or NULL */
};

#endif
