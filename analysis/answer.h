/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_ANSWER_H
#define PB_ANSWER_H

#include "model.h"

/* Widest line of answer.txt: it is meant to be pasted into a mail. */
#define ANSWER_COLS	100

const char *dir_name(const char *dir, char *buf, size_t len);
const char *run_name(const struct run *run, char *buf, size_t len);
const char *qemu_short(const char *q);
int write_answer(const struct run *run, const char *path,
		 const char *report_path);

#endif
