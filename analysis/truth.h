/* SPDX-License-Identifier: BSD-2-Clause */
/* Exact execution counts of an image's instructions and of the transitions between its
 * blocks, for bmprof validate and bmprof count. A QEMU TCG plugin (host/qemu-plugin/
 * insn_count.c) counts how many times each instruction starts and writes them with its
 * block transitions; QEMU's -d int log names the exceptions. A hardware counter counts
 * retirements, and a start is not always one (docs/bmprof-validate.md has the evidence):
 *   1. an x86 rep string instruction starts once per iteration, and again when an
 *      interrupt or a fault in the middle resumes it: the plugin counts its executions
 *      itself (rep_count.h), which replace its starts;
 *   2. an instruction that faults started but did not retire: one start less per fault
 *      the log reports at its address (x86: an exception raised through check_exception,
 *      not a debug trap; AArch64: Undefined Instruction, Data Abort, Breakpoint and
 *      Hypervisor Trap at ELR); a fault while fetching the instruction (x86 #PF at the
 *      instruction's own bytes, AArch64 Prefetch Abort) came before it started, and a
 *      fault at a rep string instruction is resumed: neither is subtracted;
 *   3. under -icount QEMU replays the instruction of an MMIO access in a block of its own
 *      that counts no starts (QEMU 7.2's CF_MEMI_ONLY): nothing to correct, checked by
 *      tests/e2e/test_count.sh.
 * Parsing and correcting are pure (this file's functions); running QEMU is
 * host/run/truth_qemu.c. */
#ifndef BMPROF_TRUTH_H
#define BMPROF_TRUTH_H

#include <stddef.h>
#include <stdint.h>

struct truth_pc { uint64_t pc, count; };
struct truth_edge { uint64_t from, to, count; };

/* the starts that were not retirements, by pitfall */
struct truth_fixes {
	uint64_t rep_iterations;   /* starts of rep string instructions beyond their executions */
	uint64_t faulted;          /* faults subtracted */
	uint64_t rep_faults;       /* faults at a rep string instruction (resumed: kept) */
	uint64_t fetch_faults;     /* faults fetching an instruction (never started) */
	uint64_t outside;          /* faults at addresses not counted (outside the ranges) */
	uint64_t unmatched;        /* faults beyond an instruction's starts (none expected) */
};

struct truth {
	struct truth_pc *pcs;       /* sorted by pc */
	size_t npcs;
	struct truth_edge *edges;   /* sorted by (from, to) */
	size_t nedges;
	uint64_t total;             /* instructions retired, in all */
	struct truth_fixes fix;
};

void truth_init(struct truth *t);
void truth_free(struct truth *t);
uint64_t truth_count(const struct truth *t, uint64_t pc);
uint64_t truth_edge_count(const struct truth *t, uint64_t from, uint64_t to);

/* t = a + b * k per pc and edge: the counts of a run whose work is scaled by a parameter,
 * extrapolated from runs at parameter values k1 < k2 to k; -1 if a count decreased (the
 * counts are not affine in the parameter) or out of memory. */
int truth_extrapolate(const struct truth *t1, uint64_t k1, const struct truth *t2,
		      uint64_t k2, uint64_t k, struct truth *out);
/* The pcs and edges whose counts differ between predicted and actual: 0 when a third run
 * lies on the line through the first two. */
size_t truth_mismatch(const struct truth *predicted, const struct truth *actual);

/* ---- the plugin's counts file ---- */

struct truth_insn {
	uint64_t pc, starts;
	uint64_t execs;             /* rep string instruction: its executions */
	uint32_t size;
	uint8_t rep;
};

/* With the plugin's stacks=1 (analysis/shadow_stack.h): the calling-context tree and what
 * ran in each of its nodes. */
struct truth_node {
	uint64_t addr;              /* 'c': the return address; 'q': the exception's entry */
	uint32_t parent;            /* below the node's own index; the root (0) is its own */
	uint8_t kind;               /* 'c' a call, 'q' an exception; 0 the root */
};

struct truth_ctx_run {
	uint64_t start, count;      /* count runs of n instructions from start, in node */
	uint32_t node, n;
};

struct truth_stack_stats {
	uint64_t calls, rets, unmatched_rets, erets, unmatched_erets, irqs, overflow;
};

struct truth_raw {
	struct truth_insn *insns;   /* sorted by pc */
	size_t ninsns;
	struct truth_edge *edges;
	size_t nedges;
	int have_stacks;            /* the file had a "stacks" line */
	struct truth_node *nodes;   /* [0] the root */
	size_t nnodes;
	struct truth_ctx_run *runs;
	size_t nruns;
	struct truth_stack_stats ss;
};

/* The text insn_count.c writes. 0, or -1 with one line in err (not a counts file, a
 * malformed line, no "end" line: the run did not finish writing it; out of memory). */
int truth_raw_parse(const char *text, size_t n, struct truth_raw *r, char *err, size_t errlen);
void truth_raw_free(struct truth_raw *r);

/* ---- the exceptions in QEMU's -d int log ---- */

enum truth_fault_kind {
	TRUTH_FAULT,                /* the instruction at pc did not retire */
	TRUTH_FAULT_FETCH,          /* fetching the instruction at pc faulted: never started */
};
#define TRUTH_CR2_FAR 0xff     /* x86 #PF: the address is not within 15 bytes of pc */

struct truth_fault {
	uint64_t pc, n;             /* address, faults there */
	uint8_t kind;               /* enum truth_fault_kind */
	uint8_t cr2_off;            /* x86 #PF: CR2 - pc (below 15), else TRUTH_CR2_FAR */
};

struct truth_log;

/* A parser of -d int text (x86-64 and AArch64 lines), faults aggregated per address: its
 * memory follows the distinct fault sites, not the log's length. NULL if out of memory. */
struct truth_log *truth_log_new(void);
/* Log text in any pieces (lines may span calls). 0, or -1 if out of memory. */
int truth_log_feed(struct truth_log *l, const char *buf, size_t n);
/* The faults, sorted by pc (malloc'd; *f is NULL when none). Frees l. 0, or -1 if out of
 * memory. */
int truth_log_finish(struct truth_log *l, struct truth_fault **f, size_t *nf);
void truth_log_free(struct truth_log *l);

/* ---- retirements ---- */

/* The counts of r corrected by the faults f (sorted by pc) into t (emptied first): a rep
 * string instruction's executions instead of its starts, one start less per fault that
 * it did not retire (a fault at a rep instruction or one fetching the instruction: none).
 * Transitions are kept as counted. 0, or -1 if out of memory. */
int truth_build(const struct truth_raw *r, const struct truth_fault *f, size_t nf,
		struct truth *t);

/* ---- inclusive counts per function, from the calling contexts ---- */

/* The functions at an address, outermost first (an inlined function after the one it is
 * inlined in), as names; at most max. Returns how many (0: none known), or -1 on error.
 * For a caller's frame the address given is its return address less one (the call). */
typedef int (*truth_names_fn)(void *ctx, uint64_t addr, const char **names, unsigned max);

#define TRUTH_NAMES_MAX 64

struct truth_incl {
	const char *name;           /* the namer's string */
	uint64_t inclusive;         /* retired with it anywhere on the stack, once each */
	uint64_t self;              /* retired with it innermost at the instruction */
};

struct truth_stacks {
	struct truth_incl *fns;     /* sorted by inclusive, then self (descending), then name */
	size_t n;
	uint64_t total;             /* instructions counted outside exception handlers (and
				       with root on the stack) */
	uint64_t in_handlers;       /* instructions that ran under an exception frame */
	uint64_t unplaced;          /* instructions at addresses outside the ranges counted */
	uint64_t outside_root;      /* instructions that ran without root on the stack */
};

/* Exact inclusive and self counts per function from r's calling contexts (r->have_stacks):
 * every instruction a context ran that is one of r's instructions (within the ranges
 * counted) adds one to each distinct function on its stack (the frames of its context's
 * return addresses and its own address, named by fn), however often the function recurs.
 * Frames outside the ranges are left out. Instructions run under an exception frame (the
 * sampler's interrupt handler, whose instructions a sample never lands on) are left out
 * and counted in in_handlers. With root (a function name), only the instructions that ran
 * with it on the stack are counted (the others in outside_root). 0, or -1 (out of memory,
 * or fn failed). */
int truth_stacks_build(const struct truth_raw *r, truth_names_fn fn, void *ctx,
		       const char *root, struct truth_stacks *out);
void truth_stacks_free(struct truth_stacks *s);

#endif
