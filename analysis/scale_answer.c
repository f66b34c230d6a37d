// SPDX-License-Identifier: GPL-2.0
/*
 * scale.txt: the Scale section in a few lines per table, to paste into a
 * mail or a document (scripts/answer-update.sh): per design, its IOPS at
 * each reader count with the change against interrupts at the same
 * count, and its total-latency p99 at the largest count; at most
 * SCALE_COLS columns.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "engine.h"
#include "scale_answer.h"
#include "scale_out.h"

/* "  59999 -32.2%" or the reference's "  88495   ref " */
static int iops_col(char *buf, size_t len, double v, double ref, int is_ref)
{
	if (isnan(v))
		return snprintf(buf, len, " %7s %6s", "-", "");
	if (is_ref)
		return snprintf(buf, len, " %7.0f %6s", v, "ref");
	if (isnan(ref) || ref <= 0)
		return snprintf(buf, len, " %7.0f %6s", v, "");
	return snprintf(buf, len, " %7.0f %+5.0f%%", v, (v - ref) / ref * 100);
}

static void group_lines(FILE *f, const struct run *run,
			const struct scale_group *g, const struct design *v)
{
	const char *p99 = run->has_tlat ? "lat_p99_ns" : "clat_p99_ns";
	unsigned int r, n, top = g->readers[g->nr_readers - 1];
	char name[256], col[64];

	fprintf(f, "%s\n", scale_group_name(g, name, sizeof(name)));
	fprintf(f, "%-24s", "IOPS (vs interrupts)");
	for (n = 0; n < g->nr_readers; n++) {
		snprintf(col, sizeof(col), "N=%u", g->readers[n]);
		fprintf(f, " %7s %6s", col, "");
	}
	fprintf(f, " p99 at N=%u\n", top);
	for (r = 0; r < g->nr_designs; r++) {
		int is_ref = scale_is_ref(run, v[r].d) &&
			     !strcmp(engine_name(v[r].d->workload), "psync");
		double p;

		fprintf(f, "%-24.24s", v[r].name);
		for (n = 0; n < g->nr_readers; n++) {
			const struct cell *ref = scale_ref(run, g, g->readers[n]);
			double ri = ref ? scale_value(run, g, ref, g->readers[n], "iops") : NAN;

			iops_col(col, sizeof(col),
				 scale_value(run, g, v[r].d, g->readers[n], "iops"),
				 ri, is_ref);
			fputs(col, f);
		}
		p = scale_value(run, g, v[r].d, top, p99);
		if (isnan(p))
			fprintf(f, " %9s\n", "-");
		else
			fprintf(f, " %6.0f us\n", p / 1000);
	}
	fputc('\n', f);
}

unsigned int scale_groups_count(const struct run *run)
{
	struct scale_group *g;
	unsigned int n = scale_groups(run, &g);

	scale_groups_free(g, n);
	return n;
}

int scale_answer(const struct run *run, const char *path)
{
	char name[256];
	struct scale_group *g;
	unsigned int n = scale_groups(run, &g), i;
	int vcpus = scale_vcpus(run);
	FILE *f;

	if (!n)
		return 0;
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		scale_groups_free(g, n);
		return -1;
	}
	fprintf(f, "pollbench run %s, %s,\n%d vCPU%s: N synchronous QD1 readers\n",
		run_name(run, name, sizeof(name)), run->timing_label, vcpus,
		vcpus == 1 ? "" : "s");
	fprintf(f, "(IOPS: mean over boots; change: against interrupts at the same N;\n"
		   "p99: total latency, median over boots). Full tables: report.md, \"Scale\".\n\n");
	for (i = 0; i < n; i++) {
		struct design *v = calloc(g[i].nr_designs + 1, sizeof(*v));

		if (!v)
			break;
		scale_designs(run, &g[i], v);
		group_lines(f, run, &g[i], v);
		free(v);
	}
	scale_groups_free(g, n);
	return fclose(f) ? -1 : 0;
}
