/* SPDX-License-Identifier: BSD-2-Clause */
/* A shadow call stack kept from the control transfers a program executes, for exact
 * call-path instruction counts (the insn_count plugin's stacks=1; docs/bmprof-count.md).
 *
 * The caller reports each executed block: the kind of its last instruction (call, return,
 * exception return, other: branch_kind.h), whether that instruction started, and where
 * execution went next. The stack holds one frame per call not yet returned from (its
 * return address, the address after the call) and one per interrupt or exception taken
 * and not yet returned from (entered at one of the addresses the caller names as
 * exception entries). Each distinct path of frames from the root is a node of a calling
 * context tree; a block's instructions are credited to the node it ran in.
 *   - a return pops down to the innermost call frame whose return address is where
 *     execution went (a return that pops several frames at once, a longjmp, is found the
 *     same way); one that matches none leaves the stack as it was (counted);
 *   - a tail call (a jump into another function) changes nothing: the caller's frame was
 *     gone already, as a frame-pointer unwinder sees it;
 *   - an exception return pops down to the innermost exception frame, then applies the
 *     return the exception interrupted, if it came right after one (the return's target
 *     was the interrupted address, not the handler);
 *   - a return never pops past an exception frame.
 * Pure; no I/O; memory grows with the distinct paths and credits, bounded by SS_NODES_MAX. */
#ifndef BMPROF_SHADOW_STACK_H
#define BMPROF_SHADOW_STACK_H

#include <stddef.h>
#include <stdint.h>

enum ss_kind { SS_OTHER, SS_CALL, SS_RET, SS_ERET };

#define SS_NODE_CALL 'c'       /* a node entered by a call: addr is the return address */
#define SS_NODE_IRQ 'q'        /* entered by an exception: addr is the entry address */
#define SS_ROOT 0u              /* the node of the empty stack */
#define SS_DEPTH_MAX 65536      /* frames beyond this are not pushed (counted) */
#define SS_NODES_MAX (1u << 24)

struct ss_node {
	uint64_t addr;
	uint32_t parent;
	uint8_t kind;
};

/* count executions of the block at start of which n instructions ran, in node */
struct ss_rec {
	uint64_t start, count;
	uint32_t node, n;
};

struct ss_frame {
	uint64_t ra;               /* call frame: the return address */
	uint32_t node;
	uint8_t irq;               /* an exception frame */
	uint8_t pending;           /* exception frame: SS_RET or SS_ERET that it interrupted */
};

struct ss_stats {
	uint64_t calls, rets, erets, irqs;
	uint64_t unmatched_rets;   /* returns to no address on the stack */
	uint64_t unmatched_erets;  /* exception returns with no exception frame */
	uint64_t overflow;         /* frames not pushed: the stack was SS_DEPTH_MAX deep */
};

struct shadow_stack {
	struct ss_node *nodes;
	size_t nnodes, capn;
	uint32_t *nmap;            /* node index + 1 by (parent, kind, addr); 0 free */
	size_t nmask;
	struct ss_rec *recs;       /* open addressing by (node, start, n); count 0: free */
	size_t nrecs, rmask;
	struct ss_frame *frames;
	size_t depth, capf;
	struct ss_stats st;
	int failed;                /* out of memory or SS_NODES_MAX paths: results incomplete */
};

/* 0, or -1 out of memory. */
int ss_init(struct shadow_stack *s);
void ss_free(struct shadow_stack *s);

/* The node execution is in now. */
static inline uint32_t ss_node_now(const struct shadow_stack *s)
{
	return s->depth ? s->frames[s->depth - 1].node : SS_ROOT;
}

/* A block ended: its last instruction of kind (enum ss_kind) at pc of size bytes started
 * (done) or not (the block was cut short), and execution went on at next, which is an
 * exception entry when entry is set. */
void ss_step(struct shadow_stack *s, int kind, uint64_t pc, unsigned size, int done,
	     uint64_t next, int entry);

/* count more executions of n instructions from start in node. Returns the record's index
 * (for ss_credit_at next time), or (size_t)-1 when out of memory (s->failed set). */
size_t ss_credit(struct shadow_stack *s, uint32_t node, uint64_t start, uint32_t n,
		 uint64_t count);
/* The same through a record index from ss_credit, when it is still that record. */
static inline int ss_credit_at(struct shadow_stack *s, size_t i, uint32_t node, uint64_t start,
			       uint32_t n)
{
	if (i > s->rmask || s->recs[i].node != node || s->recs[i].n != n ||
	    s->recs[i].start != start || !s->recs[i].count)
		return 0;
	s->recs[i].count++;
	return 1;
}

#endif
