/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof bhive's harness: misaligned accesses (transport/bhive_access.h). While the pages
 * are mapped (the probe passes, which touch exactly the addresses the timed runs touch:
 * every run starts from the same state) alignment checks are on; an alignment fault whose
 * instruction the host described and whose access stays inside one cache line is stepped
 * over with the checks off (the arch's run.c), and the block is then timed with the
 * checks off. An access that crosses a line, or one the host could not describe, ends the
 * block as misaligned. */
#ifndef BHIVE_MISALIGN_H
#define BHIVE_MISALIGN_H

#include "harness.h"

struct misalign {
	int probing;                    /* alignment faults may be stepped over */
	unsigned stepped;               /* accesses stepped over this block */
	int described;                  /* the host described some access of the block */
	int fixed;                      /* BHIVE_BLK_FIXED_ADDR: the first copy shows all */
	unsigned len;                   /* the block's, in bytes */
};
extern struct misalign misalign;

/* The block measured next: its accesses (sorted by offset) */
void misalign_block(const struct bhive_in_block *b, const struct bhive_in_access *acc);
/* The access of the instruction at pc, about to run: MISALIGN_NONE when the host described
 * none (or pc is not in the block's copies), else whether it stays inside one cache line.
 * x86-64: regs are the registers before it runs and *addr gets the address computed from
 * them (0 when not described); AArch64: regs is 0 and *addr holds FAR_EL1. */
enum { MISALIGN_NONE, MISALIGN_INSIDE, MISALIGN_SPLIT };
int misalign_access(uint64_t pc, const uint64_t *regs, uint64_t *addr);
/* An alignment fault at pc (as above): 1 when probing and its access stays inside one
 * line, so it may run with the checks off */
int misalign_may_step(uint64_t pc, const uint64_t *regs, uint64_t *addr);

/* run.c: alignment checks on or off for the block's runs from the next entry on */
void run_align(int on);

#endif
