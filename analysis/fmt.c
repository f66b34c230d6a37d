// SPDX-License-Identifier: GPL-2.0
/* Number formatting shared by the renderers: markdown cells and JSON. */
#include <math.h>
#include <stdio.h>

#include "fmt.h"

const char *fmt_val(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (isnan(v))
		snprintf(buf, len, "-");
	else if (a >= 1000 || v == floor(v))
		snprintf(buf, len, "%.0f", v);
	else if (a >= 10)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 0.01)
		snprintf(buf, len, "%.3f", v);
	else
		snprintf(buf, len, "%.3g", v);
	return buf;
}

/* v / scale printed with fmt, "-" when missing (NAN). */
const char *fmt_num(char *buf, size_t len, double v, double scale,
		    const char *fmt)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, fmt, v / scale);
	return buf;
}

/* jansson cannot encode NaN: missing values are null. */
json_t *jnum(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}
