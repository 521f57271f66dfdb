/* SPDX-License-Identifier: BSD-2-Clause */
/* The run's settings: the MPS boards have no fw_cfg, so the host loads the config text
 * (opt/bmprof/config's contents elsewhere) into bmrt_config_area with QEMU's generic
 * loader before the CPU starts; the board note (note.S) tells it where and how much. The
 * area is never zeroed or loaded from the image (.noinit), so RAM's reset value, zero,
 * ends the text. boot/common/config.c reads it through fwcfg_read_file. */
#include "rt.h"

#ifndef BMRT_CM_CONFIG_BYTES
#define BMRT_CM_CONFIG_BYTES 512
#endif

__attribute__((section(".noinit"), aligned(4))) char bmrt_config_area[BMRT_CM_CONFIG_BYTES];

int fwcfg_read_file(const char *name, char *buf, size_t cap)
{
	size_t n = 0;

	(void)name;
	while (n < BMRT_CM_CONFIG_BYTES && bmrt_config_area[n])
		n++;
	if (!n)
		return -1;
	for (size_t i = 0; buf != bmrt_config_area && i < n && i < cap; i++)
		buf[i] = bmrt_config_area[i];
	return (int)n;
}
