/* SPDX-License-Identifier: BSD-2-Clause */
/* QEMU fw_cfg's registers on x86-64, I/O ports: 0x510 selects an item (16-bit), 0x511
 * reads its bytes in order. */
#include "rt.h"

#define FW_CFG_SEL 0x510
#define FW_CFG_DATA 0x511

void fwcfg_select(uint16_t key) { outw(FW_CFG_SEL, key); }
uint8_t fwcfg_byte(void) { return inb(FW_CFG_DATA); }
