/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_TABLE_H
#define PB_TABLE_H

#include "engine.h"
#include "model.h"

int write_csv(const struct run *run, const char *path);
int write_report(const struct run *run, const struct opts *o,
		 const char *path, int plots_made);

#endif
