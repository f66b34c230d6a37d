/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_RUNCMP_OUT_H
#define PB_RUNCMP_OUT_H

#include "runcmp.h"

/* Widest table line of compare.md. */
#define CMP_COLS	100

int runcmp_md(const struct rc_set *s, const char *path);
int runcmp_json(const struct rc_set *s, const char *path);

#endif
