/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_LOSS_H
#define PB_LOSS_H

#include "model.h"

int cell_is_competitor(const struct cell *c);
void loss_link(struct run *run);

#endif
