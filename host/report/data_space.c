/* SPDX-License-Identifier: BSD-2-Clause */
/* Which source a data-space run's raw samples came from. See data_space.h. */
#include <stdio.h>
#include <string.h>

#include "events.h"
#include "wire_text.h"
#include "report/data_space.h"

/* The first PMU event that sampled (on a counter, interrupting on overflow). */
static const struct profile_event *pmu_sampler(const struct profile *p)
{
	for (unsigned i = 0; i < p->nevents; i++) {
		const struct profile_event *e = &p->events[i];
		if (e->source != BMPROF_SOURCE_TIMER && e->status == BMPROF_EVST_ACTIVE &&
		    !(e->flags & BMPROF_EVENT_COUNTING) && e->period)
			return e;
	}
	return NULL;
}

/* The first PMU event that was asked for and is not counted. */
static const struct profile_event *not_counted(const struct profile *p)
{
	for (unsigned i = 0; i < p->nevents; i++)
		if (p->events[i].status != BMPROF_EVST_ACTIVE)
			return &p->events[i];
	return NULL;
}

void data_space_source(const struct profile *p, char *name, size_t nn, char *line, size_t ln)
{
	const struct profile_event *e = pmu_sampler(p), *off;

	if (e && e->precise == BMPROF_PRECISE_PEBS) {
		snprintf(name, nn, "%s", e->name);
		snprintf(line, ln, "raw samples from PMU event %s by PEBS: each record's pc is the "
			 "instruction that caused the event and its data address is the hardware's "
			 "(no backtracking)", e->name);
		return;
	}
	if (e && e->precise != BMPROF_PRECISE_NONE) {
		snprintf(name, nn, "%s", e->name);
		snprintf(line, ln, "raw samples from PMU event %s (its overflow interrupt; no PEBS: "
			 "%s); the host backtracks from each delivered pc to the memory instruction",
			 e->name, bmprof_precise_text(e->precise));
		return;
	}
	if (e) {
		snprintf(name, nn, "%s", e->name);
		snprintf(line, ln, "raw samples from PMU event %s (its overflow interrupt); the "
			 "host backtracks from each delivered pc to the memory instruction", e->name);
		return;
	}
	snprintf(name, nn, "timer");
	off = not_counted(p);
	if (off)
		snprintf(line, ln, "raw samples from the timer: %s is not counted here (%s); the "
			 "host backtracks from each sampled pc to the memory instruction", off->name,
			 events_reason_text(off->reason));
	else
		snprintf(line, ln, "raw samples from the timer; the host backtracks from each "
			 "sampled pc to the memory instruction");
}

void data_space_expect_raw(const struct profile *p)
{
	if (!profile_has_raw(p))
		fprintf(stderr, "bmprof: warning: --data-space: the stream has no raw samples: the "
			"image decides whether it sends them (raw=1 in its configuration, "
			"docs/image.md; cfg.raw for a kernel that links the library)\n");
}
