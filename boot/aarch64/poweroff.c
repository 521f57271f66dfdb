/* SPDX-License-Identifier: BSD-2-Clause */
/* Ends the QEMU run. With -semihosting, SYS_EXIT_EXTENDED makes QEMU exit with status
 * (value << 1) | 1, the status x86's isa-debug-exit gives, so a host reads both the same
 * way. Without semihosting (the HLT is undefined and skipped), PSCI SYSTEM_OFF: QEMU exits
 * with status 0. Without either, the CPU waits with interrupts masked. */
#include "rt.h"

#define SYS_EXIT_EXTENDED 0x20
#define ADP_STOPPED_APPLICATION_EXIT 0x20026

_Noreturn void bmrt_poweroff(uint8_t exit_value)
{
	uint64_t block[2] = { ADP_STOPPED_APPLICATION_EXIT, (uint64_t)exit_value << 1 | 1 };

	irq_off();
	uart_drain();
	bmrt_semihost(SYS_EXIT_EXTENDED, block);
	bmrt_psci(PSCI_SYSTEM_OFF, 0, 0, 0);
	for (;;)
		__asm__ volatile("wfi");
}
