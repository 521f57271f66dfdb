/* SPDX-License-Identifier: BSD-2-Clause */
/* A block's result line on the console (report.h): the measurement, then the exception
 * that ended it with its offset in the block (and the registers fault_regs asks for). */
#include "bmrt.h"
#include "report.h"

void report(uint32_t index, unsigned len, const struct measure *m)
{
	const struct run_result *r = &m->last;
	long off = -1;

	for (unsigned k = 0; k < run_segments; k++)
		if (r->pc >= BHIVE_CODE_VA + run_seg_at[k] && r->pc < BHIVE_CODE_VA + run_seg_end[k])
			off = (long)((r->pc - BHIVE_CODE_VA - run_seg_at[k]) % len);

	bm_printf("@bhive %u %d %lu %lu %lu %lu %u %u %u %u %u %u", index, m->status, m->t[0],
		  m->t[1], m->cal[0], m->cal[1], m->faults, space_pages(), space_written(),
		  m->kept[0], m->kept[1], m->tries);
	if (!m->faulted) {
		bm_printf(" -1 0 -1 0\n");
		return;
	}
	bm_printf(" %lu 0x%lx %ld 0x%lx", r->vector, r->error, off, r->addr);
	for (unsigned i = 0, n = fault_regs(r); i < n; i++)
		bm_printf(" %lx", r->regs[i]);
	bm_printf("\n");
}
