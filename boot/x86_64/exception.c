/* SPDX-License-Identifier: BSD-2-Clause */
/* Unhandled CPU exceptions, on any CPU: one message (bmrt_log: the vector, RIP, CR2,
 * error code, RSP, the CPU, a stack overflow), then the run ends like an exit
 * (bmrt_finish), with an END frame carrying the vector, the faulting RIP and (for #PF and
 * #DF) CR2. A second exception on the same CPU while handling one sends a message and
 * powers off at once; a third powers off silently. The exceptions handled are the #GP of
 * the sampler's probing MSR accesses (a hypervisor without the MSR): execution resumes at
 * their recovery path; ring 3's requests to ring 0 (user.c); and whatever a program's
 * bmrt_exception_hook takes (it runs first and returns 1 for an exception it handled,
 * having set the frame to resume). */
#include "bmprof_x86_64.h"
#include "bmrt.h"
#include "rt.h"

#define VEC_DF 8
#define VEC_GP 13
#define VEC_PF 14

static const char *const names[32] = {
	"DE", "DB", "NMI", "BP", "OF", "BR", "UD", "NM", "DF", "CSO", "TS", "NP", "SS", "GP",
	"PF", "reserved", "MF", "AC", "MC", "XM", "VE", "CP", "reserved", "reserved",
	"reserved", "reserved", "reserved", "reserved", "HV", "VC", "SX", "reserved",
};

static int has_error_code(uint64_t v)
{
	return v == 8 || (v >= 10 && v <= 14) || v == 17 || v == 21 || v == 29 || v == 30;
}

int (*bmrt_exception_hook)(struct bmrt_regs *r);

void bmrt_exception(struct bmrt_regs *r)
{
	static volatile int depth[BMPROF_X86_MAX_CPUS];
	volatile int *d;
	uint64_t cr2;
	const char *name = names[r->vector & 31];
	struct bmprof_end e = { .exit_code = -1, .reason = BMPROF_END_EXCEPTION };
	struct bmrt_msg m;

	if (bmrt_exception_hook && bmrt_exception_hook(r))
		return;
	if (r->vector == VEC_GP && bmprof_x86_gp_fixup(&r->rip))
		return;
	if (bmrt_user_trap(r))
		return;
	d = &depth[bmrt_cpu()];
	__asm__ volatile("mov %%cr2, %0" : "=r"(cr2));
	if (++*d > 2)
		bmrt_poweroff(BMRT_EXIT_EXCEPTION);
	bmrt_uart_lock();
	bmrt_uart_user_flush();   /* text ring 3 had not sent yet */
	if (*d == 2) {
		bmrt_log(BMRT_ERR, "CPU exception #%s (%lu) at rip=0x%016lx while handling an "
			 "earlier one; exiting", name, r->vector, r->rip);
		bmrt_poweroff(BMRT_EXIT_EXCEPTION);
	}
	bmrt_msg_start(&m, BMRT_ERR);
	bmrt_msg_add(&m, "CPU exception #%s (%lu) at rip=0x%016lx", name, r->vector, r->rip);
	/* A stack overflow faults on the guard page, and the CPU cannot push that #PF's
	 * frame there either: it arrives as #DF, with CR2 still naming the guard page. */
	if (r->vector == VEC_PF || r->vector == VEC_DF)
		bmrt_msg_add(&m, " cr2=0x%016lx", cr2);
	if (has_error_code(r->vector))
		bmrt_msg_add(&m, " error=0x%lx", r->error);
	bmrt_msg_add(&m, " rsp=0x%016lx", r->rsp);
	if (bm_ncpus() > 1)
		bmrt_msg_add(&m, " cpu=%u", bmrt_cpu());
	if (bmrt_is_guard_page(cr2))
		bmrt_msg_add(&m, " (stack overflow)");
	bmrt_msg_send(&m);
	bmrt_uart_unlock();
	e.vector = (uint32_t)r->vector;
	e.fault_pc = r->rip;
	e.fault_addr = r->vector == VEC_PF || r->vector == VEC_DF ? cr2 : 0;
	bmrt_finish(&e, BMRT_EXIT_EXCEPTION);
}
