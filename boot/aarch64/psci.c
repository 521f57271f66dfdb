/* SPDX-License-Identifier: BSD-2-Clause */
/* PSCI calls. QEMU's PSCI conduit is HVC when it started the image at EL1 and SMC when it
 * started it at EL2 (-M virt,virtualization=on), as its device tree says. Without the
 * conduit the call returns -1 (NOT_SUPPORTED): trap.S skips the undefined instruction. */
#include "rt.h"

int64_t bmrt_psci(uint64_t fn, uint64_t a1, uint64_t a2, uint64_t a3)
{
	if (bmrt_entry_el == 2)
		return bmrt_psci_smc(fn, a1, a2, a3);
	return bmrt_psci_hvc(fn, a1, a2, a3);
}
