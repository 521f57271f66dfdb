/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof report's call-stack views (report_stacks.h). */
#include <stdlib.h>
#include <string.h>
#include "report/report_stacks.h"
#include "report/callchain.h"
#include "util/util.h"

static void notes(FILE *f, const struct report *rp, const struct stack_folded *sf)
{
	const struct profile *p = rp->p;

	fprintf(f, "# %llu samples with call stacks\n", (unsigned long long)sf->total);
	if (p->stack_lost)
		fprintf(f, "# %llu samples without their chain: the target's stack table was full "
			"(a larger BMPROF_*_STACK_ENTRIES / _FRAMES keeps them)\n",
			(unsigned long long)p->stack_lost);
	if (p->stack_unknown)
		fprintf(f, "# %llu samples name a chain whose STACKS frame never arrived\n",
			(unsigned long long)p->stack_unknown);
}

static void children_table(FILE *f, const struct stack_folded *sf, const struct stack_share *s,
			   size_t n, long limit, double min_percent)
{
	double t = sf->total ? (double)sf->total : 1;

	fprintf(f, "%9s %9s  %s\n", "Children", "Self", "Function");
	for (size_t i = 0; i < n && (limit < 0 || (long)i < limit); i++) {
		double c = 100.0 * (double)s[i].children / t, self = 100.0 * (double)s[i].self / t;
		if (c < min_percent)
			break;
		fprintf(f, "%8.2f%% %8.2f%%  %s\n", c, self, s[i].name);
	}
}

int report_print_stacks(FILE *f, struct report *rp, int children, int order, long limit,
			double min_percent)
{
	struct stack_folded sf;
	int rc = 0;

	if (!profile_has_stacks(rp->p)) {
		bm_err("report: %s has no call stacks: record with -g (bmprof qemu -g IMAGE)",
		       rp->input);
		return -1;
	}
	if (stacks_fold(rp->p, &rp->r, rp->event, -1, &sf)) {
		bm_err("report: out of memory");
		return -1;
	}
	notes(f, rp, &sf);
	if (children) {
		struct stack_share *s;
		size_t n;
		if (stacks_shares(&sf, &s, &n)) {
			bm_err("report: out of memory");
			rc = -1;
		} else {
			children_table(f, &sf, s, n, limit, min_percent);
			free(s);
		}
	}
	if (!rc && order >= 0) {
		if (children)
			fputc('\n', f);
		rc = stacks_print_graph(f, &sf, (enum stacks_order)order, min_percent);
	}
	stacks_folded_free(&sf);
	return rc || ferror(f) ? -1 : 0;
}
