/* SPDX-License-Identifier: BSD-2-Clause */
/* The vector table, at the start of the image (where QEMU's board points VTOR at reset):
 * the initial MSP, the reset handler, the faults (fault.S), SysTick (the sampler's
 * entry); the rest go to the fault handler, which reports them as unexpected. Weak, for a
 * library's or a program's own handler: DebugMonitor (bmprof_cm_debugmon_entry: a PMU
 * driver whose overflow is a DebugMonitor exception makes it bmprof_cm_overflow_entry;
 * only bmprof_* names stay global in libbmprof.a), SVCall, PendSV, and the external
 * interrupts (bmrt_irq_entry, all of them: it dispatches by IPSR). */
#include "rt.h"

extern char bmrt_stack_top[];
void bmrt_reset(void);
void bmrt_fault_entry(void);
void bmprof_cm_debugmon_entry(void);   /* weak, in fault.S */
void bmrt_pendsv_entry(void);
void bmrt_svc_entry(void);
void bmrt_irq_entry(void);

#define EXTERNAL 32

__attribute__((section(".vectors"), used))
void (*const bmrt_vectors[16 + EXTERNAL])(void) = {
	[0] = (void (*)(void))bmrt_stack_top,
	[1] = bmrt_reset,
	[2 ... 10] = bmrt_fault_entry,       /* NMI, HardFault .. SecureFault, reserved */
	[11] = bmrt_svc_entry,
	[12] = bmprof_cm_debugmon_entry,
	[13] = bmrt_fault_entry,
	[14] = bmrt_pendsv_entry,
	[15] = bmprof_cm_systick_entry,
	[16 ... 16 + EXTERNAL - 1] = bmrt_irq_entry,
};
