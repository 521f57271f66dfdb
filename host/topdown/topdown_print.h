/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof topdown's output: the tree as text or JSON (docs/bmprof-topdown.md). */
#ifndef BMPROF_TOPDOWN_PRINT_H
#define BMPROF_TOPDOWN_PRINT_H

#include <stdio.h>

#include "topdown.h"
#include "topdown/topdown_input.h"

struct td_report {
	const char *what;                /* the image or input file */
	const struct td_model *m;
	const struct td_input *in;       /* the CPU identity and the counts */
	const struct td_tree *t;
	unsigned level;
	int show_all;
	const struct td_plan *plan;      /* NULL: the counts came from a file */
	const char *note;                /* one more line to say, or NULL */
};

void topdown_print_text(FILE *f, const struct td_report *r);
/* 0, or -1 if writing failed. */
int topdown_print_json(FILE *f, const struct td_report *r);

#endif
