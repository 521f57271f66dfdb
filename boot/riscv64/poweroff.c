/* SPDX-License-Identifier: BSD-2-Clause */
/* Ends the QEMU run through virt's SiFive test device at 0x100000: (code << 16) | 0x3333
 * makes QEMU exit with status code; the runtime writes (value << 1) | 1, the status x86's
 * isa-debug-exit and AArch64's semihosting give, so a host reads all three the same way.
 * Without the device the hart waits with interrupts masked. */
#include "rt.h"

#define SIFIVE_TEST 0x100000u
#define FINISHER_FAIL 0x3333u

_Noreturn void bmrt_poweroff(uint8_t exit_value)
{
	irq_off();
	uart_drain();
	mmio_write32(SIFIVE_TEST, (uint32_t)((exit_value << 1 | 1) << 16) | FINISHER_FAIL);
	for (;;)
		__asm__ volatile("wfi");
}
