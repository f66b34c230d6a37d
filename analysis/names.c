// SPDX-License-Identifier: GPL-2.0
/*
 * Designs under their usual names, for the outputs people read first
 * (answer.txt, the scale tables): the baseline label's psync workload is
 * "interrupts", its iouring-hipri one "io_uring IOPOLL", the design
 * labels their design's name; any other label keeps its own, after them
 * in the run's order.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "names.h"

/* label NULL: the baseline label; engine NULL: any workload of label. */
static const struct {
	const char *label, *engine, *name;
} names[] = {
	{ NULL, "psync", "interrupts" },
	{ "inline", NULL, "inline (waiter polls)" },
	{ "idle", NULL, "idle (idle loop polls)" },
	{ "idle-window", NULL, "idle + waiter's window" },
	{ "hybrid", NULL, "hybrid (adaptive)" },
	{ "hybrid-fixed", NULL, "hybrid (fixed 5 us)" },
	{ NULL, "iouring-hipri", "io_uring IOPOLL" },
	{ "iouring-hybrid", "uring-hybrid", "io_uring hybrid IOPOLL" },
};

#define NR_NAMES	(sizeof(names) / sizeof(names[0]))

static void name_design(const struct run *run, struct design *x)
{
	const char *eng = engine_name(x->d->workload);
	unsigned int k;

	for (k = 0; k < NR_NAMES; k++) {
		const char *label = names[k].label ?: run->variants[0];

		if (!strcmp(x->d->variant, label) &&
		    (!names[k].engine || !strcmp(eng, names[k].engine)))
			break;
	}
	x->rank = k;
	snprintf(x->name, DESIGN_NAME_LEN, "%s",
		 k < NR_NAMES ? names[k].name : x->d->variant);
}

static int cmp_design(const void *a, const void *b)
{
	const struct design *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

/*
 * Name v[0..n-1] (d and order set) and sort them in the order people
 * list them. The engine is appended to a name two designs share and to
 * an unnamed design whose label has others (the baseline's
 * pvsync2-hipri is not the baseline).
 */
void designs_name(const struct run *run, struct design *v, unsigned int n)
{
	unsigned char *dup = calloc(n + 1, 1);
	unsigned int i, j;

	for (i = 0; i < n; i++)
		name_design(run, &v[i]);
	for (i = 0; dup && i < n; i++)
		for (j = 0; j < n; j++)
			if (i != j && (!strcmp(v[i].name, v[j].name) ||
				       (v[i].rank == NR_NAMES &&
					!strcmp(v[i].d->variant,
						v[j].d->variant))))
				dup[i] = 1;
	for (i = 0; dup && i < n; i++)
		if (dup[i]) {
			size_t l = strlen(v[i].name);

			snprintf(v[i].name + l, DESIGN_NAME_LEN - l, " %s",
				 engine_name(v[i].d->workload));
		}
	free(dup);
	qsort(v, n, sizeof(*v), cmp_design);
}
