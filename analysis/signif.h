/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_SIGNIF_H
#define PB_SIGNIF_H

#include "model.h"

int run_significance(struct run *run, const struct opts *o);

#endif
