/* Counting and sampling: start, stop, the timer tick (fold, rotate) and the PMI.
 * What may run concurrently and why it is safe: bmprof_pmu.h. */
#include "core.h"
#include "pmu_internal.h"

/* The counter value that makes the next overflow come `next` events after the last one,
 * keeping the v events counted since (unless they already exceed it). */
static uint64_t rearm_value(uint64_t v, uint64_t next, uint64_t mask)
{
	return (v < next ? v - next : 0 - next) & mask;
}

static uint64_t draw(struct bmprof_pmu *p, const struct bmprof_pmu_event *e)
{
	return p->cpu ? bmprof_random_period(p->cpu, e->period, e->jitter) : e->period;
}

/* Add what the counter counted since the last read. Returns the raw value. */
static uint64_t fold(struct bmprof_pmu *p, struct bmprof_pmu_event *e)
{
	uint64_t mask = pmu_width_mask(p, e->counter);
	uint64_t v = p->ops->read(e->counter) & mask;

	if (v < e->last && !pmu_samples(e))
		e->flags |= BMPROF_PMUEV_WRAPPED;
	e->count += (v - e->last) & mask;
	e->last = v;
	return v;
}

static int in_group(const struct bmprof_pmu_event *e, unsigned g)
{
	return pmu_placed(e) && e->group == g;
}

static void account(struct bmprof_pmu *p, uint64_t now)
{
	uint64_t dt = now - p->last_tick;

	for (unsigned i = 0; i < p->nevents; i++) {
		struct bmprof_pmu_event *e = &p->ev[i];
		if (!pmu_placed(e))
			continue;
		e->enabled += dt;
		if (e->group == p->cur)
			e->running += dt;
	}
	p->last_tick = now;
}

static void switch_in(struct bmprof_pmu *p)
{
	for (unsigned i = 0; i < p->nevents; i++) {
		struct bmprof_pmu_event *e = &p->ev[i];
		if (!in_group(e, p->cur))
			continue;
		p->ops->program(e->counter, e->encoding, pmu_samples(e));
		p->ops->write(e->counter, e->last);
	}
	p->ops->enable(p->group_mask[p->cur]);
}

/* Stop the group on the PMU and fold its counts. A sampling counter that overflowed since
 * its last PMI (the PMI came too late, or found busy set) is re-armed for its next period:
 * that sample is not taken, its events are counted. */
static void switch_out(struct bmprof_pmu *p)
{
	uint64_t m = p->group_mask[p->cur], pending;

	p->ops->disable(m);
	for (unsigned i = 0; i < p->nevents; i++) {
		struct bmprof_pmu_event *e = &p->ev[i];
		if (!in_group(e, p->cur))
			continue;
		uint64_t before = e->last, v = fold(p, e);
		if (pmu_samples(e) && v < before) {
			e->next = draw(p, e);
			e->last = rearm_value(v, e->next, pmu_width_mask(p, e->counter));
		}
	}
	pending = p->ops->overflow() & m;
	if (pending)
		p->ops->ack(pending);
	for (unsigned c = 0; c < 64; c++)
		if (m >> c & 1)
			p->ops->clear(c);
}

void bmprof_pmu_start(struct bmprof_pmu *p, uint64_t now)
{
	if (!p->ops || p->running || !p->ngroups)
		return;
	p->busy = 1;
	pmu_barrier();
	p->last_tick = now;
	switch_in(p);
	p->running = 1;
	pmu_barrier();
	p->busy = 0;
}

void bmprof_pmu_stop(struct bmprof_pmu *p, uint64_t now)
{
	if (!p->ops || !p->running)
		return;
	p->busy = 1;
	pmu_barrier();
	account(p, now);
	switch_out(p);
	p->running = 0;
	pmu_barrier();
	p->busy = 0;
}

void bmprof_pmu_tick(struct bmprof_pmu *p, uint64_t now)
{
	if (!p->ops || !p->running)
		return;
	if (p->ngroups == 1) {
		/* the PMI folds sampling counters; counting ones are read here before they
		 * can wrap twice */
		account(p, now);
		for (unsigned i = 0; i < p->nevents; i++)
			if (in_group(&p->ev[i], p->cur) && !pmu_samples(&p->ev[i]))
				fold(p, &p->ev[i]);
		return;
	}
	p->busy = 1;
	pmu_barrier();
	account(p, now);
	switch_out(p);
	p->cur = (uint8_t)((p->cur + 1) % p->ngroups);
	switch_in(p);
	pmu_barrier();
	p->busy = 0;
}

uint64_t bmprof_pmu_overflow(struct bmprof_pmu *p, uint64_t pc)
{
	if (!p->ops)
		return 0;
	uint64_t m = p->ops->overflow();
	if (!m)
		return 0;
	if (p->running && !p->busy) {
		for (unsigned i = 0; i < p->nevents; i++) {
			struct bmprof_pmu_event *e = &p->ev[i];
			if (!in_group(e, p->cur) || !pmu_samples(e) || !(m >> e->counter & 1))
				continue;
			uint64_t v = fold(p, e);
			if (p->cpu)
				bmprof_record(p->cpu, pc, e->id);
			e->samples++;
			e->next = draw(p, e);
			e->last = rearm_value(v, e->next, pmu_width_mask(p, e->counter));
			p->ops->write(e->counter, e->last);
		}
	}
	p->ops->ack(m);
	return m;
}
