/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The timing model a cell was measured under (meta.json "timing",
 * "icount_shift", "accel"): QEMU instruction-count time, or wall-clock
 * time emulated by TCG or virtualised by KVM. Numbers are only comparable
 * within one model: a run that mixes them is refused.
 */
#ifndef PB_TIMING_H
#define PB_TIMING_H

#include <stddef.h>

#include <jansson.h>

enum timing_kind {
	TIMING_UNKNOWN,		/* meta.json names neither timing nor accel */
	TIMING_ICOUNT,		/* -icount shift=N: 1 instruction = 2^N ns */
	TIMING_EMULATED,	/* realtime under TCG (older: "emulated") */
	TIMING_VIRTUALISED,	/* realtime under KVM (older: "virtualised") */
};

struct timing {
	enum timing_kind kind;
	int shift;		/* TIMING_ICOUNT only */
};

int timing_of_meta(json_t *meta, const char *path, struct timing *t);
int timing_equal(const struct timing *a, const struct timing *b);
const char *timing_label(const struct timing *t, char *buf, size_t len);
const char *timing_key(const struct timing *t);
int timing_of_key(const char *key, int shift, struct timing *t);

#endif
