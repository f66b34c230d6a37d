// SPDX-License-Identifier: GPL-2.0
/*
 * The scale matrix rendered (scale.c selects and compares): report.md's
 * "Scale" section, a table per prefix, suffix, device and condition with
 * a row per design (usual names, names.c) and a column group per reader
 * count N (IOPS, CPU per I/O, latency p50 and p99, Jain's index), split
 * into several tables to stay within SCALE_COLS columns, then where each
 * design falls below interrupts; and summary.json "scale".
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "fmt.h"
#include "mdtab.h"
#include "scale_out.h"

#define VAL_LEN		32
#define NR_VALS		5	/* values per reader count */

static const char *const val_head[NR_VALS] = {
	"IOPS", "CPU us", "p50 us", "p99 us", "Jain",
};

/* The designs of g named and in usual order; v has g->nr_designs slots. */
unsigned int scale_designs(const struct run *run, const struct scale_group *g,
			   struct design *v)
{
	unsigned int k;

	for (k = 0; k < g->nr_designs; k++) {
		memset(&v[k], 0, sizeof(v[k]));
		v[k].d = g->designs[k];
		v[k].order = k;
	}
	designs_name(run, v, g->nr_designs);
	return g->nr_designs;
}

/* "randread-4k-r<N>pin-* @busy @nullb-10us" */
const char *scale_group_name(const struct scale_group *g, char *buf,
			     size_t len)
{
	snprintf(buf, len, "%s-r<N>%s-* @%s%s%s", g->wl.prefix, g->wl.suffix,
		 g->first->condition, *g->first->device ? " @" : "",
		 g->first->device);
	return buf;
}

/* The NR_VALS strings of design d at reader count n. */
static void values(const struct run *run, const struct scale_group *g,
		   const struct cell *d, unsigned int n,
		   char out[NR_VALS][VAL_LEN])
{
	static const char *const lat[] = { "lat_p50_ns", "lat_p99_ns" };
	static const char *const clat[] = { "clat_p50_ns", "clat_p99_ns" };
	const char *const *l = run->has_tlat ? lat : clat;

	fmt_num(out[0], VAL_LEN, scale_value(run, g, d, n, "iops"), 1, "%.0f");
	fmt_num(out[1], VAL_LEN,
		scale_value(run, g, d, n, "cpu_per_io_ns"), 1000, "%.2f");
	fmt_num(out[2], VAL_LEN, scale_value(run, g, d, n, l[0]), 1000, "%.2f");
	fmt_num(out[3], VAL_LEN, scale_value(run, g, d, n, l[1]), 1000, "%.2f");
	fmt_num(out[4], VAL_LEN, scale_value(run, g, d, n, "reader_jain"), 1,
		"%.3f");
}

/*
 * The table of g: a column group per reader count, as many side by side
 * as fit in SCALE_COLS (mdtab_print_split()).
 */
static void scale_tables(FILE *f, const struct run *run,
			 const struct scale_group *g, const struct design *v)
{
	char out[NR_VALS][VAL_LEN];
	unsigned int r, n, k;
	struct mdtab t;

	if (mdtab_init(&t, 1 + g->nr_readers * NR_VALS))
		return;
	mdtab_add(&t, 0, "design");
	for (n = 0; n < g->nr_readers; n++)
		for (k = 0; k < NR_VALS; k++)
			mdtab_add(&t, 1 + n * NR_VALS + k, "r%u %s",
				  g->readers[n], val_head[k]);
	for (r = 0; r < g->nr_designs; r++) {
		mdtab_add(&t, 0, "%s", v[r].name);
		for (n = 0; n < g->nr_readers; n++) {
			values(run, g, v[r].d, g->readers[n], out);
			for (k = 0; k < NR_VALS; k++)
				mdtab_add(&t, 1 + n * NR_VALS + k, "%s",
					  out[k]);
		}
	}
	mdtab_print_split(f, &t, 1, NR_VALS, SCALE_COLS);
	fputc('\n', f);
	mdtab_free(&t);
}

/* "from N = 4: 30075 vs 36060 IOPS (-16.60%); ..." for one design. */
void scale_below_str(const struct run *run, const struct scale_below *b,
		     char *buf, size_t len)
{
	size_t l;

	if (b->readers < 0) {
		snprintf(buf, len, "at no reader count of the table");
		return;
	}
	l = snprintf(buf, len, "from N = %d: %.0f vs %.0f IOPS (%+.2f%%)",
		     b->readers, b->iops, b->ref_iops,
		     (b->iops - b->ref_iops) / b->ref_iops * 100);
	if (l >= len)
		return;
	if (b->reps < 2 || b->ref_reps < 2)
		snprintf(buf + l, len - l,
			 "; a point comparison (%u and %u boots: no test)",
			 b->reps, b->ref_reps);
	else if (isnan(b->cmp.p_holm))
		snprintf(buf + l, len - l,
			 "; uncorrected Mann-Whitney p = %.3g%s, not among the report's Holm tests: read it as a point comparison",
			 b->cmp.p, b->cmp.exact ? "" : "~");
	else
		snprintf(buf + l, len - l,
			 "; Mann-Whitney p = %.3g%s, Holm p = %.3g over the report's %u secondary tests: %s",
			 b->cmp.p, b->cmp.exact ? "" : "~", b->cmp.p_holm,
			 run->nr_holm,
			 b->cmp.significant ? "significant" : "not significant");
}

static void scale_statements(FILE *f, const struct run *run,
			     const struct scale_group *g,
			     const struct design *v)
{
	struct scale_below b;
	char s[512];
	unsigned int r;

	fprintf(f, "Below interrupts (the smallest N at which the design's IOPS, mean over boots, is lower than interrupts' at the same N):\n\n");
	for (r = 0; r < g->nr_designs; r++) {
		if (scale_is_ref(run, v[r].d))
			continue;
		scale_below(run, g, v[r].d, &b);
		scale_below_str(run, &b, s, sizeof(s));
		fprintf(f, "- %s (`%s/%s`): %s.\n", v[r].name, v[r].d->variant,
			engine_name(v[r].d->workload), s);
	}
	fputc('\n', f);
}

void scale_report(FILE *f, const struct run *run)
{
	struct scale_group *g;
	unsigned int n = scale_groups(run, &g), i;
	int vcpus = scale_vcpus(run);
	const char *lat = run->has_tlat ? "lat" : "clat";
	char name[256], vc[32];

	if (!n)
		return;
	if (vcpus > 0)
		snprintf(vc, sizeof(vc), "%d", vcpus);
	else
		snprintf(vc, sizeof(vc), "an unknown number of");
	fprintf(f, "## Scale — %s%s\n\n", run->timing_label, run_lat_note(run));
	fprintf(f, "N synchronous QD1 readers, one fio job each (workloads `<rw>-<bs>-r<N>[<suffix>]-<engine>`), "
		   "on a guest with %s vCPUs (`vcpus`). One table per workload family, "
		   "condition and device; a row per design (label and engine: *interrupts* is the `%s` "
		   "label's psync, *io_uring IOPOLL* its iouring-hipri, the others their label's "
		   "polling engine) and, per reader count N, columns `r<N>`: **IOPS** (fio, summed "
		   "over the readers; mean over boots), **CPU us** = `cpu_per_io_ns` (counted busy time "
		   "over the window plus idle-loop polling, per device I/O, in us; mean over boots), "
		   "**p50 us**, **p99 us** = %s p50 and p99 of every reader's I/Os (median over boots "
		   "of each boot's percentile), **Jain** = `reader_jain` (Jain's index of the readers' "
		   "rates, 1 = every reader got the same; mean over boots; `-` with one reader). "
		   "Tables split to stay within %d columns. Plots: `plots/scale-iops@<table>`, "
		   "`plots/scale-cpu@<table>`.\n\n",
		vc, run->variants[0], lat, SCALE_COLS);
	for (i = 0; i < n; i++) {
		struct design *v = calloc(g[i].nr_designs + 1, sizeof(*v));

		if (!v)
			break;
		scale_designs(run, &g[i], v);
		fprintf(f, "### %s\n\n", scale_group_name(&g[i], name,
							  sizeof(name)));
		scale_tables(f, run, &g[i], v);
		scale_statements(f, run, &g[i], v);
		free(v);
	}
	scale_groups_free(g, n);
}

static json_t *design_json(const struct run *run, const struct scale_group *g,
			   const struct design *x)
{
	static const char *const keys[] = {
		"iops", "cpu_per_io_ns", "ios_per_busy_cpu_sec",
		"reader_jain", "reader_min_share_pct",
	};
	static const char *const pcts[] = { "p50", "p99" };
	json_t *o = json_object(), *pts = json_array();
	struct scale_below b;
	struct scale_wl w;
	unsigned int n, k;

	scale_parse(x->d->workload, &w);
	json_object_set_new(o, "name", json_string(x->name));
	json_object_set_new(o, "variant", json_string(x->d->variant));
	json_object_set_new(o, "engine", json_string(w.engine));
	json_object_set_new(o, "is_reference",
			    json_boolean(scale_is_ref(run, x->d)));
	for (n = 0; n < g->nr_readers; n++) {
		const struct cell *c = scale_cell(run, g, x->d->variant,
						  w.engine, g->readers[n]);
		json_t *p;

		if (!c)
			continue;
		p = json_object();
		json_object_set_new(p, "readers", json_integer(g->readers[n]));
		json_object_set_new(p, "cell", json_string(c->name));
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			json_object_set_new(p, keys[k],
				jnum(scale_value(run, g, x->d, g->readers[n],
						 keys[k])));
		for (k = 0; k < 2; k++)
			json_object_set_new(p, minsts[run_lat_mi(run, pcts[k])].key,
				jnum(scale_value(run, g, x->d, g->readers[n],
					minsts[run_lat_mi(run, pcts[k])].key)));
		json_array_append_new(pts, p);
	}
	json_object_set_new(o, "points", pts);
	if (scale_is_ref(run, x->d))
		return o;
	scale_below(run, g, x->d, &b);
	json_object_set_new(o, "below_interrupts_from_readers",
			    b.readers < 0 ? json_null() :
			    json_integer(b.readers));
	json_object_set_new(o, "below_p_value", jnum(b.cmp.p));
	json_object_set_new(o, "below_p_value_holm", jnum(b.cmp.p_holm));
	json_object_set_new(o, "below_significant",
			    json_boolean(b.readers >= 0 && b.cmp.significant));
	return o;
}

json_t *scale_json(const struct run *run)
{
	struct scale_group *g;
	unsigned int n = scale_groups(run, &g), i, k;
	int vcpus = scale_vcpus(run);
	json_t *o = json_object(), *arr = json_array();

	json_object_set_new(o, "vcpus", vcpus > 0 ? json_integer(vcpus) :
						    json_null());
	for (i = 0; i < n; i++) {
		struct design *v = calloc(g[i].nr_designs + 1, sizeof(*v));
		json_t *t = json_object(), *rd = json_array(), *ds = json_array();

		json_object_set_new(t, "prefix", json_string(g[i].wl.prefix));
		json_object_set_new(t, "suffix", json_string(g[i].wl.suffix));
		json_object_set_new(t, "condition",
				    json_string(g[i].first->condition));
		json_object_set_new(t, "device",
				    json_string(g[i].first->device));
		for (k = 0; k < g[i].nr_readers; k++)
			json_array_append_new(rd,
					      json_integer(g[i].readers[k]));
		json_object_set_new(t, "readers", rd);
		if (v)
			scale_designs(run, &g[i], v);
		for (k = 0; v && k < g[i].nr_designs; k++)
			json_array_append_new(ds, design_json(run, &g[i], &v[k]));
		json_object_set_new(t, "designs", ds);
		json_array_append_new(arr, t);
		free(v);
	}
	json_object_set_new(o, "tables", arr);
	scale_groups_free(g, n);
	return o;
}
