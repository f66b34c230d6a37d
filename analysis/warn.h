/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_WARN_H
#define PB_WARN_H

/* Warnings of a run: printed on stderr as they come, listed in report.md. */
struct warnings {
	char **msg;
	unsigned int n;
};

void warn_add(struct warnings *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void warn_free(struct warnings *w);

#endif
