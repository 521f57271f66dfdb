/* SPDX-License-Identifier: BSD-2-Clause */
/* Ends the QEMU run through semihosting's SYS_EXIT_EXTENDED (QEMU needs
 * -semihosting-config enable=on,target=native), which makes QEMU exit with status
 * (value << 1) | 1, as the other runtimes do. Without semihosting the BKPT faults into
 * HardFault, which ends here again: then the CPU waits with interrupts masked. */
#include "rt.h"

#define SYS_EXIT_EXTENDED 0x20
#define ADP_STOPPED_APPLICATION_EXIT 0x20026

_Noreturn void bmrt_poweroff(uint8_t exit_value)
{
	static int tried;
	uint32_t block[2] = { ADP_STOPPED_APPLICATION_EXIT, (uint32_t)exit_value << 1 | 1 };

	irq_off();
	uart_drain();
	if (!tried++)
		bmrt_semihost(SYS_EXIT_EXTENDED, block);
	for (;;)
		__asm__ volatile("wfi");
}
