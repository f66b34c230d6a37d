// SPDX-License-Identifier: GPL-2.0
/*
 * Aligned markdown tables. Row 0 is the heading; mdtab_add() with col 0
 * starts a new row. Widths count UTF-8 characters, not bytes.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mdtab.h"

int mdtab_init(struct mdtab *t, unsigned int cols)
{
	memset(t, 0, sizeof(*t));
	t->cols = cols;
	t->left = 1;
	return cols ? 0 : -1;
}

int mdtab_add(struct mdtab *t, unsigned int col, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (col >= t->cols)
		return -1;
	if (!col) {
		char **n = realloc(t->cell, (size_t)(t->rows + 1) * t->cols *
					    sizeof(*n));

		if (!n)
			return -1;
		t->cell = n;
		memset(n + (size_t)t->rows * t->cols, 0,
		       t->cols * sizeof(*n));
		t->rows++;
	}
	if (!t->rows)
		return -1;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		return -1;
	free(t->cell[(size_t)(t->rows - 1) * t->cols + col]);
	t->cell[(size_t)(t->rows - 1) * t->cols + col] = s;
	return 0;
}

static unsigned int width(const char *s)
{
	unsigned int w = 0;

	for (; s && *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void pad(FILE *f, unsigned int n)
{
	while (n--)
		fputc(' ', f);
}

void mdtab_print(FILE *f, const struct mdtab *t)
{
	unsigned int *w = calloc(t->cols, sizeof(*w)), r, c, k;

	if (!w)
		return;
	for (r = 0; r < t->rows; r++)
		for (c = 0; c < t->cols; c++) {
			k = width(t->cell[(size_t)r * t->cols + c]);
			if (k > w[c])
				w[c] = k;
		}
	for (r = 0; r < t->rows; r++) {
		fputc('|', f);
		for (c = 0; c < t->cols; c++) {
			const char *s = t->cell[(size_t)r * t->cols + c];

			fputc(' ', f);
			if (c >= t->left)
				pad(f, w[c] - width(s));
			fputs(s ? s : "", f);
			if (c < t->left)
				pad(f, w[c] - width(s));
			fputs(" |", f);
		}
		fputc('\n', f);
		if (r)
			continue;
		fputc('|', f);
		for (c = 0; c < t->cols; c++) {
			fputc(c >= t->left ? ' ' : ':', f);
			for (k = 0; k < w[c]; k++)
				fputc('-', f);
			fputs(c >= t->left ? ":|" : " |", f);
		}
		fputc('\n', f);
	}
	free(w);
}

void mdtab_free(struct mdtab *t)
{
	size_t i;

	for (i = 0; i < (size_t)t->rows * t->cols; i++)
		free(t->cell[i]);
	free(t->cell);
	memset(t, 0, sizeof(*t));
}
