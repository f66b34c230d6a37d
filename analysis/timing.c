// SPDX-License-Identifier: GPL-2.0
/*
 * Read a cell's timing model from its meta.json: "timing" is "icount"
 * (with "icount_shift", an integer or integer string) or "realtime"
 * (then "accel" says tcg or kvm); older runs wrote "emulated" (realtime
 * on TCG) or "virtualised" (realtime on KVM), or no timing at all (then
 * "accel" decides).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

static const char *str(json_t *meta, const char *key)
{
	json_t *v = json_object_get(meta, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

static int shift_of(json_t *meta, const char *path, int *shift)
{
	json_t *v = json_object_get(meta, "icount_shift");
	long s;
	char *end;

	if (json_is_integer(v)) {
		s = json_integer_value(v);
	} else if (json_is_string(v) && *json_string_value(v)) {
		s = strtol(json_string_value(v), &end, 10);
		if (*end)
			s = -1;
	} else {
		fprintf(stderr, "%s: timing \"icount\" without an integer icount_shift\n",
			path);
		return -1;
	}
	if (s < 0 || s > 30) {
		fprintf(stderr, "%s: icount_shift is not an integer in 0..30\n",
			path);
		return -1;
	}
	*shift = s;
	return 0;
}

/* 0 and *t filled, or -1 with a message naming path. */
int timing_of_meta(json_t *meta, const char *path, struct timing *t)
{
	const char *timing = str(meta, "timing"), *accel = str(meta, "accel");

	t->kind = TIMING_UNKNOWN;
	t->shift = 0;
	if (timing && !strcmp(timing, "icount")) {
		t->kind = TIMING_ICOUNT;
		return shift_of(meta, path, &t->shift);
	}
	if (timing && !strcmp(timing, "emulated")) {
		t->kind = TIMING_EMULATED;
		return 0;
	}
	if (timing && !strcmp(timing, "virtualised")) {
		t->kind = TIMING_VIRTUALISED;
		return 0;
	}
	if (timing && strcmp(timing, "realtime")) {
		fprintf(stderr, "%s: unknown timing \"%s\" (icount, realtime, emulated, virtualised)\n",
			path, timing);
		return -1;
	}
	if (accel && !strcmp(accel, "tcg"))
		t->kind = TIMING_EMULATED;
	else if (accel && !strcmp(accel, "kvm"))
		t->kind = TIMING_VIRTUALISED;
	return 0;
}

int timing_equal(const struct timing *a, const struct timing *b)
{
	return a->kind == b->kind &&
	       (a->kind != TIMING_ICOUNT || a->shift == b->shift);
}

/* The words every table heading and plot title carries. */
const char *timing_label(const struct timing *t, char *buf, size_t len)
{
	switch (t->kind) {
	case TIMING_ICOUNT:
		snprintf(buf, len, "instruction-count time (1 instruction = 2^%d ns)",
			 t->shift);
		break;
	case TIMING_EMULATED:
		snprintf(buf, len, "emulated wall-clock time (TCG)");
		break;
	case TIMING_VIRTUALISED:
		snprintf(buf, len, "virtualised wall-clock time (KVM)");
		break;
	default:
		snprintf(buf, len, "unknown timing (meta.json has no timing or accel)");
		break;
	}
	return buf;
}

/* summary.json "timing_model": icount, emulated, virtualised, unknown. */
const char *timing_key(const struct timing *t)
{
	static const char *const keys[] = {
		[TIMING_UNKNOWN] = "unknown",
		[TIMING_ICOUNT] = "icount",
		[TIMING_EMULATED] = "emulated",
		[TIMING_VIRTUALISED] = "virtualised",
	};

	return keys[t->kind];
}

/*
 * The inverse of timing_key(), for a summary.json read back (--compare):
 * -1 for a key it never writes.
 */
int timing_of_key(const char *key, int shift, struct timing *t)
{
	enum timing_kind k;

	for (k = TIMING_UNKNOWN; k <= TIMING_VIRTUALISED; k++) {
		t->kind = k;
		t->shift = k == TIMING_ICOUNT ? shift : 0;
		if (key && !strcmp(key, timing_key(t)))
			return 0;
	}
	t->kind = TIMING_UNKNOWN;
	t->shift = 0;
	return -1;
}
