/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof report's filters: --cpu and --addr-range keep samples (the totals and
 * percentages are then of the samples kept), --symbols keeps rows (their percentages stay
 * of all samples, as perf's do); and the grouped orders of --sort KEY,KEY. */
#ifndef BMPROF_REPORT_FILTER_H
#define BMPROF_REPORT_FILTER_H

#include "profile_filter.h"
#include "report/report.h"
#include "report/sort_keys.h"

struct report_filter_opts {
	const char *cpus;        /* "0,2" */
	const char *range;       /* "0x1000-0x1fff" */
	const char *symbols;     /* "f_a,f_b" */
};

/* Parse --cpu and --addr-range into f. 0, or -1 with the reason (one line) printed. */
int report_filter_parse(const struct report_filter_opts *o, struct profile_filter *f);
/* Keep the samples f keeps in p (rp->p), noting it for the header. 0 or -1 (printed:
 * a CPU with no samples, nothing in the range). */
int report_filter_samples(struct report *rp, struct profile *p, const struct profile_filter *f,
			  const struct report_filter_opts *o);
/* Keep the rows of the functions names lists (a clone's or demangled name matches as
 * annotate's do), noting it for the header. 0, or -1 (printed). */
int report_filter_symbols(struct report *rp, const char *names);
/* Order rp's rows as s groups them (nothing when s->group < 0). 0, or -1 (printed). */
int report_group_rows(struct report *rp, const struct report_sort *s);

#endif
