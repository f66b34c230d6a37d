/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_MDTAB_H
#define PB_MDTAB_H

#include <stdio.h>

/*
 * An aligned markdown table: cells are added row by row, then printed
 * with every column padded to its widest cell (the first `left` columns
 * left-aligned, the others right-aligned).
 */
struct mdtab {
	unsigned int cols, rows;
	unsigned int left;	/* leading columns left-aligned (at least 1) */
	char **cell;		/* rows x cols, malloc'd strings */
};

int mdtab_init(struct mdtab *t, unsigned int cols);
int mdtab_add(struct mdtab *t, unsigned int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void mdtab_print(FILE *f, const struct mdtab *t);
void mdtab_print_split(FILE *f, const struct mdtab *t, unsigned int lead,
		       unsigned int group, unsigned int maxw);
void mdtab_free(struct mdtab *t);

#endif
