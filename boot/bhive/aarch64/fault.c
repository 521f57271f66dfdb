/* SPDX-License-Identifier: BSD-2-Clause */
/* What the exception that ended a run at EL0 means (arch.h). A data abort on an unmapped
 * page, or a store to a page mapped for loads, is mapped; anything else names a status.
 * The result line's VECTOR is the exception class (ESR_EL1.EC), ERROR the whole ESR_EL1
 * and ADDR FAR_EL1 (meaningful for aborts). */
#include "harness.h"

#define DFSC(esr) ((esr) & 0x3F)
#define ESR_WNR (1ull << 6)
#define ESR_FNV (1ull << 10)
#define DFSC_ALIGN 0x21
#define SYSTEM_CLASS_MASK 0xFFC00000u    /* MSR/MRS, SYS/SYSL, hints, barriers */
#define SYSTEM_CLASS 0xD5000000u

/* Translation fault (levels 0-3) or permission fault (levels 1-3) */
static int mappable_fault(uint64_t esr)
{
	unsigned f = DFSC(esr);

	return (f >= 0x04 && f <= 0x07) || (f >= 0x0D && f <= 0x0F);
}

/* The instruction at pc in the code, or 0 outside it */
static uint32_t insn_at(uint64_t pc)
{
	return pc - BHIVE_CODE_VA < BHIVE_CODE_MAX ? bhive_code[(pc - BHIVE_CODE_VA) / 4] : 0;
}

/* What an exception other than a mappable data abort means. An instruction EL0 may not
 * execute (a system register or instruction of EL1, a trapped WFI/WFE) is reported as
 * BHIVE_GENERAL_PROTECTION, which the host names privileged. */
int fault_status(const struct run_result *r)
{
	switch (r->vector) {
	case EC_UNKNOWN:
		return (insn_at(r->pc) & SYSTEM_CLASS_MASK) == SYSTEM_CLASS ?
			BHIVE_GENERAL_PROTECTION : BHIVE_INVALID_OPCODE;
	case EC_WFX: case EC_SYSREG:
		return BHIVE_GENERAL_PROTECTION;
	case EC_SVE:
		return BHIVE_INVALID_OPCODE;
	case EC_SVC: case EC_BRK: case EC_IABT_LOW: case EC_PC_ALIGN:
		return BHIVE_CONTROL_FLOW;
	case EC_SP_ALIGN:
		return BHIVE_MISALIGNED;
	case EC_DABT_LOW:
		if (DFSC(r->error) == DFSC_ALIGN)
			return BHIVE_MISALIGNED;
		if (r->error & ESR_FNV)
			return BHIVE_FAULT;
		return mappable_fault(r->error) ? BHIVE_UNMAPPABLE : BHIVE_FAULT;
	default:
		return BHIVE_FAULT;
	}
}

int fault_page(const struct run_result *r, uint64_t *addr, int *write)
{
	if (r->pc - BHIVE_CODE_VA >= BHIVE_CODE_MAX)
		return BHIVE_CONTROL_FLOW;
	if (r->vector != EC_DABT_LOW || (r->error & ESR_FNV) || !mappable_fault(r->error))
		return fault_status(r);
	*addr = r->addr;
	*write = (r->error & ESR_WNR) != 0;
	return 0;
}

unsigned fault_regs(const struct run_result *r)
{
	(void)r;
	return 0;
}
