/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_SCALE_ANSWER_H
#define PB_SCALE_ANSWER_H

#include "model.h"

/* The number of scale tables of run (0: no scale workloads). */
unsigned int scale_groups_count(const struct run *run);
/* Write path (scale.txt): the scale tables in a few lines; 0 or -1. */
int scale_answer(const struct run *run, const char *path);

#endif
