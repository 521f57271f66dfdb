/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof bhive's x86-64 harness (docs/bmprof-bhive.md): internals. */
#ifndef BHIVE_HARNESS_H
#define BHIVE_HARNESS_H

#include <stdint.h>
#include "bhive.h"
#include "rt.h"
#include "arch.h"
#include "pool.h"

/* The block's address space: the unrolled code at CODE_VA (read-only), the timings the
 * code stores at SCRATCH_VA, the harness's own memory ring 0's only, and every other page
 * the block touches mapped on its first fault: to one shared frame when read, to a frame
 * of its own when written (frames.h). */
#define BHIVE_CODE_VA 0x7f0000000000ull
#define BHIVE_SCRATCH_VA (BHIVE_CODE_VA - 4096)   /* reached rip-relative */
#define BHIVE_STEAL_VA (BHIVE_CODE_VA - 8192)     /* KVM's steal time, read-only */
#define BHIVE_FRAME_VA (BHIVE_STEAL_VA - BHIVE_FRAMES * 4096)   /* the frames, for their reset */
#define BHIVE_TABLES (8 + 3 * BHIVE_MAX_FAULTS)   /* the space's translation tables */
#define BHIVE_INSN_BYTES 1
#define BHIVE_CODE_SLACK 1024u                    /* run_emit's own code */
#define BHIVE_RIP_OPERANDS 1                      /* run_emit rewrites them */

extern uint8_t bhive_code[BHIVE_CODE_MAX];

/* space.c (the rest: arch.h, pool.h) */
uint64_t space_cr3(void);

/* enter.S: enter ring 3 at rip with every general register BHIVE_INIT and RFLAGS rflags, on the
 * page tables cr3; returns when ring 3 took an exception (bhive_land). */
void bhive_enter(uint64_t cr3, uint64_t rip, uint64_t rflags);
extern uint64_t bhive_saved_rsp;
void bhive_land(void);

#endif
