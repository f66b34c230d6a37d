// SPDX-License-Identifier: GPL-2.0
/*
 * Walk RUN_DIR/<variant>/<cell>/<rep>/ (docs/results-layout.md). Skipped:
 * boots/, hidden entries, plots/, files, "*.tmp" rep dirs (never renamed
 * by the host), and non-numeric rep names (with a warning). A rep dir
 * without fio.json or meta.json (guest died mid-run) is skipped with a
 * warning; a cell left with no valid rep is an error.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "device.h"
#include "loss.h"
#include "model.h"

static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static char *path_join(const char *a, const char *b)
{
	char *p;

	if (asprintf(&p, "%s/%s", a, b) < 0)
		return NULL;
	return p;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted subdirectory names of dir, without hidden entries. */
static int list_dirs(const char *dir, char ***out, unsigned int *n)
{
	struct dirent *de;
	char **names = NULL;
	DIR *d = opendir(dir);

	*n = 0;
	if (!d) {
		fprintf(stderr, "%s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		char *p, **nn;

		if (de->d_name[0] == '.')
			continue;
		p = path_join(dir, de->d_name);
		if (!p || !is_dir(p)) {
			free(p);
			continue;
		}
		free(p);
		nn = realloc(names, (*n + 1) * sizeof(*nn));
		if (!nn)
			break;
		names = nn;
		names[(*n)++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(names, *n, sizeof(*names), cmp_str);
	*out = names;
	return 0;
}

static void free_list(char **l, unsigned int n)
{
	while (n--)
		free(l[n]);
	free(l);
}

static int cmp_rep(const void *a, const void *b)
{
	const struct rep *x = a, *y = b;

	return (x->num > y->num) - (x->num < y->num);
}

/* A cell and everything it owns. */
static void cell_free(struct cell *c)
{
	unsigned int i;

	for (i = 0; i < c->nr_reps; i++)
		rep_free(&c->reps[i]);
	cyclic_free(&c->cyc);
	free(c->reps);
	free(c->variant);
	free(c->name);
	free(c->workload);
	free(c->condition);
	free(c->device);
	free(c->invalid_reason);
	free(c);
}

/* Every rep of a cell under one timing model: c->timing. */
static int cell_timing(struct cell *c)
{
	char a[96], b[96], *p;
	struct timing t;
	unsigned int i;

	for (i = 0; i < c->nr_reps; i++) {
		if (asprintf(&p, "%s/meta.json", c->reps[i].dir) < 0)
			return -1;
		if (timing_of_meta(c->reps[i].meta, p, &t)) {
			free(p);
			return -1;
		}
		free(p);
		if (!i) {
			c->timing = t;
		} else if (!timing_equal(&t, &c->timing)) {
			fprintf(stderr, "%s: %s, but %s: %s; never compare numbers across timing models\n",
				c->reps[0].dir, timing_label(&c->timing, a, sizeof(a)),
				c->reps[i].dir, timing_label(&t, b, sizeof(b)));
			return -1;
		}
	}
	return 0;
}

/*
 * A cell on nullb-<N>us whose smallest latency (fio's exact lat_ns.min,
 * clat_ns.min without it, of any job in any rep) is below N us: the
 * device did not delay its completions (an unpatched null_blk completes
 * polled requests at the first poll). Moved from run->cells to
 * run->invalid with the reason, and warned about.
 */
static void run_invalid(struct run *run)
{
	unsigned int i, j, k = 0;

	for (i = 0; i < run->nr_cells; i++) {
		struct cell *c = run->cells[i], **inv;
		int us = nullb_us(c->device);
		double min = NAN;
		unsigned int at = 0;

		for (j = 0; j < c->nr_reps; j++)
			if (!isnan(c->reps[j].lat_min_ns) &&
			    (isnan(min) || c->reps[j].lat_min_ns < min)) {
				min = c->reps[j].lat_min_ns;
				at = c->reps[j].num;
			}
		if (us < 0 || isnan(min) || min >= us * 1000.0) {
			run->cells[k++] = c;
			continue;
		}
		if (asprintf(&c->invalid_reason,
			     "smallest latency %.2f us (rep %u) is below the device's %d us: the "
			     "device did not delay its completions (an unpatched null_blk "
			     "completes polled requests at the first poll)",
			     min / 1000, at, us) < 0)
			c->invalid_reason = NULL;
		inv = realloc(run->invalid,
			      (run->nr_invalid + 1) * sizeof(*inv));
		if (!inv || !c->invalid_reason) {
			run->cells[k++] = c;	/* out of memory: keep it */
			continue;
		}
		run->invalid = inv;
		inv[run->nr_invalid++] = c;
		run_warn(run, "%s/%s: invalid, left out: %s", c->variant,
			 c->name, c->invalid_reason);
	}
	run->nr_cells = k;
}

/* Every rep with a fio run has total-latency (lat_ns) bins. */
static int run_has_tlat(const struct run *run)
{
	unsigned int i, j, any = 0;

	for (i = 0; i < run->nr_cells; i++)
		for (j = 0; j < run->cells[i]->nr_reps; j++) {
			const struct rep *r = &run->cells[i]->reps[j];

			if (r->lat && !r->tlat)
				return 0;
			any |= !!r->lat;
		}
	return any;
}

/*
 * The latency the cross-engine tables read: fio's clat of an async engine
 * (io_uring) starts after submission, a sync engine's covers the whole
 * call, so engines compare only on total latency (lat_<stat>_ns); a run
 * without its bins falls back to clat_<stat>_ns, and run_lat_note() says
 * so in the table heading.
 */
int run_lat_mi(const struct run *run, const char *stat)
{
	char key[64];

	snprintf(key, sizeof(key), "%s_%s_ns", run->has_tlat ? "lat" : "clat",
		 stat);
	return minst_find(key);
}

const char *run_lat_note(const struct run *run)
{
	return run->has_tlat ? "" :
	       " (clat: this run has no total-latency bins; engines are not comparable on it)";
}

const struct hist *cell_hist(const struct cell *c, const struct metric *m)
{
	return m->flags & M_TOTAL ? &c->tmerged : &c->merged;
}

/* All cells under one timing model: run->timing, else refused. */
static int run_timing(struct run *run)
{
	const struct cell *first = run->cells[0];
	char a[96], b[96];
	unsigned int i;

	for (i = 1; i < run->nr_cells; i++) {
		const struct cell *c = run->cells[i];

		if (timing_equal(&c->timing, &first->timing))
			continue;
		fprintf(stderr, "%s: cell %s/%s is %s, cell %s/%s is %s; never compare numbers across timing models\n",
			run->dir, first->variant, first->name,
			timing_label(&first->timing, a, sizeof(a)),
			c->variant, c->name,
			timing_label(&c->timing, b, sizeof(b)));
		return -1;
	}
	run->timing = first->timing;
	timing_label(&run->timing, run->timing_label,
		     sizeof(run->timing_label));
	return 0;
}

static int load_cell(struct run *run, const char *variant, const char *name,
		     const char *dir)
{
	char **reps, *at, *end;
	struct cell *c, **cells;
	unsigned int i, n;
	int ret = -1;

	if (list_dirs(dir, &reps, &n))
		return -1;
	c = calloc(1, sizeof(*c));
	if (!c)
		goto out;
	c->variant = strdup(variant);
	c->name = strdup(name);
	/* <workload>@<condition>[@<device>] */
	at = strchr(name, '@');
	c->workload = strndup(name, at - name);
	end = strchr(at + 1, '@');
	c->condition = end ? strndup(at + 1, end - at - 1) : strdup(at + 1);
	c->device = strdup(end ? end + 1 : "");
	c->reps = calloc(n ? n : 1, sizeof(*c->reps));
	for (i = 0; i < n; i++) {
		size_t len = strlen(reps[i]);
		char *rdir;
		int r;

		if (len > 4 && !strcmp(reps[i] + len - 4, ".tmp"))
			continue;
		strtoul(reps[i], &end, 10);
		if (*end || end == reps[i]) {
			run_warn(run, "%s/%s: not a rep number, skipped", dir,
				 reps[i]);
			continue;
		}
		rdir = path_join(dir, reps[i]);
		r = rep_load(run, &c->reps[c->nr_reps], rdir,
			     c->condition, c->device);
		free(rdir);
		if (r < 0)
			goto out_cell;
		if (r == 0)
			c->nr_reps++;
	}
	if (!c->nr_reps) {
		fprintf(stderr, "%s: cell has no valid repetition\n", dir);
		goto out_cell;
	}
	qsort(c->reps, c->nr_reps, sizeof(*c->reps), cmp_rep);
	if (cell_timing(c))
		goto out_cell;
	for (i = 0; i < c->nr_reps; i++) {
		if (c->reps[i].lat)
			hist_add(&c->merged, c->reps[i].lat, 1);
		if (c->reps[i].tlat)
			hist_add(&c->tmerged, c->reps[i].tlat, 1);
		if (c->reps[i].cyc && cyclic_add(&c->cyc, c->reps[i].cyc))
			goto out_cell;
	}
	cells = realloc(run->cells, (run->nr_cells + 1) * sizeof(*cells));
	if (!cells)
		goto out_cell;
	run->cells = cells;
	cells[run->nr_cells++] = c;
	ret = 0;
	goto out;
out_cell:
	cell_free(c);
out:
	free_list(reps, n);
	return ret;
}

static int load_variant(struct run *run, const char *variant)
{
	char *vdir = path_join(run->dir, variant), **cells;
	unsigned int i, n;
	int ret = 0;

	if (list_dirs(vdir, &cells, &n)) {
		free(vdir);
		return -1;
	}
	for (i = 0; i < n && !ret; i++) {
		char *cdir = path_join(vdir, cells[i]);
		const char *at = strchr(cells[i], '@');

		if (!at || at == cells[i] || !at[1] || at[1] == '@')
			run_warn(run, "%s: not <workload>@<condition>[@<device>], skipped",
				 cdir);
		else
			ret = load_cell(run, variant, cells[i], cdir);
		free(cdir);
	}
	free_list(cells, n);
	free(vdir);
	return ret;
}

static const char *base_for_sort;

static int variant_rank(const char *v)
{
	return strcmp(v, base_for_sort) ? 1 : 0;
}

static int cmp_variant(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	int d = variant_rank(x) - variant_rank(y);

	return d ? d : strcmp(x, y);
}

static int variant_index(const struct run *run, const char *v)
{
	unsigned int i;

	for (i = 0; i < run->nr_variants; i++)
		if (!strcmp(run->variants[i], v))
			return i;
	return -1;
}

static const struct run *run_for_sort;

static int cmp_cell(const void *a, const void *b)
{
	const struct cell *x = *(struct cell *const *)a;
	const struct cell *y = *(struct cell *const *)b;
	int d = strcmp(x->name, y->name);

	if (d)
		return d;
	return variant_index(run_for_sort, x->variant) -
	       variant_index(run_for_sort, y->variant);
}

/* boots/<boot-id>/status: "ok" or "failed: <reason>". */
static void load_boots(struct run *run)
{
	char *bdir = path_join(run->dir, "boots"), **ids, line[512];
	unsigned int i, n;

	if (!is_dir(bdir) || list_dirs(bdir, &ids, &n)) {
		free(bdir);
		return;
	}
	for (i = 0; i < n; i++) {
		char *sp, *entry, **nb;
		FILE *f;

		if (asprintf(&sp, "%s/%s/status", bdir, ids[i]) < 0)
			break;
		f = fopen(sp, "r");
		free(sp);
		if (!f || !fgets(line, sizeof(line), f))
			snprintf(line, sizeof(line), "no status file");
		if (f)
			fclose(f);
		line[strcspn(line, "\n")] = '\0';
		if (!strcmp(line, "ok")) {
			run->boots_ok++;
			continue;
		}
		if (asprintf(&entry, "%s: %s", ids[i], line) < 0)
			break;
		nb = realloc(run->boots_failed,
			     (run->nr_boots_failed + 1) * sizeof(*nb));
		if (!nb) {
			free(entry);
			break;
		}
		run->boots_failed = nb;
		nb[run->nr_boots_failed++] = entry;
	}
	free_list(ids, n);
	free(bdir);
}

int run_load(struct run *run, const char *dir, const char *base_variant)
{
	char *rj, **vars;
	unsigned int i, n;
	json_error_t jerr;

	memset(run, 0, sizeof(*run));
	run->dir = strdup(dir);
	rj = path_join(dir, "run.json");
	if (!access(rj, F_OK)) {
		run->runjson = json_load_file(rj, 0, &jerr);
		if (!run->runjson) {
			fprintf(stderr, "%s: line %d column %d: %s\n", rj,
				jerr.line, jerr.column, jerr.text);
			free(rj);
			return -1;
		}
	} else {
		run_warn(run, "%s: missing, run provenance incomplete", rj);
	}
	free(rj);
	load_boots(run);

	if (list_dirs(dir, &vars, &n))
		return -1;
	for (i = 0; i < n; i++) {
		unsigned int before = run->nr_cells;
		char **nv;

		if (!strcmp(vars[i], "boots") || !strcmp(vars[i], "plots"))
			continue;
		if (load_variant(run, vars[i])) {
			free_list(vars, n);
			return -1;
		}
		if (run->nr_cells == before)
			continue;	/* not a variant (e.g. an --out dir) */
		nv = realloc(run->variants,
			     (run->nr_variants + 1) * sizeof(*nv));
		if (!nv)
			break;
		run->variants = nv;
		nv[run->nr_variants++] = strdup(vars[i]);
	}
	free_list(vars, n);
	if (!run->nr_cells) {
		fprintf(stderr, "%s: no <variant>/<cell>/<rep>/ results found\n",
			dir);
		return -1;
	}
	if (run_timing(run))
		return -1;
	run->has_tlat = run_has_tlat(run);
	/* No --baseline VARIANT: run.json's "baseline", else "baseline". */
	if (!base_variant)
		base_variant = json_string_value(json_object_get(run->runjson,
								 "baseline"));
	run->base_variant = base_variant ? base_variant : "baseline";
	base_for_sort = run->base_variant;
	qsort(run->variants, run->nr_variants, sizeof(*run->variants),
	      cmp_variant);
	run_for_sort = run;
	qsort(run->cells, run->nr_cells, sizeof(*run->cells), cmp_cell);
	run_invalid(run);
	loss_link(run);
	return 0;
}

/*
 * The kernel variant a cell's label booted: meta.json "kernel_variant"
 * (bench.sh config lines), else "variant" as older runs wrote it (the
 * kernel), else the label itself.
 */
const char *cell_kernel_variant(const struct cell *c)
{
	static const char *const keys[] = { "kernel_variant", "variant" };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		json_t *v = json_object_get(c->reps[0].meta, keys[i]);

		if (json_is_string(v) && json_string_length(v))
			return json_string_value(v);
	}
	return c->variant;
}

/* The baseline label's cell of the same name (c itself, or NULL). */
const struct cell *cell_baseline(const struct run *run, const struct cell *c)
{
	return run_find(run, run->variants[0], c->name);
}

/* "<workload>@<condition>[@<device>]", malloc'd, or NULL. */
char *cell_compose(const char *workload, const char *cond,
		   const char *device)
{
	char *n;

	if (asprintf(&n, "%s@%s%s%s", workload, cond, *device ? "@" : "",
		     device) < 0)
		return NULL;
	return n;
}

struct cell *run_find(const struct run *run, const char *variant,
		      const char *cell)
{
	unsigned int i;

	for (i = 0; i < run->nr_cells; i++)
		if (!strcmp(run->cells[i]->variant, variant) &&
		    !strcmp(run->cells[i]->name, cell))
			return run->cells[i];
	return NULL;
}

void run_free(struct run *run)
{
	unsigned int i;

	for (i = 0; i < run->nr_cells; i++)
		cell_free(run->cells[i]);
	for (i = 0; i < run->nr_invalid; i++)
		cell_free(run->invalid[i]);
	free(run->cells);
	free(run->invalid);
	free(run->holm);
	free_list(run->variants, run->nr_variants);
	warn_free(&run->warn);
	free_list(run->boots_failed, run->nr_boots_failed);
	json_decref(run->runjson);
	free(run->dir);
	memset(run, 0, sizeof(*run));
}
