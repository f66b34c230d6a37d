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

/* Widest cell of every column, in characters. */
static unsigned int *widths(const struct mdtab *t)
{
	unsigned int *w = calloc(t->cols, sizeof(*w)), r, c, k;

	for (r = 0; w && r < t->rows; r++)
		for (c = 0; c < t->cols; c++) {
			k = width(t->cell[(size_t)r * t->cols + c]);
			if (k > w[c])
				w[c] = k;
		}
	return w;
}

/* The columns col[0..n-1] of t as one table. */
static void print_cols(FILE *f, const struct mdtab *t, const unsigned int *w,
		       const unsigned int *col, unsigned int n)
{
	unsigned int r, i, c, k;

	for (r = 0; r < t->rows; r++) {
		fputc('|', f);
		for (i = 0; i < n; i++) {
			const char *s = t->cell[(size_t)r * t->cols + col[i]];

			c = col[i];
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
		for (i = 0; i < n; i++) {
			c = col[i];
			fputc(c >= t->left ? ' ' : ':', f);
			for (k = 0; k < w[c]; k++)
				fputc('-', f);
			fputs(c >= t->left ? ":|" : " |", f);
		}
		fputc('\n', f);
	}
}

void mdtab_print(FILE *f, const struct mdtab *t)
{
	unsigned int *w = widths(t), *col = calloc(t->cols, sizeof(*col)), c;

	for (c = 0; col && c < t->cols; c++)
		col[c] = c;
	if (w && col)
		print_cols(f, t, w, col, t->cols);
	free(w);
	free(col);
}

/*
 * t as several tables of at most maxw characters a line, each with the
 * first lead columns and as many of the next groups of `group` columns
 * (kept together) as fit, at least one; tables separated by a blank line.
 */
void mdtab_print_split(FILE *f, const struct mdtab *t, unsigned int lead,
		       unsigned int group, unsigned int maxw)
{
	unsigned int *w = widths(t), *col = calloc(t->cols, sizeof(*col));
	unsigned int c, n, from, to, gw, lw = 1;

	if (!w || !col || !group || lead > t->cols)
		goto out;
	for (c = 0; c < lead; c++)
		lw += w[c] + 3;
	for (from = lead; from < t->cols || from == lead; from = to) {
		unsigned int sum = lw;

		for (to = from; to < t->cols; to += group) {
			for (gw = 0, c = to; c < to + group && c < t->cols; c++)
				gw += w[c] + 3;
			if (to > from && sum + gw > maxw)
				break;
			sum += gw;
		}
		for (n = 0; n < lead; n++)
			col[n] = n;
		for (c = from; c < to && c < t->cols; c++)
			col[n++] = c;
		if (from > lead)
			fputc('\n', f);
		print_cols(f, t, w, col, n);
		if (to == from)
			break;
	}
out:
	free(w);
	free(col);
}

void mdtab_free(struct mdtab *t)
{
	size_t i;

	for (i = 0; i < (size_t)t->rows * t->cols; i++)
		free(t->cell[i]);
	free(t->cell);
	memset(t, 0, sizeof(*t));
}
