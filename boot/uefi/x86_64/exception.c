/* SPDX-License-Identifier: BSD-2-Clause */
/* A CPU exception the program causes while it runs under bmprof: one message, then
 * the run ends like an exit (bmrt_finish) with an END frame of reason exception, the
 * vector, the faulting RIP (a run-time address: subtract HELLO's load_bias for the ELF's)
 * and CR2 for #PF and #DF. An exception inside that prints nothing more and powers off.
 * The one exception handled is the #GP of the sampler's probing MSR accesses. */
#include "bmprof_x86_64.h"
#include "bmrt.h"
#include "../../x86_64/rt.h"
#include "uefi_x86.h"

static const char *const names[20] = {
	"DE", "DB", "NMI", "BP", "OF", "BR", "UD", "NM", "DF", "CSO", "TS", "NP", "SS", "GP",
	"PF", "reserved", "MF", "AC", "MC", "XM",
};

void bmrt_uefi_exception(struct bmrt_regs *r);

void bmrt_uefi_exception(struct bmrt_regs *r)
{
	static int depth;
	struct bmprof_end e = { .exit_code = -1, .reason = BMPROF_END_EXCEPTION };
	struct bmrt_msg m;
	int cr2_valid = r->vector == 14 || r->vector == 8;
	uint64_t cr2;

	if (r->vector == 13 && bmprof_x86_gp_fixup(&r->rip))
		return;
	__asm__ volatile("mov %%cr2, %0" : "=r"(cr2));
	if (depth++)
		bmrt_poweroff(BMRT_EXIT_EXCEPTION);
	bmrt_msg_start(&m, BMRT_ERR);
	bmrt_msg_add(&m, "CPU exception #%s (%lu) at rip=0x%016lx", names[r->vector % 20],
		     r->vector, r->rip);
	if (cr2_valid)
		bmrt_msg_add(&m, " cr2=0x%016lx", cr2);
	bmrt_msg_add(&m, " error=0x%lx rsp=0x%016lx", r->error, r->rsp);
	bmrt_msg_send(&m);
	e.vector = (uint32_t)r->vector;
	e.fault_pc = r->rip;
	e.fault_addr = cr2_valid ? cr2 : 0;
	bmrt_finish(&e, BMRT_EXIT_EXCEPTION);
}
