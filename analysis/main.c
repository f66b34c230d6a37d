// SPDX-License-Identifier: GPL-2.0
/*
 * pollbench-report: summarise a pollbench run directory from its raw
 * files (docs/results-layout.md) into report.md, summary.csv,
 * summary.json and plots/, or --validate an existing summary.json.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "aggregate.h"
#include "answer.h"
#include "scale_answer.h"
#include "breakdown.h"
#include "model.h"
#include "plots.h"
#include "runcmp_out.h"
#include "scalex_out.h"
#include "scalex_plot.h"
#include "signif.h"
#include "stats.h"
#include "summary.h"
#include "table.h"

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: %s RUN_DIR [options]\n"
		"       %s --scale OUT_DIR RUN_DIR... [options]\n"
		"       %s --compare OUT_DIR RUN_A RUN_B\n"
		"\n"
		"Reads RUN_DIR/<variant>/<cell>/<rep>/ and writes report.md, answer.txt\n"
		"(its headline in %d columns), summary.csv, summary.json and plots/.\n"
		"With --scale, reads runs of the scale matrix at different vCPU counts\n"
		"(one each, same timing model and devices) and writes OUT_DIR/scale.md\n"
		"and OUT_DIR/plots/. With --compare, reads the summary.json of two runs\n"
		"of one timing model and writes OUT_DIR/compare.md and compare.json.\n"
		"\n"
		"Options:\n"
		"  --out DIR               write outputs to DIR (default: RUN_DIR)\n"
		"  --seed N                seed of the maxima's bootstrap CIs (default: %llu)\n"
		"  --resamples N           bootstrap resamples of those (default: %d)\n"
		"  --baseline VARIANT      baseline column of the per-cell tables\n"
		"                          (default: run.json \"baseline\", else baseline)\n"
		"  --baseline VARIANT/CELL first column of the engine comparison of\n"
		"                          CELL's family (all variants); repeatable\n"
		"                          (default: the baseline variant's psync cell,\n"
		"                          else the first cell by name)\n"
		"  --fair-ref [VARIANT/]WORKLOAD\n"
		"                          reference of the fairness trade-off's latency\n"
		"                          gain (default: --baseline variant, the row's\n"
		"                          <rw>-<bs>-<qd>-psync; same condition, device)\n"
		"  --validate              recompute from the raw files and compare with\n"
		"                          DIR/summary.json; exit 1 naming the first\n"
		"                          differing key (default: off)\n"
		"  --no-plots              do not write plots/ (default: plots on)\n"
		"  --scale OUT_DIR         compare the RUN_DIRs' scale tables across vCPU\n"
		"                          counts into OUT_DIR (default: off, one run)\n"
		"  --compare OUT_DIR       RUN_A and RUN_B cell by cell from their\n"
		"                          summary.json into OUT_DIR; takes no other\n"
		"                          option (default: off, one run)\n"
		"  -h, --help              this text\n"
		"\n"
		"Exit status: 0 ok, 1 broken input or --validate mismatch, 2 usage\n"
		"(and runs that cannot be compared).\n",
		prog, prog, prog, ANSWER_COLS, (unsigned long long)DEFAULT_SEED,
		DEFAULT_RESAMPLES);
}

static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || end == s || s[0] == '-' || v > max)
		return -1;
	*out = v;
	return 0;
}

static char *out_path(const struct opts *o, const char *file)
{
	char *p;

	if (asprintf(&p, "%s/%s", o->out_dir, file) < 0) {
		perror("asprintf");
		exit(1);
	}
	return p;
}

static int validate(const struct opts *o, json_t *got)
{
	char *path = out_path(o, "summary.json");
	json_error_t jerr;
	json_t *want = json_load_file(path, 0, &jerr);
	int r;

	if (!want) {
		fprintf(stderr, "%s: line %d column %d: %s\n", path, jerr.line,
			jerr.column, jerr.text);
		free(path);
		return 1;
	}
	r = summary_validate(want, got);
	printf("%s: %s\n", path, r ? "DIFFERS from the raw files" :
				     "matches the raw files");
	json_decref(want);
	free(path);
	return r ? 1 : 0;
}

static int write_all(const struct run *run, const struct opts *o,
		     json_t *summary)
{
	char *p, *a;
	int plots = 0, r;

	if (mkdir(o->out_dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "%s: %s\n", o->out_dir, strerror(errno));
		return 1;
	}
	p = out_path(o, "summary.json");
	r = json_dump_file(summary, p, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
	if (r)
		fprintf(stderr, "%s: cannot write\n", p);
	free(p);
	if (r)
		return 1;
	p = out_path(o, "summary.csv");
	r = write_csv(run, p);
	free(p);
	if (r)
		return 1;
	if (!o->no_plots) {
		p = out_path(o, "plots");
		plots = write_plots(run, o, p);
		free(p);
		if (plots < 0)
			return 1;
	}
	p = out_path(o, "report.md");
	r = write_report(run, o, p, plots > 0);
	if (!r)
		printf("wrote %s\n", p);
	a = out_path(o, "answer.txt");
	if (!r) {
		r = write_answer(run, a, p);
		if (!r)
			printf("wrote %s\n", a);
	}
	free(a);
	a = out_path(o, "scale.txt");
	if (!r && scale_groups_count(run)) {
		r = scale_answer(run, a);
		if (!r)
			printf("wrote %s\n", a);
	}
	free(a);
	free(p);
	return r ? 1 : 0;
}

/* Load, aggregate and test one run, as for its own report. */
static int load_one(struct run *run, const char *dir, struct opts *o)
{
	if (run_load(run, dir, o->base_variant))
		return -1;
	if (o->base_variant && strcmp(run->variants[0], o->base_variant))
		run_warn(run, "baseline variant \"%s\" not found; using \"%s\"",
			 o->base_variant, run->variants[0]);
	return run_aggregate(run, o) || run_significance(run, o) ? -1 : 0;
}

/* --scale OUT_DIR RUN_DIR...: scale.md and plots across vCPU counts. */
static int scale_mode(struct opts *o, char **dirs, unsigned int n)
{
	struct run *runs = calloc(n, sizeof(*runs));
	unsigned int i, loaded = 0;
	struct plot_sink s;
	struct xs_set x;
	int ret = 1, plots = 0;
	char *p;

	for (i = 0; runs && i < n; i++, loaded++)
		if (load_one(&runs[i], dirs[i], o)) {
			run_free(&runs[i]);
			goto out;
		}
	if (!runs)
		goto out;
	ret = xs_open(&x, runs, n);
	if (ret)
		goto out_x;
	ret = 1;
	if (mkdir(o->scale_dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "%s: %s\n", o->scale_dir, strerror(errno));
		goto out_x;
	}
	if (!o->no_plots) {
		if (asprintf(&p, "%s/plots", o->scale_dir) < 0)
			goto out_x;
		plots = plot_open_label(&s, x.run[0]->timing_label, p);
		if (!plots)
			plots = plot_close(&s, scalex_plots(&x, &s));
		free(p);
		if (plots < 0)
			goto out_x;
	}
	if (asprintf(&p, "%s/scale.md", o->scale_dir) < 0)
		goto out_x;
	if (!scalex_report(&x, p, plots > 0)) {
		printf("wrote %s\n", p);
		ret = 0;
	}
	free(p);
out_x:
	xs_free(&x);
out:
	for (i = 0; i < loaded; i++)
		run_free(&runs[i]);
	free(runs);
	return ret;
}

/* mkdir -p: OUT_DIR's parents are made only once the runs compare. */
static int mkdirs(const char *dir)
{
	char *p = strdup(dir), *s;
	int r = 0;

	for (s = p; p && !r && (s = strchr(s + 1, '/')); ) {
		*s = '\0';
		if (mkdir(p, 0777) && errno != EEXIST)
			r = -1;
		*s = '/';
	}
	if (!p || r || (mkdir(p, 0777) && errno != EEXIST)) {
		fprintf(stderr, "%s: %s\n", dir, strerror(errno));
		r = -1;
	}
	free(p);
	return r;
}

/* --compare OUT_DIR RUN_A RUN_B: compare.md and compare.json. */
static int compare_mode(const char *out, const char *a, const char *b)
{
	struct rc_set s;
	char *md = NULL, *js = NULL;
	int r = rc_open(&s, a, b);

	if (r)
		return r;
	r = 1;
	if (asprintf(&md, "%s/compare.md", out) < 0)
		md = NULL;
	if (asprintf(&js, "%s/compare.json", out) < 0)
		js = NULL;
	if (!md || !js)
		goto out;
	if (mkdirs(out) || runcmp_json(&s, js) || runcmp_md(&s, md))
		goto out;
	printf("wrote %s\n", md);
	r = 0;
out:
	free(md);
	free(js);
	rc_free(&s);
	return r;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "seed", required_argument, NULL, 's' },
		{ "resamples", required_argument, NULL, 'r' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "fair-ref", required_argument, NULL, 'f' },
		{ "validate", no_argument, NULL, 'v' },
		{ "no-plots", no_argument, NULL, 'n' },
		{ "scale", required_argument, NULL, 'S' },
		{ "compare", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = {
		.seed = DEFAULT_SEED,
		.resamples = DEFAULT_RESAMPLES,
		.base_variant = NULL,	/* run.json "baseline", else "baseline" */
	};
	struct run run;
	json_t *summary;
	const char *compare_dir = NULL;
	int c, ret, others = 0;
	uint64_t v;

	while ((c = getopt_long(argc, argv, "h", lopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o.out_dir = optarg;
			break;
		case 's':
			if (parse_u64(optarg, INT64_MAX, &o.seed)) {
				fprintf(stderr, "--seed: \"%s\" is not a number in 0..2^63-1\n",
					optarg);
				return 2;
			}
			break;
		case 'r':
			if (parse_u64(optarg, 1000000, &v) || !v) {
				fprintf(stderr, "--resamples: \"%s\" is not in 1..1000000\n",
					optarg);
				return 2;
			}
			o.resamples = v;
			break;
		case 'b':
			if (strchr(optarg, '/')) {
				char **n = realloc(o.base_cells,
						   (o.nr_base_cells + 1) *
						   sizeof(*n));

				if (!n)
					return 1;
				o.base_cells = n;
				n[o.nr_base_cells++] = optarg;
			} else {
				o.base_variant = optarg;
			}
			break;
		case 'f':
			o.fair_ref = optarg;
			break;
		case 'v':
			o.validate = 1;
			break;
		case 'n':
			o.no_plots = 1;
			break;
		case 'S':
			o.scale_dir = optarg;
			break;
		case 'C':
			compare_dir = optarg;
			break;
		case 'h':
			usage(stdout, argv[0]);
			return 0;
		default:
			usage(stderr, argv[0]);
			return 2;
		}
		others += c != 'C';
	}
	if (compare_dir) {
		if (others || optind + 2 != argc) {
			fprintf(stderr, "--compare OUT_DIR takes RUN_A RUN_B and no other option\n");
			return 2;
		}
		return compare_mode(compare_dir, argv[optind],
				    argv[optind + 1]);
	}
	if (o.scale_dir && (optind == argc || o.validate || o.out_dir)) {
		fprintf(stderr, "--scale OUT_DIR takes RUN_DIR... and neither --validate nor --out\n");
		return 2;
	}
	if (o.scale_dir) {
		metrics_init();
		return scale_mode(&o, argv + optind, argc - optind);
	}
	if (optind + 1 != argc) {
		usage(stderr, argv[0]);
		return 2;
	}
	o.run_dir = argv[optind];
	if (!o.out_dir)
		o.out_dir = o.run_dir;

	metrics_init();
	if (run_load(&run, o.run_dir, o.base_variant)) {
		run_free(&run);
		return 1;
	}
	if (!o.base_variant)
		o.base_variant = run.base_variant;
	if (strcmp(run.variants[0], o.base_variant))
		run_warn(&run, "baseline variant \"%s\" not found; using \"%s\"",
			 o.base_variant, run.variants[0]);
	if (run_aggregate(&run, &o) || run_significance(&run, &o)) {
		run_free(&run);
		return 1;
	}
	run_breakdown_check(&run);
	summary = summary_json(&run, &o);
	if (o.validate)
		ret = validate(&o, summary);
	else
		ret = write_all(&run, &o, summary);
	json_decref(summary);
	run_free(&run);
	free(o.base_cells);
	return ret;
}
