/* SPDX-License-Identifier: BSD-2-Clause */
/* What the exception that ended a run in ring 3 means (arch.h): a page fault on data is
 * mapped; a fetch outside the code is control flow; other vectors name a status. */
#include "harness.h"

#define VEC_DE 0
#define VEC_UD 6
#define VEC_SS 12
#define VEC_GP 13
#define VEC_PF 14
#define VEC_AC 17
#define PF_WRITE 0x2ull
#define PF_FETCH 0x10ull

int fault_status(const struct run_result *r)
{
	switch (r->vector) {
	case VEC_DE: return BHIVE_DIVIDE_ERROR;
	case VEC_UD: return BHIVE_INVALID_OPCODE;
	case VEC_SS: return BHIVE_NONCANONICAL;   /* #SS(0): a non-canonical stack address */
	case VEC_GP: return BHIVE_GENERAL_PROTECTION;
	case VEC_AC: return BHIVE_MISALIGNED;
	default: return BHIVE_FAULT;
	}
}

int fault_page(const struct run_result *r, uint64_t *addr, int *write)
{
	if (r->vector != VEC_PF)
		return fault_status(r);
	if ((r->error & PF_FETCH) || r->pc - BHIVE_CODE_VA >= BHIVE_CODE_MAX)
		return BHIVE_CONTROL_FLOW;
	*addr = r->addr;
	*write = (r->error & PF_WRITE) != 0;
	return 0;
}

/* After a #GP the registers, so the host can tell a non-canonical address from a
 * privileged instruction */
unsigned fault_regs(const struct run_result *r)
{
	return r->vector == VEC_GP ? 16 : 0;
}
