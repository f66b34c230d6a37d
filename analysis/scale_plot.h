/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_SCALE_PLOT_H
#define PB_SCALE_PLOT_H

#include <stdio.h>

#include "plot.h"
#include "scale.h"

void scale_xaxis(FILE *gp, const unsigned int *readers, unsigned int n);
void scale_plot_file(char *buf, size_t len, const char *what,
		     const struct scale_group *g);
int scale_plots(const struct run *run, struct plot_sink *s);

#endif
