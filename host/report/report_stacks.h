/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof report's call-stack views: --children (each function's children and self
 * shares, as perf report --children) and -g caller|callee (the call graph), over the
 * report's profile and resolved ELF (report.h, callchain.h). */
#ifndef BMPROF_REPORT_STACKS_H
#define BMPROF_REPORT_STACKS_H

#include <stdio.h>
#include "report/report.h"

/* The children table (children set) at most limit rows (-1: all) at min_percent or more,
 * then the call graph in order (-1: none). 0, or -1 (reported: no stacks in the profile,
 * out of memory, a write error). */
int report_print_stacks(FILE *f, struct report *rp, int children, int order, long limit,
			double min_percent);

#endif
