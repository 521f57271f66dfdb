/* SPDX-License-Identifier: BSD-2-Clause */
/* Which misaligned accesses a block may make (misalign.h). */
#include "misalign.h"

struct misalign misalign;
static const struct bhive_in_access *accs;
static unsigned naccs;
static uint64_t rip_target;              /* 0: rip-relative operands are left as they are */

void misalign_block(const struct bhive_in_block *b, const struct bhive_in_access *acc)
{
	accs = acc;
	naccs = b->nacc;
	rip_target = b->nrip ? BHIVE_RIP_BASE + b->rip_align : 0;
	misalign.probing = 0;
	misalign.stepped = 0;
	misalign.described = b->nacc > 0;
	misalign.fixed = (b->flags & BHIVE_BLK_FIXED_ADDR) != 0;
	misalign.len = b->len;
}

/* The access of the instruction at offset off in the block, or 0 */
static const struct bhive_in_access *find(unsigned off)
{
	unsigned lo = 0, hi = naccs;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (accs[mid].at == off)
			return &accs[mid];
		if (accs[mid].at < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

int misalign_access(uint64_t pc, const uint64_t *regs, uint64_t *addr)
{
	const struct bhive_in_access *a = 0;
	uint64_t copy = 0;

	for (unsigned k = 0; k < run_segments && !a; k++) {
		uint64_t at = BHIVE_CODE_VA + run_seg_at[k];
		if (pc < at || pc >= BHIVE_CODE_VA + run_seg_end[k])
			continue;
		copy = pc - (pc - at) % misalign.len;
		a = find((unsigned)(pc - copy));
	}
	if (regs)
		*addr = a ? bhive_access_ea(a, regs, rip_target ? rip_target : copy, BHIVE_INIT) : 0;
	if (!a)
		return MISALIGN_NONE;
	return bhive_splits_line(*addr, a->size) ? MISALIGN_SPLIT : MISALIGN_INSIDE;
}

int misalign_may_step(uint64_t pc, const uint64_t *regs, uint64_t *addr)
{
	return misalign_access(pc, regs, addr) == MISALIGN_INSIDE && misalign.probing;
}
