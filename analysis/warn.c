// SPDX-License-Identifier: GPL-2.0
/* Collected warnings: the lowest layer, so every layer can warn. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warn.h"

void warn_add(struct warnings *w, const char *fmt, ...)
{
	char **n, *msg;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	if (!msg)
		return;
	fprintf(stderr, "warning: %s\n", msg);
	n = realloc(w->msg, (w->n + 1) * sizeof(*n));
	if (!n) {
		free(msg);
		return;
	}
	w->msg = n;
	n[w->n++] = msg;
}

void warn_free(struct warnings *w)
{
	unsigned int i;

	for (i = 0; i < w->n; i++)
		free(w->msg[i]);
	free(w->msg);
	memset(w, 0, sizeof(*w));
}
