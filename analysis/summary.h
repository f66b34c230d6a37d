/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_SUMMARY_H
#define PB_SUMMARY_H

#include <jansson.h>

#include "model.h"

/*
 * summary.json's schema: bump when keys change. 2: latency percentiles
 * as medians over boots with _pooled, t-interval CIs, _p_value_holm,
 * _primary, primary_metrics, holm_tests, ci_method, significance_rule.
 * 3: cyclictest percentiles and max as medians over boots, with
 * _pooled and (percentiles) _lower_bound.
 * 4: "breakdown", the per-I/O path breakdown of traced cells.
 * 5: per-reader fairness (reader_jain, reader_min_share_pct),
 * ios_per_busy_cpu_sec and "scale".
 */
#define SUMMARY_FORMAT_VERSION 5

json_t *summary_json(const struct run *run, const struct opts *o);
int summary_validate(json_t *want, json_t *got);
int summary_diff(json_t *want, json_t *got, const char *path);

#endif
