/* SPDX-License-Identifier: BSD-2-Clause */
/* Top-Down per function: a function's share of each sampled event, as counts the tree can
 * be computed from (topdown.h). */
#include <stdio.h>
#include <string.h>

#include "profile.h"
#include "topdown.h"

int topdown_func_counts(const struct profile *p, const struct td_func_event *ev, unsigned n,
			const int *func_of, int func, struct td_counts *out)
{
	memset(out, 0, sizeof *out);
	for (unsigned k = 0; k < n; k++) {
		const struct profile_event *e = profile_event(p, ev[k].id);
		struct td_count *c;
		uint64_t samples = 0;

		if (out->n >= TD_MAX_COUNTS)
			return -1;
		c = &out->c[out->n++];
		snprintf(c->event, sizeof c->event, "%s", ev[k].event);
		c->group = ev[k].group;
		if (!e || e->status != BMPROF_EVST_ACTIVE || !e->period ||
		    e->reason == BMPROF_EVR_NO_OVERFLOW) {
			c->state = e && e->status == BMPROF_EVST_UNAVAILABLE ? TD_UNSUPPORTED :
				   TD_NOT_COUNTED;
			snprintf(c->why, sizeof c->why, "%s", !e ? "not described by the image" :
				 e->status != BMPROF_EVST_ACTIVE ? "not sampled on this CPU" :
				 e->period ? "counted, not sampled (its counter cannot interrupt)" :
				 "not sampled");
			continue;
		}
		for (size_t i = 0; i < p->nsamples; i++)
			if (p->samples[i].event == ev[k].id && func_of[i] == func)
				samples += p->samples[i].count;
		c->state = TD_COUNTED;
		c->value = (double)samples * (double)e->period;
	}
	return 0;
}
