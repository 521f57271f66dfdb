/* SPDX-License-Identifier: BSD-2-Clause */
/* Samples as a list of stacks: each a sequence of frames from the root (the outermost
 * caller) to the leaf (where the sample landed), named as a reader knows them (symname.h),
 * with the samples that had it. What flame graphs and folded stacks are drawn from.
 *
 * A profile whose samples hold the pc alone gives one frame per sample: its function, with
 * the functions inlined into it at the pc (DWARF) as frames above it; outside the image,
 * "MODULE!function" or "[firmware 0xLO-0xHI]" by 4 KiB page; no symbol, "[unknown]". */
#ifndef BMPROF_STACKS_H
#define BMPROF_STACKS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "report/report.h"

struct stack {
	const char **frames;     /* [0] the root ... [nframes - 1] the leaf; owned by the list */
	unsigned nframes;
	uint64_t count;
};

struct stack_names;

struct stack_list {
	struct stack *v;
	size_t n, cap;
	uint64_t total;          /* the counts summed */
	unsigned max_depth;      /* the most frames of a stack */
	struct stack_names *names;   /* private: each distinct name stored once */
};

void stacks_init(struct stack_list *sl);
void stacks_free(struct stack_list *sl);
/* Add a stack (names copied; equal names share one copy, so frames compare by pointer). A
 * stack of no frames or no count is left out. */
void stacks_add(struct stack_list *sl, const char *const *frames, unsigned n, uint64_t count);
/* Sort by frames, root first (names in byte order), and make equal stacks one. */
void stacks_merge(struct stack_list *sl);
/* The stacks of a built report's samples of its event, of one CPU (cpu >= 0) or of all
 * (-1), merged. 0, or -1 (out of memory). */
int stacks_from_report(struct stack_list *sl, const struct report *rp, int cpu);
/* "root;...;leaf count" lines (the folded form). 0, or -1 if writing failed. */
int stacks_write_folded(FILE *f, const struct stack_list *sl);

#endif
