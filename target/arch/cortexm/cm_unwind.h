/* SPDX-License-Identifier: BSD-2-Clause */
/* The Cortex-M unwind (unwind.c). Private to target/arch/cortexm and its unit test. */
#ifndef BMPROF_ARCH_CM_UNWIND_H
#define BMPROF_ARCH_CM_UNWIND_H

#include <stdint.h>
#include "bmprof.h"

#define CM_IN_REG 1   /* a cm_frame slot: the value is still in its register */
#define CM_BASE_SP 13
#define CM_BASE_R7 7

/* Where one function's frame is at a pc: the caller's sp (the frame's top, "cfa") is
 * cfa_base (sp or r7 at the pc) + cfa_off; the return address and the caller's r7 are at
 * cfa + ra_off and cfa + r7_off, or still in lr and r7 (CM_IN_REG). */
struct cm_frame {
	uint8_t cfa_base;
	int32_t cfa_off, ra_off, r7_off;
};

/* The frame at pc in the function starting at fn (code read only inside e->code): 0 and
 * *f, or -1 where the code does not say. first: pc is where the sample interrupted (any
 * instruction); else a return address (the function is in its body). */
int cm_frame_at(const struct bmprof_unwind_env *e, uint64_t fn, uint64_t pc, int first,
		struct cm_frame *f);

/* The function starting at or before pc in the .ARM.exidx table [tab, tab + 2 * n words):
 * 0 with its start, or -1 (none, or one the table marks EXIDX_CANTUNWIND). */
int cm_exidx_lookup(const uint32_t *tab, unsigned n, uint32_t pc, uint32_t *start);

/* The call chain from the interrupted pc, sp, r7 and lr: return addresses into out (max at
 * most), *more set where the chain went on past max. */
unsigned cm_unwind(const struct bmprof_unwind_env *e, const uint32_t *exidx, unsigned nexidx,
		   const struct bmprof_regs *r, uint64_t *out, unsigned max, int *more);

#endif
