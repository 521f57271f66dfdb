/* SPDX-License-Identifier: BSD-2-Clause */
/* Ends the QEMU run with the exit value through the isa-debug-exit device (iobase 0xf4),
 * as the plain runtime does; without that device, the firmware's ResetSystem. */
#include "../../x86_64/rt.h"
#include "uefi_rt.h"

#define DEBUG_EXIT_PORT 0xf4

_Noreturn void bmrt_poweroff(uint8_t exit_value)
{
	outb(DEBUG_EXIT_PORT, exit_value);
	bmrt_efi_shutdown();
}
