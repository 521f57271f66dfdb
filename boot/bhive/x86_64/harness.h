/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof bhive's x86-64 harness (docs/bmprof-bhive.md): internals. */
#ifndef BHIVE_HARNESS_H
#define BHIVE_HARNESS_H

#include <stdint.h>
#include "bhive.h"
#include "rt.h"

/* The block's address space: the unrolled code at CODE_VA (read-only), the timings the
 * code stores at SCRATCH_VA, the harness's own memory ring 0's only, and every other page
 * the block touches mapped on its first fault: to one shared frame when read, to a frame
 * of its own when written (at most BHIVE_FRAMES - 1 of them). */
#define BHIVE_CODE_VA 0x7f0000000000ull
#define BHIVE_SCRATCH_VA (BHIVE_CODE_VA - 4096)   /* reached rip-relative */
#define BHIVE_STEAL_VA (BHIVE_CODE_VA - 8192)     /* KVM's steal time, read-only */
#define BHIVE_FRAMES 9u                          /* the shared frame, 8 written pages' */
#define BHIVE_FRAME_VA (BHIVE_STEAL_VA - BHIVE_FRAMES * 4096)   /* the frames, for their reset */

extern uint8_t bhive_code[BHIVE_CODE_MAX];
extern uint64_t bhive_scratch[512];

/* space.c */
void space_reset(void);                 /* only the harness, the code and the scratch page */
uint64_t space_cr3(void);
/* the frames in use (the shared one, then one per written page): every 64-bit word
 * BHIVE_INIT */
void space_fill_frames(void);
/* at most n written pages (capped at BHIVE_FRAMES - 1); more is BHIVE_ALIASING */
void space_set_write_frames(unsigned n);
/* A fault at addr (write: a store): 0 when mapped (a new page, or a frame of its own for
 * a page now written), else the status that refuses it. */
int space_map(uint64_t addr, int write);
unsigned space_pages(void);             /* distinct pages mapped */
unsigned space_written(void);           /* of which written */

/* run.c: runs of the code in ring 3 */
#define RUN_MAX_SEGS 4
struct run_seg {
	const uint8_t *block;
	unsigned len, copies;
	int track;                      /* run_seg_at and _end name its copies */
	/* rip-relative operands every copy reaches at one address (transport/bhive.h) */
	const struct bhive_in_rip *rip;
	unsigned nrip, rip_align;
};
struct run_result {
	int exited;                     /* reached the epilogue's ud2 */
	uint64_t vector, error, cr2, rip;
	uint64_t regs[16];              /* rax rcx rdx rbx rsp rbp rsi rdi r8..r15 */
	unsigned reps;                  /* runs in this entry to ring 3 */
	/* each timed run's clock after - clock before, the segments of a pass in order */
	uint64_t ticks[RUN_MAX_SEGS * BHIVE_TIMINGS];
	uint8_t stolen[RUN_MAX_SEGS * BHIVE_TIMINGS];   /* stolen time in its window */
};
void run_init(int use_pmc, int align_check);
/* reps passes over the code (at most BHIVE_TIMINGS) in one entry to ring 3, each of its
 * timed runs from the same state; ends at the first exception */
void run_once(struct run_result *res, unsigned reps);
/* Writes the code: a timed run of each segment in turn, in a loop; returns its length. */
unsigned run_emit(const struct run_seg *segs, unsigned n);
extern unsigned run_segments;             /* timed runs a pass */
/* each tracked segment's copies, from the code's start (0, 0: not tracked) */
extern unsigned run_seg_at[RUN_MAX_SEGS], run_seg_end[RUN_MAX_SEGS];
extern uint64_t run_exit_va;            /* the epilogue's ud2 */

/* enter.S: enter ring 3 at rip with every general register BHIVE_INIT and RFLAGS rflags, on the
 * page tables cr3; returns when ring 3 took an exception (bhive_land). */
void bhive_enter(uint64_t cr3, uint64_t rip, uint64_t rflags);
extern uint64_t bhive_saved_rsp;
void bhive_land(void);

#endif
