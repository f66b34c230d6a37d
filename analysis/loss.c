// SPDX-License-Identifier: GPL-2.0
/*
 * The competitor's loss, a per-rep metric that needs two cells: in
 * <workload>@competitor[@<device>] cells, against its rate alone
 * (none@competitor-only, or the older per-workload
 * <workload>@competitor-only cells). Linked by run_load() once every
 * cell is in.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loss.h"

int cell_is_competitor(const struct cell *c)
{
	return !strcmp(c->condition, "competitor");
}

/* The competitor alone on fio's CPU, in the same variant. */
static const struct cell *loss_ref(const struct run *run,
				   const struct cell *c)
{
	char *name = cell_compose(c->workload, "competitor-only", c->device);
	const struct cell *r = name ? run_find(run, c->variant, name) : NULL;

	free(name);
	return r ? r : run_find(run, c->variant, "none@competitor-only");
}

static const char *boot_of(const struct rep *r)
{
	json_t *b = json_object_get(r->meta, "boot_id");

	return json_is_string(b) ? json_string_value(b) : NULL;
}

/*
 * competitor_loss_pct = 1 - rate(competitor) / rate(competitor-only), in
 * %, per rep: against the reference rep of the same boot when there is
 * one, else against the mean over the reference cell's reps.
 */
void loss_link(struct run *run)
{
	int rate = minst_find("competitor_units_per_sec");
	int loss = minst_find("competitor_loss_pct");
	unsigned int i, j, k, n;

	for (i = 0; i < run->nr_cells; i++) {
		struct cell *c = run->cells[i];
		const struct cell *ref;
		double mean = 0;

		if (!cell_is_competitor(c))
			continue;
		ref = loss_ref(run, c);
		for (k = 0, n = 0; ref && k < ref->nr_reps; k++)
			if (!isnan(ref->reps[k].val[rate])) {
				mean += ref->reps[k].val[rate];
				n++;
			}
		if (!n || !(mean > 0)) {
			run_warn(run, "%s/%s: no competitor-only rate in variant %s, competitor loss not computed",
				 c->variant, c->name, c->variant);
			continue;
		}
		mean /= n;
		for (j = 0; j < c->nr_reps; j++) {
			struct rep *r = &c->reps[j];
			const char *boot = boot_of(r);
			double base = mean;

			if (isnan(r->val[rate]))
				continue;
			for (k = 0; boot && k < ref->nr_reps; k++) {
				const char *b = boot_of(&ref->reps[k]);

				if (b && !strcmp(b, boot) &&
				    ref->reps[k].val[rate] > 0)
					base = ref->reps[k].val[rate];
			}
			r->val[loss] = (1 - r->val[rate] / base) * 100;
		}
	}
}

