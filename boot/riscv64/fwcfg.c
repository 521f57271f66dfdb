/* SPDX-License-Identifier: BSD-2-Clause */
/* The config file on RISC-V virt. QEMU 7.2 creates this board's fw_cfg device only after
 * it has taken the command line's -fw_cfg files, so it has none: bmprof loads the file
 * opt/bmprof/config into RAM at CONFIG_ADDR instead (-device loader), where it is read up
 * to its first NUL (RAM is zero beyond it; all zero: no file). The fw_cfg registers
 * (0x10100000: data at +0, big-endian selector at +8) serve the other fw_cfg items. */
#include "rt.h"

#define FW_CFG_BASE 0x10100000u
#define FW_CFG_DATA (FW_CFG_BASE + 0)
#define FW_CFG_SEL (FW_CFG_BASE + 8)
#define CONFIG_ADDR 0x8F000000u       /* host/run/qemu.c; below it ends the image */
#define CONFIG_NAME "opt/bmprof/config"
#define CONFIG_MAX 65536

void fwcfg_select(uint16_t key) { mmio_write16(FW_CFG_SEL, __builtin_bswap16(key)); }
uint8_t fwcfg_byte(void) { return mmio_read8(FW_CFG_DATA); }

int fwcfg_read_file(const char *name, char *buf, size_t cap)
{
	const volatile char *p = (const volatile char *)(uintptr_t)CONFIG_ADDR;
	const char *want = CONFIG_NAME;
	int n = 0;

	while (*name && *name == *want)
		name++, want++;
	if (*name || *want || !p[0])
		return -1;
	for (; n < CONFIG_MAX && p[n]; n++)
		if ((size_t)n < cap)
			buf[n] = p[n];
	return n;
}
