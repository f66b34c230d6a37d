/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_FAIR_OUT_H
#define PB_FAIR_OUT_H

#include <stdio.h>

#include <jansson.h>

#include "fair.h"
#include "plot.h"

void fair_report(FILE *f, const struct run *run, const struct opts *o);
json_t *fair_json(const struct run *run, const struct opts *o);
int fair_plots(const struct run *run, const struct opts *o,
	       struct plot_sink *s);

#endif
