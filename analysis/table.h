/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_TABLE_H
#define PB_TABLE_H

#include "model.h"

int write_csv(const struct run *run, const char *path);
int write_report(const struct run *run, const struct opts *o,
		 const char *path, int plots_made);
const char *fmt_val(char *buf, size_t len, double v);
char *engine_family(const char *cell);
const char *engine_name(const char *workload);
unsigned int engine_group(const struct run *run, const struct opts *o,
			  unsigned int i, struct cell **cols, char **fam);

#endif
