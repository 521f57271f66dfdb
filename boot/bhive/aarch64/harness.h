/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof bhive's AArch64 harness (docs/bmprof-bhive.md): internals. */
#ifndef BHIVE_HARNESS_H
#define BHIVE_HARNESS_H

#include <stdint.h>
#include "bhive.h"
#include "rt.h"

/* The block's address space, 48-bit (T0SZ 16): the unrolled code at CODE_VA (read-only,
 * executable at EL0), the records the code writes at SCRATCH_VA, the shared frame's own
 * mapping for its reset, the harness's memory EL1's only, and every other page the block
 * touches mapped on its first fault to one shared frame. */
#define BHIVE_CODE_VA 0x7f0000000000ull
#define BHIVE_SCRATCH_VA (BHIVE_CODE_VA - 4096)   /* reached pc-relative (adr) */
#define BHIVE_FRAME_VA (BHIVE_CODE_VA - 8192)     /* the shared frame, for its reset */
#define BHIVE_VA_BITS 48                          /* the block's addresses: below 2^48 */

/* ESR_EL1.EC values the harness tells apart */
#define EC_UNKNOWN 0x00
#define EC_WFX 0x01
#define EC_SVC 0x15
#define EC_SYSREG 0x18
#define EC_SVE 0x19
#define EC_IABT_LOW 0x20
#define EC_PC_ALIGN 0x22
#define EC_DABT_LOW 0x24
#define EC_SP_ALIGN 0x26
#define EC_BRK 0x3C

extern uint32_t bhive_code[BHIVE_CODE_MAX / 4];
extern uint64_t bhive_scratch[512];

/* space.c */
void space_reset(void);                 /* only the harness, the code and the scratch page */
uint64_t space_ttbr0(void);
void space_fill_frame(void);            /* the shared frame: every 64-bit word BHIVE_INIT */
/* A fault at addr (write: a store): 0 when mapped (a new page, or made writable), else the
 * status that refuses it. */
int space_map(uint64_t addr, int write);
unsigned space_pages(void);             /* distinct pages mapped */
unsigned space_written(void);           /* of which written */

/* run.c: runs of the code at EL0 */
#define RUN_MAX_SEGS 4
struct run_seg {
	const uint32_t *block;
	unsigned len, copies;           /* len in bytes */
	int track;                      /* run_seg_at and _end name its copies */
};
struct run_result {
	int exited;                     /* reached the epilogue's udf */
	uint64_t ec, esr, far, pc;
	unsigned reps;
	uint64_t ticks[RUN_MAX_SEGS * BHIVE_TIMINGS];
};
void run_init(int use_pmc, int align_check);
void run_once(struct run_result *res, unsigned reps);
unsigned run_emit(const struct run_seg *segs, unsigned n);
extern unsigned run_segments;
extern unsigned run_seg_at[RUN_MAX_SEGS], run_seg_end[RUN_MAX_SEGS];   /* bytes */
extern uint64_t run_exit_va;

/* enter.S: the state the EL1&0 regime switches between (MAIR is shared) */
struct bhive_regime {
	uint64_t ttbr0, tcr, sctlr;
};
/* What the vector saved when EL0 took an exception */
struct bhive_ctx {
	uint64_t x[31], sp, elr, spsr, esr, far;
	uint64_t kind;                  /* the vector slot: 0 sync, 1 IRQ, 2 FIQ, 3 SError */
};
extern struct bhive_regime bhive_block_regime, bhive_own_regime;
extern struct bhive_ctx bhive_ctx;
/* Switch to bhive_block_regime and its vectors, enter EL0 at pc with every general
 * register and SP_EL0 BHIVE_INIT, PSTATE.DAIF masked; returns when EL0 took an exception,
 * the runtime's regime and vectors back. */
void bhive_enter(uint64_t pc);

#endif
