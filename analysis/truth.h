/* Exact execution counts of an image, for bmprof validate: the image runs once in QEMU
 * TCG with one instruction per translation block and execution logging
 * (-singlestep -d exec,nochain,int, to a FIFO read as it is written: host/truth_qemu.c),
 * and every executed instruction's address is counted, corrected for the ways the log
 * differs from retirement (docs/bmprof-validate.md has the evidence):
 *   1. a logged block that did not run ("Stopped execution of TB chain before X" follows
 *      the "Trace" line of X): that line is dropped;
 *   2. an x86 rep string instruction, logged once per iteration: counted once per entry
 *      (when the instruction counted before it is a different one);
 *   3. an instruction that faulted (logged, then an exception whose return address is that
 *      instruction, shown by -d int): not retired, dropped;
 *   4. -icount replays a block at an MMIO access: truth runs never use -icount.
 * Transitions leaving a branch are counted too (the pair of the branch and the instruction
 * counted after it): the CFG edges' true counts. Parsing is pure (this file and
 * truth.c); running QEMU is host/truth_qemu.c. */
#ifndef BMPROF_TRUTH_H
#define BMPROF_TRUTH_H

#include <stddef.h>
#include <stdint.h>

struct truth_pc { uint64_t pc, count; };
struct truth_edge { uint64_t from, to, count; };

struct truth {
	struct truth_pc *pcs;       /* sorted by pc */
	size_t npcs;
	struct truth_edge *edges;   /* sorted by (from, to) */
	size_t nedges;
	uint64_t total;             /* instructions counted */
	/* corrections applied, by pitfall */
	uint64_t stopped, rep_folded, faulted;
	uint64_t lines, bad_lines;  /* log lines read; lines not understood */
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
/* The pcs and edges whose counts differ between predicted and actual (a third run at k3
 * checks the line through k1, k2): 0 when the counts are affine. */
size_t truth_mismatch(const struct truth *predicted, const struct truth *actual);

/* ---- the log parser ---- */

/* What the decoded image says about the instruction at pc: TRUTH_INSN_REP for an x86 rep
 * string instruction, TRUTH_INSN_BRANCH for one that may not fall through (jump, branch,
 * indirect jump, return: its transitions are counted as edges); 0 for any other, or an
 * address outside the decoded code. */
#define TRUTH_INSN_REP 1u
#define TRUTH_INSN_BRANCH 2u
typedef unsigned (*truth_insn_fn)(void *ctx, uint64_t pc);

struct truth_parser;

/* A parser filling t (emptied first); classify may be NULL (no rep folding, no edges).
 * NULL if out of memory. */
struct truth_parser *truth_parser_new(struct truth *t, truth_insn_fn classify, void *ctx);
/* Feed log text in any pieces (lines may span calls). 0, or -1 if out of memory. */
int truth_parser_feed(struct truth_parser *p, const char *buf, size_t n);
/* End of the log: the last line is counted, t's arrays are built (sorted). 0, or -1 if out
 * of memory. The parser is freed either way. */
int truth_parser_finish(struct truth_parser *p);
/* Frees a parser without finishing (t stays as it was filled so far: unsorted). */
void truth_parser_free(struct truth_parser *p);

/* The whole log text at once: 0, or -1 if out of memory. */
int truth_parse_text(const char *text, size_t n, truth_insn_fn classify, void *ctx,
		     struct truth *t);

#endif
