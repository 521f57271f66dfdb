/* SPDX-License-Identifier: BSD-2-Clause */
/* EVENT frames for the configured events and COUNTS for one CPU. */
#include "pmu_internal.h"

static void describe(const struct bmprof_pmu *p, const struct bmprof_pmu_event *e,
		     struct bmprof_event_desc *d)
{
	int on_pmu = pmu_placed(e);
	int fixed = on_pmu && pmu_is_fixed(e->counter);

	*d = (struct bmprof_event_desc){
		.id = e->id,
		.source = fixed ? BMPROF_SOURCE_PMU_FIXED : BMPROF_SOURCE_PMU,
		.encoding = e->encoding,
		.name = e->name,
		.status = e->status,
		.reason = e->reason,
		.counter_kind = !on_pmu ? BMPROF_CTR_NONE : fixed ? BMPROF_CTR_FIXED : BMPROF_CTR_GP,
		.counter = !on_pmu ? BMPROF_PMU_NONE :
			   (uint8_t)(fixed ? e->counter - BMPROF_PMU_FIXED_BASE : e->counter),
		.group = e->group,
		.ngroups = p->ngroups,
	};
	if (pmu_samples(e)) {
		d->period = e->period;
		d->jitter = e->jitter;
		d->flags = e->jitter ? BMPROF_EVENT_RANDOMIZED : 0;
		d->precise = e->precise;
	} else {
		d->flags = BMPROF_EVENT_COUNTING;
	}
	if (e->status == BMPROF_EVST_FALLBACK) {
		d->source = BMPROF_SOURCE_TIMER;
		if (!on_pmu)
			d->counter_kind = BMPROF_CTR_TIMER;
	}
}

int bmprof_pmu_announce(const struct bmprof_pmu *p, const struct bmprof_out *out)
{
	for (unsigned i = 0; i < p->nevents; i++) {
		struct bmprof_event_desc d;
		describe(p, &p->ev[i], &d);
		int r = bmprof_emit_event(out, &d);
		if (r)
			return r;
	}
	return 0;
}

int bmprof_pmu_emit_counts(const struct bmprof_pmu *p, const struct bmprof_out *out)
{
	struct bmprof_count r[BMPROF_PMU_MAX_EVENTS];
	unsigned n = 0;

	for (unsigned i = 0; i < p->nevents; i++) {
		const struct bmprof_pmu_event *e = &p->ev[i];
		if (!pmu_placed(e))
			continue;
		r[n++] = (struct bmprof_count){
			.event = e->id,
			.flags = e->flags & BMPROF_PMUEV_WRAPPED ? 1 : 0,
			.value = e->count,
			.enabled = e->enabled,
			.running = e->running,
		};
	}
	if (!n)
		return 0;
	return bmprof_emit_counts(out, p->cpu ? p->cpu->cpu_id : 0, r, n);
}
