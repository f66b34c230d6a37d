// SPDX-License-Identifier: GPL-2.0
/*
 * Parse fio's json+ output: the raw completion latency bins
 * (jobs[].{read,write}.clat_ns.bins, "<bin value in ns>": count), the
 * total latency bins when fio ran with --lat_percentiles=1 (lat_ns.bins,
 * same format; older runs have none), the exact minima, total_ios, iops,
 * CPU usage and context switches, and each job's own I/Os and runtime
 * (one job per reader in the scale matrix: per-reader fairness).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "fio.h"

static const char *const fio_dirs[] = { "read", "write" };
/* --unified_rw_reporting=1 reports both directions as "mixed". */
static const char *const fio_mixed[] = { "mixed" };

static int get_num(json_t *obj, const char *key, double *v)
{
	json_t *j = json_object_get(obj, key);

	if (!json_is_number(j))
		return -1;
	*v = json_number_value(j);
	return 0;
}

static int get_uint(json_t *obj, const char *key, uint64_t *v)
{
	json_t *j = json_object_get(obj, key);

	if (!json_is_integer(j) || json_integer_value(j) < 0)
		return -1;
	*v = json_integer_value(j);
	return 0;
}

/* One side's "<what>" object (clat_ns or lat_ns) into h. */
static int load_bins(const char *path, unsigned int job, const char *dir,
		     const char *what, json_t *clat, struct hist *h)
{
	json_t *bins = json_object_get(clat, "bins");
	uint64_t n, sum = 0;
	const char *key;
	json_t *val;

	if (get_uint(clat, "N", &n)) {
		fprintf(stderr, "%s: jobs[%u].%s.%s: missing integer N\n",
			path, job, dir, what);
		return -1;
	}
	if (!n)
		return 0;
	if (!json_is_object(bins)) {
		fprintf(stderr,
			"%s: jobs[%u].%s.%s: missing bins (not --output-format=json+?)\n",
			path, job, dir, what);
		return -1;
	}
	if (!json_object_size(bins)) {
		fprintf(stderr,
			"%s: jobs[%u].%s.%s.bins: empty histogram but N is %" PRIu64 "\n",
			path, job, dir, what, n);
		return -1;
	}
	json_object_foreach(bins, key, val) {
		unsigned long long v;
		unsigned int idx;
		char *end;

		errno = 0;
		v = strtoull(key, &end, 10);
		if (errno || *end || end == key || hist_bin_of_val(v, &idx)) {
			fprintf(stderr,
				"%s: jobs[%u].%s.%s.bins: \"%s\" is not a fio bin value\n",
				path, job, dir, what, key);
			return -1;
		}
		if (!json_is_integer(val) || json_integer_value(val) < 0) {
			fprintf(stderr,
				"%s: jobs[%u].%s.%s.bins[\"%s\"]: not a count\n",
				path, job, dir, what, key);
			return -1;
		}
		h->cnt[idx] += json_integer_value(val);
		sum += json_integer_value(val);
	}
	if (sum != n) {
		fprintf(stderr,
			"%s: jobs[%u].%s.%s: bins hold %" PRIu64 " samples, N is %" PRIu64 "\n",
			path, job, dir, what, sum, n);
		return -1;
	}
	h->n += sum;
	return 0;
}

/* The smaller of *min and obj's "min" when obj has samples. */
static void take_min(json_t *obj, double *min)
{
	json_t *n = json_object_get(obj, "N"), *m = json_object_get(obj, "min");

	if (json_is_integer(n) && json_integer_value(n) > 0 &&
	    json_is_number(m) && (isnan(*min) || json_number_value(m) < *min))
		*min = json_number_value(m);
}

/*
 * lat_ns.bins exist only with --lat_percentiles=1: a side without them
 * (but with samples) makes the whole result clat-only.
 */
static int load_total(const char *path, unsigned int job, const char *dir,
		      json_t *side, struct fio_result *r)
{
	json_t *lat = json_object_get(side, "lat_ns");
	json_t *n = json_object_get(lat, "N");

	take_min(lat, &r->lat_min_ns);
	if (!json_is_object(lat) || !json_object_get(lat, "bins")) {
		if (!json_is_integer(n) || json_integer_value(n) > 0)
			r->has_tlat = 0;
		return 0;
	}
	return load_bins(path, job, dir, "lat_ns", lat, &r->tlat);
}

/*
 * The job's runtime in ms: fio's job_runtime, else (older fio) the longer
 * of its sides' runtime; NAN when it has none, or none above 0.
 */
static double job_runtime(json_t *job, const char *const *dirs,
			  unsigned int nr_dirs)
{
	double v, best = NAN;
	unsigned int d;

	if (!get_num(job, "job_runtime", &v) && v > 0)
		return v;
	for (d = 0; d < nr_dirs; d++)
		if (!get_num(json_object_get(job, dirs[d]), "runtime", &v) &&
		    v > 0 && (isnan(best) || v > best))
			best = v;
	return best;
}

static int load_job(const char *path, unsigned int i, json_t *job,
		    struct fio_result *r)
{
	struct fio_job *fj = &r->job[i];
	double usr, sys, iops;
	uint64_t ctx, ios, err;
	const char *const *dirs = fio_dirs;
	unsigned int d, nr_dirs = 2;

	if (!json_is_object(job)) {
		fprintf(stderr, "%s: jobs[%u]: not an object\n", path, i);
		return -1;
	}
	if (!get_uint(job, "error", &err) && err) {
		fprintf(stderr, "%s: jobs[%u]: fio reported error %" PRIu64 "\n",
			path, i, err);
		return -1;
	}
	if (get_num(job, "usr_cpu", &usr) || get_num(job, "sys_cpu", &sys) ||
	    get_uint(job, "ctx", &ctx)) {
		fprintf(stderr,
			"%s: jobs[%u]: missing usr_cpu, sys_cpu or ctx\n",
			path, i);
		return -1;
	}
	r->cpu_pct += usr + sys;
	r->ctx += ctx;

	if (json_is_object(json_object_get(job, "mixed"))) {
		dirs = fio_mixed;
		nr_dirs = 1;
	}
	fj->ios = 0;
	fj->runtime_ms = job_runtime(job, dirs, nr_dirs);
	for (d = 0; d < nr_dirs; d++) {
		json_t *side = json_object_get(job, dirs[d]);
		json_t *clat = json_object_get(side, "clat_ns");

		if (!json_is_object(side)) {
			fprintf(stderr, "%s: jobs[%u]: missing %s\n", path, i,
				dirs[d]);
			return -1;
		}
		if (get_uint(side, "total_ios", &ios) ||
		    get_num(side, "iops", &iops)) {
			fprintf(stderr,
				"%s: jobs[%u].%s: missing total_ios or iops\n",
				path, i, dirs[d]);
			return -1;
		}
		if (!json_is_object(clat)) {
			fprintf(stderr, "%s: jobs[%u].%s: missing clat_ns\n",
				path, i, dirs[d]);
			return -1;
		}
		if (load_bins(path, i, dirs[d], "clat_ns", clat, &r->lat) ||
		    load_total(path, i, dirs[d], side, r))
			return -1;
		take_min(clat, &r->clat_min_ns);
		fj->ios += ios;
		r->ios += ios;
		r->iops += iops;
	}
	return 0;
}

int fio_load(const char *path, struct fio_result *r)
{
	json_error_t jerr;
	json_t *root, *jobs, *job;
	size_t i;
	int ret = -1;

	hist_clear(&r->lat);
	hist_clear(&r->tlat);
	r->has_tlat = 1;
	r->clat_min_ns = r->lat_min_ns = NAN;
	r->ios = r->ctx = 0;
	r->iops = r->cpu_pct = 0;
	r->jobs = 0;

	root = json_load_file(path, 0, &jerr);
	if (!root) {
		fprintf(stderr, "%s: line %d column %d: %s\n", path, jerr.line,
			jerr.column, jerr.text);
		return -1;
	}
	jobs = json_object_get(root, "jobs");
	if (!json_is_array(jobs) || !json_array_size(jobs)) {
		fprintf(stderr, "%s: missing or empty \"jobs\" array\n", path);
		goto out;
	}
	if (json_array_size(jobs) > FIO_MAX_JOBS) {
		fprintf(stderr, "%s: %zu jobs, more than the %d readers a cell can have\n",
			path, json_array_size(jobs), FIO_MAX_JOBS);
		goto out;
	}
	json_array_foreach(jobs, i, job) {
		if (load_job(path, i, job, r))
			goto out;
		r->jobs++;
	}
	if (!r->lat.n) {
		fprintf(stderr,
			"%s: no completion latency samples (empty histogram)\n",
			path);
		goto out;
	}
	if (!r->tlat.n)
		r->has_tlat = 0;
	if (r->has_tlat && r->tlat.n != r->lat.n) {
		fprintf(stderr, "%s: lat_ns bins hold %" PRIu64 " samples, clat_ns bins %" PRIu64 "\n",
			path, r->tlat.n, r->lat.n);
		goto out;
	}
	ret = 0;
out:
	json_decref(root);
	return ret;
}
