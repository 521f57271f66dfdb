/* SPDX-License-Identifier: BSD-2-Clause */
/* One message per event that does not count or sample as asked, in the words the host uses
 * for the same EVENT frame (transport/wire_text.h), and one when event groups take turns
 * on the counters. */
#include "rt_common.h"
#include "bmprof_pmu.h"
#include "wire_text.h"

void bmrt_report_events(const struct bmprof_pmu *p, const char *counters)
{
	for (unsigned i = 0; i < p->nevents; i++) {
		const struct bmprof_pmu_event *e = &p->ev[i];
		const char *lead = bmprof_event_status_lead(e->status, e->reason);

		if (lead)
			bmrt_log(BMRT_WARN, "event %u (%s): %s%s%s", e->id, e->name, lead,
				 bmprof_event_reason_text(e->reason),
				 bmprof_event_status_tail(e->status));
	}
	if (counters && p->ngroups > 1)
		bmrt_log(BMRT_INFO, "%u event groups take turns on %s at each timer tick",
			 p->ngroups, counters);
}
