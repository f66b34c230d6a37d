/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_ENGINE_H
#define PB_ENGINE_H

#include "model.h"

char *engine_family(const char *cell);
const char *engine_name(const char *workload);
unsigned int engine_group(const struct run *run, const struct opts *o,
			  unsigned int i, struct cell **cols, char **fam);

#endif
