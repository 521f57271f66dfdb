/* SPDX-License-Identifier: BSD-2-Clause */
/* QEMU fw_cfg's registers on virt, memory-mapped at 0x09020000: the data register at +0
 * reads an item's bytes in order, the selector at +8 takes a big-endian 16-bit key. */
#include "rt.h"

#define FW_CFG_BASE 0x09020000u
#define FW_CFG_DATA (FW_CFG_BASE + 0)
#define FW_CFG_SEL (FW_CFG_BASE + 8)

void fwcfg_select(uint16_t key) { mmio_write16(FW_CFG_SEL, __builtin_bswap16(key)); }
uint8_t fwcfg_byte(void) { return mmio_read8(FW_CFG_DATA); }
