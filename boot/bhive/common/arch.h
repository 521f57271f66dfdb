/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof bhive's harness: what each architecture's image (boot/bhive/ARCH) provides to the
 * measurement all of them share (boot/bhive/common). The arch's harness.h includes this
 * and defines BHIVE_CODE_VA (where the unrolled code runs), BHIVE_INSN_BYTES (a block's
 * length is a multiple of it), BHIVE_CODE_SLACK (the code's bytes besides the copies) and
 * BHIVE_RIP_OPERANDS (1 when run_emit rewrites rip-relative operands, run_seg.rip). */
#ifndef BHIVE_ARCH_H
#define BHIVE_ARCH_H

#include <stdint.h>
#include "bhive.h"

/* run.c: runs of the code in the block's own privilege level */
#define RUN_MAX_SEGS 4
struct run_seg {
	const void *block;
	unsigned len, copies;           /* len in bytes */
	int track;                      /* run_seg_at and _end name its copies */
	/* pc-relative operands every copy reaches at one address (transport/bhive.h; x86-64
	 * only, BHIVE_RIP_OPERANDS) */
	const struct bhive_in_rip *rip;
	unsigned nrip, rip_align;
};
struct run_result {
	int exited;                     /* reached the epilogue's trap */
	/* the exception that ended it: x86-64 vector, error code, CR2, RIP; AArch64
	 * ESR_EL1.EC, ESR_EL1, FAR_EL1, ELR_EL1 */
	uint64_t vector, error, addr, pc;
	uint64_t regs[16];              /* x86-64: rax rcx rdx rbx rsp rbp rsi rdi r8..r15 */
	unsigned reps;                  /* runs in this entry */
	/* each timed run's clock after - clock before, the segments of a pass in order */
	uint64_t ticks[RUN_MAX_SEGS * BHIVE_TIMINGS];
	uint8_t stolen[RUN_MAX_SEGS * BHIVE_TIMINGS];   /* stolen time in its window (x86-64) */
};
void run_init(int use_pmc, int align_check);
/* reps passes over the code (at most BHIVE_TIMINGS) in one entry, each of its timed runs
 * from the same state; ends at the first exception */
void run_once(struct run_result *res, unsigned reps);
/* Writes the code: a timed run of each segment in turn, in a loop; returns its length.
 * Leading untracked segments (the calibration) the same as last time are not written
 * again (emit.h). */
unsigned run_emit(const struct run_seg *segs, unsigned n);
extern unsigned run_segments;             /* timed runs a pass */
/* each tracked segment's copies, in bytes from the code's start (0, 0: not tracked) */
extern unsigned run_seg_at[RUN_MAX_SEGS], run_seg_end[RUN_MAX_SEGS];
extern uint64_t run_exit_va;            /* the epilogue's trap */

/* space.c: the block's address space */
void space_reset(void);                 /* only the harness, the code and the scratch page */
/* A fault at addr (write: a store): 0 when mapped (a new page, or a frame of its own for a
 * page now written: frame_pick, frames.h), else the status that refuses it. */
int space_map(uint64_t addr, int write);
/* n 64-bit words at d set to v, in the harness's privilege level (x86-64: one rep stosq,
 * as ring 0 may be emulated an instruction at a time) */
void arch_fill64(uint64_t *d, uint64_t v, uint64_t n);

/* frames.c */
unsigned space_pages(void);             /* distinct pages mapped */
unsigned space_written(void);           /* of which written */

/* fault.c: what the exception that ended a run means */
/* 0 when it is a data fault on a page space_map may map (its address and whether it was a
 * store in *addr, *write), else the status that ends the block */
int fault_page(const struct run_result *r, uint64_t *addr, int *write);
int fault_status(const struct run_result *r);       /* a status, for an unmapped fault */
unsigned fault_regs(const struct run_result *r);    /* general registers its line shows */

/* clock.c: interrupts off, the clock set up, run_init called; 1 when the clock is the core
 * cycle counter ("pmc"), else the clock's name is arch_clock */
int arch_start(void);
extern const char arch_clock[];
/* The calibration block (BHIVE_CAL_ADDS dependent register adds), len in bytes */
const void *arch_cal(unsigned *len);
/* Written pages a block may have, a frame each: as many as one L1D set holds beside the
 * harness's own lines there (the shared frame, the scratch page, ...) */
unsigned arch_write_frames(void);

#endif
