/* SPDX-License-Identifier: BSD-2-Clause */
/* The control-flow graph of one procedure, and its frequency equivalence classes.
 *
 * Blocks: leaders are the first instruction, every direct branch or jump-table target inside
 * the procedure, and every instruction after a jump, branch, indirect jump, return or stop.
 * Calls do not end blocks (control comes back to the next instruction). Two virtual blocks
 * frame the procedure: ENTRY (edge to the first instruction's block) and EXIT (edges from
 * returns, from jumps whose target lies outside the procedure (tail calls), and from
 * indirect jumps with no recovered table). A block that cannot reach EXIT (an infinite
 * loop such as an idle loop) gets a virtual edge to EXIT from the block that closes its
 * loop, so that cycle equivalence extends to it, as DCPI did. Stops (hlt, ud2) have no
 * successor edge; they are not counted as reaching EXIT.
 *
 * Frequency equivalence classes: two blocks (or edges) are in one class when they execute
 * the same number of times in every run: cycle equivalence on the graph with an added edge
 * EXIT -> ENTRY. Blocks not reachable from ENTRY get no class (CFG_NO_CLASS), nor do their
 * edges. For the classes only, a block ending in a stop is treated as leaving the procedure
 * without passing EXIT (so EXIT counts returns and tail calls). When the CFG is incomplete
 * every reachable block and edge gets a class of its own (flow may come back anywhere).
 */
#ifndef BMPROF_CFG_H
#define BMPROF_CFG_H

#include <stddef.h>
#include <stdint.h>
#include "insn.h"

#define CFG_NO_CLASS UINT32_MAX

enum cfg_edge_kind {
	CFG_EDGE_FALL,       /* fall-through, incl. a conditional branch not taken */
	CFG_EDGE_TAKEN,      /* direct jump or branch taken */
	CFG_EDGE_TABLE,      /* from an indirect jump to a recovered jump-table target */
	CFG_EDGE_ENTRY,      /* virtual: ENTRY to the first block */
	CFG_EDGE_EXIT,       /* to EXIT: return, tail call, unresolved indirect jump */
	CFG_EDGE_LOOP_EXIT,  /* virtual: from an infinite loop to EXIT */
};

/* block flags */
#define CFG_BLOCK_VIRTUAL 1u      /* ENTRY or EXIT */
#define CFG_BLOCK_UNRESOLVED 2u   /* ends in an indirect jump with no recovered targets */
#define CFG_BLOCK_NO_EXIT 4u      /* cannot reach EXIT except through a LOOP_EXIT edge */
#define CFG_BLOCK_UNREACHED 8u    /* not reachable from ENTRY */
#define CFG_BLOCK_IN_LOOP 16u     /* reachable and on a cycle of the CFG (can run again) */

struct cfg_block {
	uint32_t first, n;        /* instructions insns[first .. first + n); n == 0 if virtual */
	uint32_t flags;
	uint32_t cls;             /* frequency equivalence class, or CFG_NO_CLASS */
	uint32_t nin, nout;       /* edge counts; the edges are in cfg.in[]/cfg.out[] */
	uint32_t in_at, out_at;   /* offsets into cfg.in / cfg.out */
};

struct cfg_edge {
	uint32_t from, to;        /* block indices */
	uint8_t kind;             /* enum cfg_edge_kind */
	uint32_t cls;             /* frequency equivalence class, or CFG_NO_CLASS */
};

struct cfg {
	const struct insn *insns; /* not owned */
	size_t ninsns;
	struct cfg_block *blocks; /* blocks[0] is ENTRY, blocks[1] is EXIT, then in address order */
	size_t nblocks;
	struct cfg_edge *edges;
	size_t nedges;
	uint32_t *in, *out;       /* edge indices, grouped per block (see in_at/out_at) */
	uint32_t *block_of;       /* instruction index -> block index */
	size_t nclasses;          /* classes are 0 .. nclasses-1, shared by blocks and edges */
	int incomplete;           /* some indirect jump's targets are unknown */
};

#define CFG_ENTRY 0u
#define CFG_EXIT 1u

/* Build the CFG of insns[0..n) (one procedure, contiguous, in address order, insns[0] its
 * entry) and compute its classes. 0, or -1 on out of memory or n == 0. */
int cfg_build(struct cfg *g, const struct insn *insns, size_t n);
void cfg_free(struct cfg *g);
/* The instruction index at address addr, or -1. */
long cfg_insn_at(const struct cfg *g, uint64_t addr);

#endif
