/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_FMT_H
#define PB_FMT_H

#include <stddef.h>

#include <jansson.h>

const char *fmt_val(char *buf, size_t len, double v);
const char *fmt_num(char *buf, size_t len, double v, double scale,
		    const char *fmt);
json_t *jnum(double v);

#endif
