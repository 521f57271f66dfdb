/* SPDX-License-Identifier: BSD-2-Clause */
/* Unhandled exceptions: one message (bmrt_log) with the CPU, ESR, ELR and FAR, then the run
 * ends like an exit (bmrt_finish), with an END frame carrying the exception class
 * (ESR_EL1.EC; 0x40 for an FIQ), the faulting ELR and, for aborts, FAR. A second exception
 * on the same CPU while handling one sends a message and powers off at once; a third
 * powers off silently. An undefined-instruction exception at a probe instruction (trap.S)
 * is not an error: it is skipped. */
#include "bmrt.h"
#include "rt.h"

#define KIND_FIQ 2
#define KIND_SERROR 3
#define VECTOR_FIQ 0x40
#define EC_UNKNOWN 0x00
#define ISS_FNV (1u << 10)   /* data/instruction abort: FAR not valid */
extern const char bmrt_trap_semihost[], bmrt_trap_hvc[], bmrt_trap_smc[];

static const char *ec_name(uint32_t ec)
{
	switch (ec) {
	case 0x00: return "undefined instruction";
	case 0x01: return "WFI/WFE trap";
	case 0x07: return "FP/SIMD access trap";
	case 0x0E: return "illegal execution state";
	case 0x15: return "SVC";
	case 0x16: return "HVC";
	case 0x17: return "SMC";
	case 0x18: return "system register trap";
	case 0x19: return "SVE access trap";
	case 0x20: case 0x21: return "instruction abort";
	case 0x22: return "PC alignment fault";
	case 0x24: case 0x25: return "data abort";
	case 0x26: return "SP alignment fault";
	case 0x2C: return "FP exception";
	case 0x2F: return "SError";
	case 0x30: case 0x31: return "breakpoint";
	case 0x32: case 0x33: return "software step";
	case 0x34: case 0x35: return "watchpoint";
	case 0x3C: return "BRK";
	case VECTOR_FIQ: return "FIQ";
	default: return "exception";
	}
}

static int far_valid(uint32_t ec, uint64_t esr)
{
	switch (ec) {
	case 0x20: case 0x21: case 0x24: case 0x25:
		return !(esr & ISS_FNV);
	case 0x22: case 0x34: case 0x35:
		return 1;
	default:
		return 0;
	}
}

int bmrt_probe_skip(struct bmrt_regs *r)
{
	uint64_t pc = r->elr;

	if (r->kind != 0 || (r->esr >> 26 & 0x3F) != EC_UNKNOWN)
		return 0;
	if (pc != (uintptr_t)bmrt_trap_semihost && pc != (uintptr_t)bmrt_trap_hvc &&
	    pc != (uintptr_t)bmrt_trap_smc)
		return 0;
	r->x[0] = (uint64_t)-1;
	r->elr += 4;
	return 1;
}

void bmrt_exception(struct bmrt_regs *r)
{
	struct bmrt_cpu *c = &bmrt_cpus[bmrt_cpu()];
	uint32_t ec = r->kind == KIND_FIQ ? VECTOR_FIQ : (uint32_t)(r->esr >> 26 & 0x3F);
	int has_far = r->kind != KIND_FIQ && far_valid(ec, r->esr);
	struct bmprof_end e = { .exit_code = -1, .reason = BMPROF_END_EXCEPTION };
	struct bmrt_msg m;

	if (bmrt_probe_skip(r))
		return;
	if (r->kind == KIND_SERROR)
		ec = 0x2F;
	if (++c->exc_depth > 2)
		bmrt_poweroff(BMRT_EXIT_EXCEPTION);
	if (c->exc_depth == 2) {
		bmrt_log(BMRT_ERR, "CPU exception EC 0x%02x (%s) at elr=0x%016lx while handling "
			 "an earlier one; exiting", ec, ec_name(ec), r->elr);
		bmrt_poweroff(BMRT_EXIT_EXCEPTION);
	}
	bmrt_msg_start(&m, BMRT_ERR);
	bmrt_msg_add(&m, "CPU exception EC 0x%02x (%s) at elr=0x%016lx esr=0x%08lx", ec,
		     ec_name(ec), r->elr, r->esr);
	if (has_far)
		bmrt_msg_add(&m, " far=0x%016lx", r->far);
	bmrt_msg_add(&m, " sp=0x%016lx", r->sp);
	if (bm_ncpus() > 1)
		bmrt_msg_add(&m, " cpu=%u", bmrt_cpu());
	if (has_far && bmrt_in_guard(r->far))
		bmrt_msg_add(&m, " (stack overflow)");
	bmrt_msg_send(&m);
	e.vector = ec;
	e.fault_pc = r->elr;
	e.fault_addr = has_far ? r->far : 0;
	bmrt_finish(&e, BMRT_EXIT_EXCEPTION);
}
