/* SPDX-License-Identifier: BSD-2-Clause */
/* The static schedule of a basic block on a pipeline model: for each instruction, the
 * cycles it spends at the head of the issue queue (in order) or of retirement (out of
 * order) when nothing stalls dynamically (every load hits L1, every branch is predicted,
 * every fetch hits), and why it waits longer than one slot when it does.
 *
 * DCPI's M_i: an instruction that issues (or retires) in the same cycle as the one before
 * it is not an issue point and has M == 0; an issue point has M >= 1, the cycles from the
 * previous instruction's issue (retirement) to its own. Sum of M over a block = the
 * block's best-case cycles. Samples land on issue points only, in proportion to M when
 * nothing stalls: S_i ~ F * M_i. */
#ifndef BMPROF_SCHED_H
#define BMPROF_SCHED_H

#include <stddef.h>
#include <stdint.h>
#include "insn.h"
#include "uarch.h"

enum sched_reason {
	SCHED_NONE = 0,
	SCHED_DEPENDENCY,     /* waits for an earlier instruction's result (culprit) */
	SCHED_UNIT_BUSY,      /* its functional unit is busy (culprit: the instruction using it) */
	SCHED_WIDTH,          /* the issue or retire group before it was full */
	SCHED_LATENCY,        /* out of order: waits for its own long latency at the head of
			       * retirement, nothing before it delayed it (culprit: itself) */
	SCHED__COUNT
};

struct sched_insn {
	uint32_t M;           /* cycles at the head; 0: not an issue point */
	uint32_t stall;       /* static stall cycles included in M (M - 1 for an issue point
			       * that waited; 0 otherwise) */
	uint8_t reason;       /* enum sched_reason of the stall */
	int32_t culprit;      /* index (into the array passed) of the instruction it waits
			       * for; -1 if none. In a loop it can be its own index or a later
			       * one: a dependency carried from the previous iteration */
};

/* Schedule insns[0..n) (one basic block) on u. When loop is set the block is its own
 * successor (a one-block loop): the steady state of back-to-back iterations is returned,
 * with loop-carried dependencies. Otherwise the block starts with the pipeline empty and
 * every register ready. 0, or -1 if n == 0. */
int sched_block(const struct uarch *u, const struct insn *insns, size_t n, int loop,
		struct sched_insn *out);

#endif
