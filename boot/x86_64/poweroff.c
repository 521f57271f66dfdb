/* SPDX-License-Identifier: BSD-2-Clause */
/* Ends the QEMU run: the isa-debug-exit device (iobase 0xf4) makes QEMU exit with status
 * (value << 1) | 1. Without that device, ACPI S5 through the PM1a control register of
 * q35 (0x604) and of i440fx (0xB004) as QEMU's firmware sets them up; without those, the
 * CPU halts with interrupts masked. */
#include "rt.h"

#define DEBUG_EXIT_PORT 0xf4
#define PM1A_CNT_Q35 0x604
#define PM1A_CNT_PIIX 0xB004
#define SLP_EN_S5 0x2000     /* SLP_EN with SLP_TYP 0, QEMU's S5 */

_Noreturn void bmrt_poweroff(uint8_t exit_value)
{
	cli();
	outb(DEBUG_EXIT_PORT, exit_value);
	outw(PM1A_CNT_Q35, SLP_EN_S5);
	outw(PM1A_CNT_PIIX, SLP_EN_S5);
	for (;;)
		__asm__ volatile("hlt");
}
