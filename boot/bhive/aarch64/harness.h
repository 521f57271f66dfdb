/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof bhive's AArch64 harness (docs/bmprof-bhive.md): internals. */
#ifndef BHIVE_HARNESS_H
#define BHIVE_HARNESS_H

#include <stdint.h>
#include "bhive.h"
#include "rt.h"
#include "arch.h"
#include "pool.h"

/* The block's address space, 48-bit (T0SZ 16): the unrolled code at CODE_VA (read-only,
 * executable at EL0), the records the code writes at SCRATCH_VA, the frames' own mappings
 * for their reset, the harness's memory EL1's only, and every other page the block
 * touches mapped on its first fault: to one shared frame when read, to a frame of its own
 * when written (frames.h). */
#define BHIVE_CODE_VA 0x7f0000000000ull
#define BHIVE_SCRATCH_VA (BHIVE_CODE_VA - 4096)   /* reached pc-relative (adr) */
#define BHIVE_FRAME_VA (BHIVE_SCRATCH_VA - BHIVE_FRAMES * 4096)   /* the frames, for their reset */
#define BHIVE_VA_BITS 48                          /* the block's addresses: below 2^48 */
#define BHIVE_TABLES (12 + 3 * BHIVE_MAX_FAULTS)   /* the space's translation tables */
#define BHIVE_INSN_BYTES 4
#define BHIVE_CODE_SLACK 4096u                    /* run_emit's own code */
#define BHIVE_RIP_OPERANDS 0                      /* pc-relative code is left as it is */

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
#define EC_SOFTSTEP_LOW 0x32
#define EC_BRK 0x3C

extern uint32_t bhive_code[BHIVE_CODE_MAX / 4];

/* space.c (the rest: arch.h, pool.h) */
uint64_t space_ttbr0(void);

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
/* The same, but back to where EL0 took its exception (bhive_ctx: pc, registers, SP_EL0),
 * with PSTATE spsr */
void bhive_resume(uint64_t spsr);

#endif
