/* SPDX-License-Identifier: BSD-2-Clause */
/* Probing, and placing events on counters in groups that each fit the PMU. */
#include "pmu_internal.h"

static void set_unavailable(struct bmprof_pmu_event *e, uint8_t reason)
{
	e->status = BMPROF_EVST_UNAVAILABLE;
	e->reason = reason;
	e->counter = BMPROF_PMU_NONE;
	e->group = BMPROF_PMU_NONE;
}

static uint32_t gp_allowed(const struct bmprof_pmu_caps *c)
{
	uint32_t all = c->ngp >= 32 ? ~0u : (1u << c->ngp) - 1;
	return c->gp_mask_for_event ? c->gp_mask_for_event & all : all;
}

/* A counter for e outside used: its fixed counter if it is a word the CPU has one for,
 * else a GP counter if e has a GP encoding. BMPROF_PMU_NONE if there is none. */
static unsigned free_counter(const struct bmprof_pmu *p, const struct bmprof_pmu_event *e,
			     uint64_t used)
{
	const struct bmprof_pmu_caps *c = &p->caps;
	if (e->fixed)
		for (unsigned i = 0; i < c->nfixed && i < BMPROF_PMU_MAX_FIXED; i++)
			if (c->fixed_kind[i] == e->fixed &&
			    !(used >> (BMPROF_PMU_FIXED_BASE + i) & 1))
				return BMPROF_PMU_FIXED_BASE + i;
	if (e->flags & BMPROF_PMUEV_NO_GP)
		return BMPROF_PMU_NONE;
	uint32_t gp = gp_allowed(c) & ~(uint32_t)used;
	return gp ? (unsigned)__builtin_ctz(gp) : BMPROF_PMU_NONE;
}

/* Events still to place: the unit of event i is every such event with its user group
 * (just i without one). */
static int in_unit(const struct bmprof_pmu *p, unsigned i, unsigned j)
{
	const struct bmprof_pmu_event *a = &p->ev[i], *b = &p->ev[j];
	if (b->status == BMPROF_EVST_UNAVAILABLE || b->counter != BMPROF_PMU_NONE)
		return 0;
	return i == j || (a->user_group != BMPROF_PMU_NONE && a->user_group == b->user_group);
}

/* Place the unit of event i into group g, whose counters are *used, if all of it fits. */
static int place_unit(struct bmprof_pmu *p, unsigned i, unsigned g, uint64_t *used)
{
	uint64_t t = *used;
	uint8_t ctr[BMPROF_PMU_MAX_EVENTS];

	for (unsigned j = i; j < p->nevents; j++) {
		if (!in_unit(p, i, j))
			continue;
		ctr[j] = (uint8_t)free_counter(p, &p->ev[j], t);
		if (ctr[j] == BMPROF_PMU_NONE)
			return 0;
		t |= 1ull << ctr[j];
	}
	for (unsigned j = p->nevents; j-- > i;)
		if (in_unit(p, i, j)) {
			p->ev[j].counter = ctr[j];
			p->ev[j].group = (uint8_t)g;
		}
	*used = t;
	return 1;
}

/* First fit, in the order the events were given. */
static void place(struct bmprof_pmu *p)
{
	uint64_t used[BMPROF_PMU_MAX_EVENTS] = { 0 };

	for (unsigned i = 0; i < p->nevents; i++) {
		if (!in_unit(p, i, i))
			continue;
		unsigned g = 0;
		while (g < p->ngroups && !place_unit(p, i, g, &used[g]))
			g++;
		if (g == p->ngroups && place_unit(p, i, g, &used[g]))
			p->ngroups++;
		if (p->ev[i].counter == BMPROF_PMU_NONE)
			for (unsigned j = p->nevents; j-- > i;)
				if (in_unit(p, i, j))
					set_unavailable(&p->ev[j], BMPROF_EVR_NO_COUNTER);
	}
	for (unsigned g = 0; g < p->ngroups; g++)
		p->group_mask[g] = used[g];
}

/* Whether e's counter is used by its group alone. */
static int alone(const struct bmprof_pmu *p, const struct bmprof_pmu_event *e)
{
	for (unsigned g = 0; g < p->ngroups; g++)
		if (g != e->group && (p->group_mask[g] >> e->counter & 1))
			return 0;
	return 1;
}

/* Events whose counters no other group uses stay on the PMU; a GROUP only as a whole. */
static void pin(struct bmprof_pmu *p)
{
	uint8_t keep[BMPROF_PMU_MAX_EVENTS] = { 0 };

	for (unsigned i = 0; i < p->nevents; i++) {
		const struct bmprof_pmu_event *e = &p->ev[i];
		keep[i] = pmu_placed(e) && alone(p, e);
		for (unsigned j = 0; keep[i] && j < p->nevents; j++) {
			const struct bmprof_pmu_event *o = &p->ev[j];
			if (e->user_group != BMPROF_PMU_NONE && o->user_group == e->user_group &&
			    pmu_placed(o) && !alone(p, o))
				keep[i] = 0;
		}
	}
	p->pinned_mask = 0;
	for (unsigned i = 0; i < p->nevents; i++)
		if (keep[i]) {
			struct bmprof_pmu_event *e = &p->ev[i];
			p->group_mask[e->group] &= ~(1ull << e->counter);
			p->pinned_mask |= 1ull << e->counter;
			e->group = BMPROF_PMU_NONE;
		}
}

/* Whether the CPU can count e at all, before looking for room. */
static void check_event(struct bmprof_pmu *p, struct bmprof_pmu_event *e)
{
	const struct bmprof_pmu_caps *c = &p->caps;
	int fixed = 0;

	if (e->status == BMPROF_EVST_UNAVAILABLE)
		return;
	if (!p->ops) {
		set_unavailable(e, BMPROF_EVR_NO_PMU);
		return;
	}
	for (unsigned i = 0; e->fixed && i < c->nfixed && i < BMPROF_PMU_MAX_FIXED; i++)
		fixed |= c->fixed_kind[i] == e->fixed;
	if (fixed)
		return;
	if ((e->flags & BMPROF_PMUEV_NO_GP) ||
	    (p->ops->event_ok && !p->ops->event_ok(e->encoding)))
		set_unavailable(e, BMPROF_EVR_UNSUPPORTED);
}

static uint64_t max_period(const struct bmprof_pmu *p, unsigned ctr)
{
	uint64_t m = pmu_width_mask(p, ctr);
	return p->caps.max_period && p->caps.max_period < m ? p->caps.max_period : m;
}

/* In raw mode a GP sampling event that PEBS can sample is sampled by PEBS records, with a
 * fixed period (the hardware reloads the counter); one that PEBS could sample on a CPU
 * whose PEBS cannot be used keeps the interrupt and says why in precise. */
static void choose_pebs(struct bmprof_pmu *p, struct bmprof_pmu_event *e)
{
	int why;

	e->precise = BMPROF_PRECISE_NONE;
	if (!p->ops->pebs_ok || !p->cpu || !p->cpu->raw.cap || pmu_is_fixed(e->counter))
		return;
	why = p->ops->pebs_ok(e->counter, e->encoding);
	if (why < 0)
		return;
	e->precise = why ? (uint8_t)why : BMPROF_PRECISE_PEBS;
	if (why)
		return;
	e->flags |= BMPROF_PMUEV_PEBS;
	e->jitter = 0;
}

/* Which placed events interrupt, with their first period drawn; which fall back. */
static void arm_events(struct bmprof_pmu *p)
{
	int any = 0;

	for (unsigned i = 0; i < p->nevents; i++) {
		struct bmprof_pmu_event *e = &p->ev[i];
		e->last = 0;
		if (!pmu_placed(e) || !e->period || p->mode != BMPROF_PMU_SAMPLE)
			continue;
		if (!p->caps.can_interrupt || (p->caps.no_irq_mask >> e->counter & 1)) {
			e->reason = BMPROF_EVR_NO_OVERFLOW;
			continue;
		}
		if (e->period > max_period(p, e->counter)) {
			e->period = max_period(p, e->counter);
			e->jitter = e->period / 16;
		}
		e->flags |= BMPROF_PMUEV_SAMPLES;
		choose_pebs(p, e);
		e->next = p->cpu ? bmprof_random_period(p->cpu, e->period, e->jitter) :
			  e->period;
		e->last = (0 - e->next) & pmu_width_mask(p, e->counter);
		any = 1;
	}
	if (any || p->mode != BMPROF_PMU_SAMPLE)
		return;
	for (unsigned i = 0; i < p->nevents; i++)
		if (p->ev[i].period)
			p->ev[i].status = BMPROF_EVST_FALLBACK;
}

int bmprof_pmu_setup(struct bmprof_pmu *p, const struct bmprof_pmu_ops *ops,
		     struct bmprof_cpu *cpu, uint8_t mode)
{
	int n = 0;

	p->ops = 0;
	p->caps = (struct bmprof_pmu_caps){ 0 };
	p->cpu = cpu;
	p->mode = mode;
	p->ngroups = 0;
	p->cur = 0;
	p->running = 0;
	p->busy = BMPROF_PMU_IDLE;
	p->last_tick = 0;
	p->pinned_mask = 0;
	for (unsigned g = 0; g < BMPROF_PMU_MAX_EVENTS; g++)
		p->group_mask[g] = 0;
	if (ops && ops->probe(&p->caps) == 0 && (p->caps.ngp || p->caps.nfixed)) {
		p->ops = ops;
		if (p->caps.ngp > BMPROF_PMU_MAX_GP)
			p->caps.ngp = BMPROF_PMU_MAX_GP;
		if (p->caps.nfixed > BMPROF_PMU_MAX_FIXED)
			p->caps.nfixed = BMPROF_PMU_MAX_FIXED;
	}
	for (unsigned i = 0; i < p->nevents; i++) {
		struct bmprof_pmu_event *e = &p->ev[i];
		if (e->reason != BMPROF_EVR_BAD_ENCODING) {    /* the parser's verdict stays */
			e->status = BMPROF_EVST_ACTIVE;
			e->reason = BMPROF_EVR_NONE;
		}
		e->counter = BMPROF_PMU_NONE;
		e->group = BMPROF_PMU_NONE;
		e->flags &= (uint8_t)~(BMPROF_PMUEV_SAMPLES | BMPROF_PMUEV_WRAPPED |
				       BMPROF_PMUEV_PEBS);
		e->precise = BMPROF_PRECISE_NONE;
		e->count = e->enabled = e->running = e->samples = e->next = 0;
		check_event(p, e);
	}
	place(p);
	pin(p);
	arm_events(p);
	for (unsigned i = 0; i < p->nevents; i++)
		n += pmu_placed(&p->ev[i]);
	return n;
}

int bmprof_pmu_sampling(const struct bmprof_pmu *p)
{
	for (unsigned i = 0; i < p->nevents; i++)
		if (pmu_placed(&p->ev[i]) && pmu_samples(&p->ev[i]))
			return 1;
	return 0;
}

int bmprof_pmu_needs_tick(const struct bmprof_pmu *p)
{
	if (p->ngroups > 1)
		return 1;
	for (unsigned i = 0; i < p->nevents; i++)
		if (pmu_placed(&p->ev[i]) && !pmu_samples(&p->ev[i]))
			return 1;
	return 0;
}
