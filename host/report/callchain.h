/* SPDX-License-Identifier: BSD-2-Clause */
/* Call stacks of a profile as symbolized chains, for flame graphs, folded output, the
 * children columns and the call-graph text of bmprof report.
 *
 * stacks_fold() turns every sample that came with a chain into its frames from the
 * outermost function to the leaf, by name: each address (the leaf's pc, each caller's
 * return address less one, so the call site) expands to its inlined functions from DWARF,
 * outermost first; an address with no symbol is "[unknown]", one outside the image with no
 * firmware symbol "[firmware]". An AArch64 link register the target marked as maybe stale
 * (BMPROF_STACKF_LR_MAYBE) is kept only when it is not in the leaf's own function. Samples
 * of the same frames are merged into one row. A sample whose chain is not known (the
 * target's stack table was full, or its STACKS frame was lost) is a row of its leaf alone,
 * counted in no_chain.
 *
 *   struct stack_folded f;
 *   stacks_fold(profile, &resolved, event, cpu, &f);  an event id or FLAT_ALL_EVENTS; a CPU or -1
 *   for (size_t i = 0; i < f.n; i++)                rows sorted by their frames
 *           f.rows[i].names[0 .. f.rows[i].n)       root .. leaf, f.rows[i].count samples
 *   stacks_folded_free(&f);
 *
 * Names point into the symbolizer's strings (or static text): keep the resolved ELF open
 * while the rows are used. */
#ifndef BMPROF_CALLCHAIN_H
#define BMPROF_CALLCHAIN_H

#include <stdint.h>
#include <stdio.h>
#include "profile.h"
#include "report/resolve.h"

struct stack_row {
	const char **names;        /* root first, leaf last */
	unsigned n;
	uint64_t count;
};

struct stack_folded {
	struct stack_row *rows;
	size_t n;
	uint64_t total;            /* samples in every row */
	uint64_t no_chain;         /* of them, samples with no known chain */
};

/* 0, or -1 when out of memory (f is then empty). */
int stacks_fold(const struct profile *p, struct resolved *r, int event, int cpu,
		struct stack_folded *f);
void stacks_folded_free(struct stack_folded *f);

/* The addresses of s's chain, leaf first: the leaf's pc, then each caller's return
 * address less one (the call), a maybe-stale link register left out as stacks_fold does.
 * out has room for 1 + BMPROF_STACK_DEPTH_WIRE_MAX; returns how many. */
unsigned stacks_chain_addrs(const struct profile *p, struct resolved *r,
			    const struct profile_stack_sample *s, uint64_t *out);


/* One function's share of the samples: self (it was the leaf) and children (it was on the
 * chain at all, itself included, counted once per sample however often it recurs). */
struct stack_share {
	const char *name;
	uint64_t self, children;
};

/* Every function's shares, sorted by children then self (descending), then name. *out is
 * malloc'ed (*n entries). 0, or -1 out of memory. */
int stacks_shares(const struct stack_folded *f, struct stack_share **out, size_t *n);

enum stacks_order { STACKS_CALLER, STACKS_CALLEE };

/* The call graph as indented text: STACKS_CALLER, a tree from the outermost functions
 * down to the leaves; STACKS_CALLEE, one tree per leaf function up through its callers.
 * Branches under min_percent of all samples are left out. 0, or -1 if writing failed or
 * out of memory. */
int stacks_print_graph(FILE *out, const struct stack_folded *f, enum stacks_order order,
		       double min_percent);

#endif
