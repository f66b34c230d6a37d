/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_SCALEX_OUT_H
#define PB_SCALEX_OUT_H

#include "names.h"
#include "scalex.h"

unsigned int xs_designs(const struct xs_set *x, const struct scale_group *g,
			struct design *v);
int xs_has(const struct run *run, const struct scale_group *g,
	   const struct cell *d);
int scalex_report(const struct xs_set *x, const char *path, int plots_made);

#endif
