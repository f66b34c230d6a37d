// SPDX-License-Identifier: GPL-2.0
/* The device part of a cell name: null_blk with a set latency, or not. */
#include <stdio.h>

#include "device.h"

int nullb_us(const char *device)
{
	unsigned int us;
	int end = 0;

	if (sscanf(device, "nullb-%uus%n", &us, &end) != 1 || !end ||
	    device[end] || us > 1000000000)
		return -1;
	return us;
}
