/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_JAIN_H
#define PB_JAIN_H

double jain_index(const double *x, unsigned int n);
double min_share_pct(const double *x, unsigned int n);

#endif
