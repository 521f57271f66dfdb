/* SPDX-License-Identifier: BSD-2-Clause */
/* Apropos backtracking (Itzkowitz et al., SC'03): from the pc an overflow interrupt
 * delivered (the next instruction to run) back to the memory instruction that most likely
 * caused a memory event, and that instruction's effective address from the interrupted
 * register file. Works on a decoded procedure (insn.h, memop.h) and its CFG (cfg.h); no
 * decoding, no I/O. docs/data-space.md, "Backtracking", states the rules.
 *
 * The walk: the instructions before the delivered pc, nearest first, at most `window` of
 * them (the skid allowed), stopping at the procedure's first instruction, until one makes
 * an access of the event's kind: the candidate trigger. Its address is computed when none
 * of its address registers was written after it ran (by the instructions between it and
 * the pc, or by itself other than by a known writeback, which is undone).
 *
 * The path: when an instruction in (candidate, pc] is a branch target (the procedure's
 * entry, a block some edge other than a fall-through enters, a block nothing enters, or a
 * return point after a call) the instructions before it need not be the ones that ran:
 * the event is charged to that <branch target>. The delivered pc counts: reached by a
 * branch, what ran before it is unknown from the instructions before it alone. Unless
 * every path through the CFG back from the pc (each at most `window` instructions long,
 * none through the entry, a return point, or a block entered from somewhere unknown, in a
 * CFG that knows every indirect jump's targets) meets the same access of the kind first:
 * then that access ran last before the pc whichever way control came, and is the trigger
 * (BT_F_PATHS); its address is computed only when no path writes its registers. */
#ifndef BMPROF_BACKTRACK_H
#define BMPROF_BACKTRACK_H

#include <stddef.h>
#include <stdint.h>

#include "cfg.h"
#include "insn.h"
#include "memop.h"
#include "regfile.h"

#define BT_WINDOW_DEFAULT 16u
#define BT_WINDOW_MAX 256u
#define BT_NOREG MEMOP_NOREG

enum bt_event {
	BT_EV_LOAD = 1,      /* a load event (cache or TLB miss on a read) */
	BT_EV_STORE = 2,     /* a store event */
	BT_EV_ANY = 3,       /* either (a time or cycle event): the load of an instruction
			      * that both loads and stores */
};

enum bt_status {
	BT_EA = 0,           /* trigger found, effective address computed */
	BT_EA_UNKNOWN,       /* trigger found, address not determinable (why, clobber_*) */
	BT_BRANCH_TARGET,    /* a branch target in (trigger, pc]: charged to it (target) */
	BT_NO_MEMOP,         /* no access of the kind in the window or before the procedure
			      * start */
	BT_NOT_CODE,         /* the pc is not at an instruction start of the procedure (or of
			      * any procedure: bt_image) */
	BT_UNDECODABLE,      /* undecodable bytes before a candidate was found */
};

enum bt_why {
	BT_WHY_NONE = 0,
	BT_WHY_CLOBBERED,    /* clobber_reg was written by the instruction at clobber_pc */
	BT_WHY_NOT_CAPTURED, /* clobber_reg is not in the register file (or no file given) */
	BT_WHY_SEGMENT,      /* the memop.h reasons */
	BT_WHY_VECTOR_INDEX,
	BT_WHY_REP,
	BT_WHY_FORM,
};

/* flags */
#define BT_F_WRITEBACK 1u        /* the address came from the registers after the trigger
				  * ran: its writeback or stack-pointer move undone */
#define BT_F_CFG_INCOMPLETE 2u   /* the procedure has indirect jumps of unknown targets: a
				  * block that falls through may also be one of their targets */
#define BT_F_PATHS 4u            /* past a branch target: the trigger is the same on every
				  * path through the CFG (target: the branch target passed) */

struct bt_code {
	unsigned arch;                  /* enum bmprof_arch */
	const struct insn *insns;       /* the procedure, in address order */
	const struct memop *memops;     /* memops[i] for insns[i] */
	size_t n;
	const struct cfg *cfg;          /* built on insns; NULL: only the entry is a target */
};

struct bt_query {
	uint64_t pc;                    /* as delivered */
	uint8_t event;                  /* enum bt_event */
	unsigned window;                /* instructions examined; 0: BT_WINDOW_DEFAULT */
	const struct regfile *regs;     /* may be NULL: no address, the rest as usual */
};

struct bt_result {
	uint8_t status;                 /* enum bt_status */
	uint8_t why;                    /* enum bt_why, for BT_EA_UNKNOWN */
	uint8_t kind;                   /* BT_EV_LOAD or BT_EV_STORE: the trigger's access */
	uint8_t base, index;            /* its address registers (DWARF), or BT_NOREG */
	uint8_t clobber_reg;            /* BT_WHY_CLOBBERED / NOT_CAPTURED: the register */
	uint16_t size;                  /* bytes accessed */
	uint32_t flags;                 /* BT_F_* */
	uint32_t skid;                  /* instructions between the trigger and the pc */
	uint64_t trigger_pc;            /* the candidate trigger (0 if none found) */
	uint64_t clobber_pc;            /* the instruction that wrote clobber_reg */
	uint64_t target;                /* BT_BRANCH_TARGET: the nearest branch target */
	int64_t disp;                   /* the displacement (absolute address when no regs) */
	uint64_t ea;                    /* BT_EA: the effective address */
};

/* Backtrack q over c into r. Returns r->status. */
int bt_resolve(const struct bt_code *c, const struct bt_query *q, struct bt_result *r);

/* Whether insns[i] of c is a branch target in the sense above. */
int bt_is_branch_target(const struct bt_code *c, size_t i);

/* Short names for reports and tests: "ea", "ea-unknown", "branch-target", ... */
const char *bt_status_name(unsigned status);
const char *bt_why_name(unsigned why);

#endif
