/* SPDX-License-Identifier: BSD-2-Clause */
/* The flame graph of a built report (report.h): its stacks (stacks.h) drawn by flamegraph.h,
 * titled with the image and subtitled with the profile, the event and the CPU. */
#ifndef BMPROF_REPORT_FLAME_H
#define BMPROF_REPORT_FLAME_H

#include <stdio.h>
#include "report/report.h"

/* cpu: one CPU's samples (>= 0) or all (-1); width 0: the default; in_html: for an HTML
 * page (no XML declaration). 0, or -1 with the reason in err. */
int report_flamegraph(FILE *f, const struct report *rp, int cpu, int width, int in_html,
		      char *err, size_t errlen);
/* Whether a CPU has samples of the report's event. */
int report_cpu_has_samples(const struct report *rp, unsigned cpu);

#endif
