/* Ends the QEMU run. With -semihosting, SYS_EXIT_EXTENDED makes QEMU exit with status
 * (value << 1) | 1, the status x86's isa-debug-exit gives, so a host reads both the same
 * way. Without semihosting (the HLT is undefined and skipped), PSCI SYSTEM_OFF: QEMU exits
 * with status 0. The PSCI conduit is HVC when QEMU started the image at EL1 and SMC when
 * it started it at EL2 (-M virt,virtualization=on), as QEMU's device tree says. Without
 * either, the CPU waits with interrupts masked. */
#include "rt.h"

#define SYS_EXIT_EXTENDED 0x20
#define ADP_STOPPED_APPLICATION_EXIT 0x20026
#define PSCI_SYSTEM_OFF 0x84000008u

_Noreturn void bmrt_poweroff(uint8_t exit_value)
{
	uint64_t block[2] = { ADP_STOPPED_APPLICATION_EXIT, (uint64_t)exit_value << 1 | 1 };

	irq_off();
	uart_drain();
	bmrt_semihost(SYS_EXIT_EXTENDED, block);
	if (bmrt_entry_el == 2)
		bmrt_psci_smc(PSCI_SYSTEM_OFF);
	else
		bmrt_psci_hvc(PSCI_SYSTEM_OFF);
	for (;;)
		__asm__ volatile("wfi");
}
