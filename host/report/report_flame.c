/* SPDX-License-Identifier: BSD-2-Clause */
/* A report's flame graph (report_flame.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report/flamegraph.h"
#include "report/report_flame.h"
#include "report/stacks.h"

int report_cpu_has_samples(const struct report *rp, unsigned cpu)
{
	return flat_cpu_total(&rp->flat, cpu) != 0;
}

int report_flamegraph(FILE *f, const struct report *rp, int cpu, int width, int in_html,
		      char *err, size_t errlen)
{
	const char *elf = rp->r.elf ? strrchr(rp->r.elf, '/') : NULL;
	const struct profile_event *e = rp->event == FLAT_ALL_EVENTS ? NULL :
		profile_event(rp->p, (uint16_t)rp->event);
	char title[600], sub[1200], on[32] = "";
	struct stack_list sl;
	struct flame_opts o = { title, sub, width, in_html };
	int rc;

	stacks_init(&sl);
	if (stacks_from_report(&sl, rp, cpu)) {
		snprintf(err, errlen, "out of memory");
		stacks_free(&sl);
		return -1;
	}
	snprintf(title, sizeof title, "Flame Graph: %s", elf ? elf + 1 : rp->r.elf ? rp->r.elf : "?");
	if (cpu >= 0)
		snprintf(on, sizeof on, " on cpu %d", cpu);
	snprintf(sub, sizeof sub, "%s: %" PRIu64 " samples%s%s%s", rp->input, sl.total,
		 e ? " of event " : "", e ? e->name : "", on);
	rc = flamegraph_svg(f, &sl, &o);
	if (rc)
		snprintf(err, errlen, "writing the flame graph failed");
	stacks_free(&sl);
	return rc;
}
