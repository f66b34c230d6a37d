/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PB_DEVICE_H
#define PB_DEVICE_H

/* "nullb-20us" -> 20; -1 for any other device (the emulated NVMe disk). */
int nullb_us(const char *device);

#endif
