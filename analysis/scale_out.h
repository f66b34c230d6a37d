/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_SCALE_OUT_H
#define PB_SCALE_OUT_H

#include <stdio.h>

#include "names.h"
#include "scale.h"

/* Widest line of a scale table: readable in a terminal and a mail. */
#define SCALE_COLS	100

unsigned int scale_designs(const struct run *run, const struct scale_group *g,
			   struct design *v);
const char *scale_group_name(const struct scale_group *g, char *buf,
			     size_t len);
void scale_below_str(const struct run *run, const struct scale_below *b,
		     char *buf, size_t len);
void scale_report(FILE *f, const struct run *run);
json_t *scale_json(const struct run *run);

#endif
