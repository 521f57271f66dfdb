/* SPDX-License-Identifier: BSD-2-Clause */
/* Faults and unexpected exceptions: one message (bmrt_log) with the exception number and
 * name, the faulting pc and lr from the stacked frame, the fault status registers and the
 * fault address where one is valid, then the run ends with an END frame (reason
 * exception, vector = the exception number, fault_pc, fault_addr). */
#include "bmrt.h"
#include "rt.h"

#define CFSR 0xE000ED28u
#define HFSR 0xE000ED2Cu
#define MMFAR 0xE000ED34u
#define BFAR 0xE000ED38u
#define SFSR 0xE000EDE4u
#define SFAR 0xE000EDE8u
#define CFSR_MMARVALID (1u << 7)
#define CFSR_BFARVALID (1u << 15)

static const char *name(uint32_t n)
{
	switch (n) {
	case 2: return "NMI";
	case 3: return "HardFault";
	case 4: return "MemManage";
	case 5: return "BusFault";
	case 6: return "UsageFault";
	case 7: return "SecureFault";
	case 11: return "SVCall";
	case 12: return "DebugMonitor";
	case 14: return "PendSV";
	default: return n >= 16 ? "external interrupt" : "exception";
	}
}

_Noreturn void bmrt_fault(const uint32_t *frame, uint32_t exc_return, uint32_t ipsr)
{
	static int depth;
	uint32_t n = ipsr & 0x1FF, cfsr = mmio_read32(CFSR), pc = frame[BMPROF_CM_FRAME_PC];
	uint32_t addr = 0;
	struct bmprof_end e = { .exit_code = -1, .reason = BMPROF_END_EXCEPTION };
	struct bmrt_msg m;

	irq_off();
	if (depth++)
		bmrt_poweroff(BMRT_EXIT_EXCEPTION);
	bmrt_msg_start(&m, BMRT_ERR);
	bmrt_msg_add(&m, "CPU exception %lu (%s) at pc=0x%08lx lr=0x%08lx cfsr=0x%08lx "
		     "hfsr=0x%08lx", (unsigned long)n, name(n), (unsigned long)pc,
		     (unsigned long)frame[BMPROF_CM_FRAME_LR], (unsigned long)cfsr,
		     (unsigned long)mmio_read32(HFSR));
	if (cfsr & CFSR_MMARVALID)
		addr = mmio_read32(MMFAR);
	else if (cfsr & CFSR_BFARVALID)
		addr = mmio_read32(BFAR);
	if (addr)
		bmrt_msg_add(&m, " addr=0x%08lx", (unsigned long)addr);
#if defined(__ARM_ARCH_8M_MAIN__) || defined(__ARM_ARCH_8_1M_MAIN__)
	if (n == 7)
		bmrt_msg_add(&m, " sfsr=0x%08lx sfar=0x%08lx", (unsigned long)mmio_read32(SFSR),
			     (unsigned long)mmio_read32(SFAR));
#endif
	bmrt_msg_add(&m, " sp=0x%08lx exc_return=0x%08lx", (unsigned long)(uintptr_t)frame,
		     (unsigned long)exc_return);
	bmrt_msg_send(&m);
	e.vector = n;
	e.fault_pc = pc;
	e.fault_addr = addr;
	bmrt_finish(&e, BMRT_EXIT_EXCEPTION);
}
