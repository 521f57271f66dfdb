/* SPDX-License-Identifier: BSD-2-Clause */
/* Every trap, from entry.S with the frame (rt.h). Interrupts go to the sampler (the
 * machine timer and the counter-overflow interrupt); in the outermost one, unless the
 * interrupted code is writing console text (it may hold the UART), the sampler's
 * interrupt-exit drain runs, and a hart told to stop parks there. The machine software
 * interrupt is smp.c's. Exceptions end the run: one message with mcause, mepc, mtval
 * and sp, then an END frame (vector = mcause, fault_pc = mepc, fault_addr = mtval). A
 * second exception while reporting one powers off at once. While probing for a CSR
 * (csrprobe.c) an illegal instruction is skipped instead, with a0 = -1. */
#include "bmrt.h"
#include "rt.h"

#define CAUSE_IRQ (1ull << 63)
#define CAUSE_ILLEGAL 2

#define IRQ_SOFT 3

volatile int bmrt_probing;

static const char *cause_name(uint64_t c)
{
	switch (c) {
	case 0: return "instruction address misaligned";
	case 1: return "instruction access fault";
	case 2: return "illegal instruction";
	case 3: return "breakpoint";
	case 4: return "load address misaligned";
	case 5: return "load access fault";
	case 6: return "store address misaligned";
	case 7: return "store access fault";
	case 8: case 9: case 11: return "environment call";
	case 12: return "instruction page fault";
	case 13: return "load page fault";
	case 15: return "store page fault";
	default: return "exception";
	}
}

static int tval_is_address(uint64_t c)
{
	return c == 0 || c == 1 || (c >= 4 && c <= 7) || c == 12 || c == 13 || c == 15;
}

static void interrupt(uint64_t *f, uint64_t cause)
{
	struct bmrt_cpu *c = &bmrt_cpus[bmrt_cpu()];

	c->irq_depth++;
	if (cause == IRQ_SOFT)
		bmrt_soft_irq();
	else if (!bmprof_rv_irq(cause, f[FRAME_PC], f))
		__asm__ volatile("csrc mie, %0" : : "r"(1ull << cause) : "memory");
	if (c->irq_depth == 1 && !c->out_busy) {
		bmprof_rv_irq_exit();
		if (c->stopped)
			bmrt_park();
	}
	c->irq_depth--;
}

static void exception(uint64_t *f, uint64_t cause)
{
	static int depths[BMRT_MAX_CPUS];
	int depth = ++depths[bmrt_cpu() % BMRT_MAX_CPUS];
	struct bmprof_end e = { .exit_code = -1, .reason = BMPROF_END_EXCEPTION };
	struct bmrt_msg m;

	if (depth > 1) {
		bmrt_log(BMRT_ERR, "CPU exception mcause %lu (%s) at mepc=0x%016lx while handling "
			 "an earlier one; exiting", cause, cause_name(cause), f[FRAME_PC]);
		bmrt_poweroff(BMRT_EXIT_EXCEPTION);
	}
	bmrt_msg_start(&m, BMRT_ERR);
	bmrt_msg_add(&m, "CPU exception mcause %lu (%s) at mepc=0x%016lx mtval=0x%016lx "
		     "sp=0x%016lx", cause, cause_name(cause), f[FRAME_PC], f[FRAME_TVAL], f[2]);
	if (bm_ncpus() > 1)
		bmrt_msg_add(&m, " cpu=%u", bmrt_cpu());
	bmrt_msg_send(&m);
	e.vector = (uint32_t)cause;
	e.fault_pc = f[FRAME_PC];
	e.fault_addr = tval_is_address(cause) ? f[FRAME_TVAL] : 0;
	bmrt_finish(&e, BMRT_EXIT_EXCEPTION);
}

void bmrt_trap(uint64_t *f)
{
	uint64_t cause = f[FRAME_CAUSE];

	if (cause & CAUSE_IRQ) {
		interrupt(f, cause & ~CAUSE_IRQ);
		return;
	}
	if (cause == CAUSE_ILLEGAL && bmrt_probing) {
		f[FRAME_A0] = (uint64_t)-1;
		f[FRAME_PC] += 4;
		return;
	}
	exception(f, cause);
}
