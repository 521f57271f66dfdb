/* SPDX-License-Identifier: BSD-2-Clause */
/* The straight-line blocks of a procedure that a basic-block throughput harness (bmprof
 * bhive, BHive's) can run out of context: each basic block of its CFG (cfg.h) without what
 * cannot be unrolled in place. A block is cut before and after
 *   - a call (control leaves the block and comes back: the callee is not the block's),
 *   - a system instruction (serializing, privileged, barriers: cpuid, rdtsc, msr, hlt, ...),
 *   - an instruction the decoder did not recognise,
 * and loses its last instruction when that one transfers control (jump, branch, indirect
 * jump, return, stop), as BHive's blocks do. Each resulting run of instructions is one
 * piece; no I/O here. */
#ifndef BMPROF_BLOCKS_H
#define BMPROF_BLOCKS_H

#include <stddef.h>
#include <stdint.h>
#include "cfg.h"
#include "sched.h"

struct block_piece {
	uint32_t first, n;        /* instructions insns[first .. first + n) of the procedure */
	uint64_t addr;            /* link-time address of the first */
	uint32_t len;             /* bytes */
};

/* Measured cycles per iteration of blocks, by their bytes (bmprof bhive's results). */
struct block_times {
	struct block_time { uint64_t h; uint8_t *bytes; uint32_t len; double cycles; } *slot;
	size_t cap, n;
};
/* Add (or replace) the cycles of the block bytes[0 .. len). 0, or -1 out of memory. */
int block_times_add(struct block_times *t, const uint8_t *bytes, uint32_t len, double cycles);
/* The cycles of the block bytes[0 .. len), or -1 when it was not measured. */
double block_times_find(const struct block_times *t, const uint8_t *bytes, uint32_t len);
void block_times_free(struct block_times *t);

/* Make the static schedule s[] of g's instructions (cfg.h, sched.h) agree with measured
 * throughputs: for each piece (as blocks_pieces cuts them, at least one instruction) whose
 * bytes (code: the procedure's bytes from link address start) t has, the cycles of its
 * instructions (M) are scaled to add up to the measured cycles per iteration, rounded,
 * each in proportion to the model's; the rest of the block keeps the model's. How many
 * pieces were measured, of how many, into *measured and *pieces. 0, or -1 out of memory. */
int blocks_apply_times(const struct cfg *g, const uint8_t *code, uint64_t start,
		       const struct block_times *t, struct sched_insn *s, size_t *measured,
		       size_t *pieces);

/* The pieces of g's blocks with at least min_insns instructions, in address order, into
 * *out (malloc'd; *n of them). 0, or -1 out of memory. */
int blocks_pieces(const struct cfg *g, unsigned min_insns, struct block_piece **out, size_t *n);

#endif
