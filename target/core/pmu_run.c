/* SPDX-License-Identifier: BSD-2-Clause */
/* Counting and sampling: start, stop, the timer tick (fold, rotate) and the PMI.
 * What may run concurrently and why it is safe: bmprof_pmu.h. */
#include "pmu_internal.h"

static uint64_t draw(struct bmprof_pmu *p, const struct bmprof_pmu_event *e)
{
	return p->cpu ? bmprof_random_period(p->cpu, e->period, e->jitter) : e->period;
}

/* The counter value that makes the next overflow come `next` events after the last one,
 * keeping the v events counted since (unless they already exceed it). */
static uint64_t rearm_value(uint64_t v, uint64_t next, uint64_t mask)
{
	return (v < next ? v - next : 0 - next) & mask;
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

static int pinned(const struct bmprof_pmu_event *e)
{
	return pmu_placed(e) && e->group == BMPROF_PMU_NONE;
}

/* The rotating group on the PMU now, and with all, the pinned events too. */
static int selected(const struct bmprof_pmu *p, const struct bmprof_pmu_event *e, int all)
{
	return pmu_placed(e) && (e->group == p->cur || (all && e->group == BMPROF_PMU_NONE));
}

static uint64_t selected_mask(const struct bmprof_pmu *p, int all)
{
	return (p->ngroups ? p->group_mask[p->cur] : 0) | (all ? p->pinned_mask : 0);
}

static void account(struct bmprof_pmu *p, uint64_t now)
{
	uint64_t dt = now - p->last_tick;

	for (unsigned i = 0; i < p->nevents; i++) {
		struct bmprof_pmu_event *e = &p->ev[i];
		if (!pmu_placed(e))
			continue;
		e->enabled += dt;
		if (selected(p, e, 1))
			e->running += dt;
	}
	p->last_tick = now;
}

/* Program and load the counters; the caller enables them. */
static void load(struct bmprof_pmu *p, int all)
{
	for (unsigned i = 0; i < p->nevents; i++) {
		struct bmprof_pmu_event *e = &p->ev[i];
		if (!selected(p, e, all))
			continue;
		if (e->flags & BMPROF_PMUEV_PEBS) {
			p->ops->program(e->counter, e->encoding, BMPROF_PMU_IRQ_PEBS);
			p->ops->pebs_reload(e->counter,
					    (0 - e->period) & pmu_width_mask(p, e->counter));
		} else {
			p->ops->program(e->counter, e->encoding, pmu_samples(e));
		}
		p->ops->write(e->counter, e->last);
	}
}

/* Stop the counters and fold their counts. A sampling counter that overflowed since its
 * last PMI (the PMI came too late, or found the counter busy) is re-armed for its next
 * period: that sample is not taken, its events are counted. */
static void unload(struct bmprof_pmu *p, int all)
{
	uint64_t m = selected_mask(p, all), pending;

	p->ops->disable(m);
	for (unsigned i = 0; i < p->nevents; i++) {
		struct bmprof_pmu_event *e = &p->ev[i];
		if (!selected(p, e, all))
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
	uint64_t stale;

	if (!p->ops || p->running || !p->ngroups)
		return;
	p->busy = BMPROF_PMU_BUSY_ALL;
	pmu_barrier();
	p->last_tick = now;
	stale = p->ops->overflow() & selected_mask(p, 1);   /* left by earlier users */
	if (stale)
		p->ops->ack(stale);
	load(p, 1);
	p->running = 1;
	pmu_barrier();
	p->busy = BMPROF_PMU_IDLE;
	pmu_barrier();
	p->ops->enable(selected_mask(p, 1));
}

void bmprof_pmu_stop(struct bmprof_pmu *p, uint64_t now)
{
	if (!p->ops || !p->running)
		return;
	p->busy = BMPROF_PMU_BUSY_ALL;
	pmu_barrier();
	account(p, now);
	unload(p, 1);
	p->running = 0;
	pmu_barrier();
	p->busy = BMPROF_PMU_IDLE;
}

void bmprof_pmu_tick(struct bmprof_pmu *p, uint64_t now)
{
	if (!p->ops || !p->running)
		return;
	account(p, now);
	/* the PMI folds sampling counters; counting ones are read here, before they can wrap
	 * twice */
	for (unsigned i = 0; i < p->nevents; i++)
		if (pinned(&p->ev[i]) && !pmu_samples(&p->ev[i]))
			fold(p, &p->ev[i]);
	if (p->ngroups < 2)
		return;
	p->busy = BMPROF_PMU_BUSY_GROUP;
	pmu_barrier();
	unload(p, 0);
	p->cur = (uint8_t)((p->cur + 1) % p->ngroups);
	load(p, 0);
	pmu_barrier();
	p->busy = BMPROF_PMU_IDLE;
	pmu_barrier();
	p->ops->enable(selected_mask(p, 0));
}

/* Whether the PMI may handle e now. */
static int pmi_owns(const struct bmprof_pmu *p, const struct bmprof_pmu_event *e, uint8_t busy)
{
	if (!pmu_samples(e) || busy == BMPROF_PMU_BUSY_ALL)
		return 0;
	return pinned(e) || (busy == BMPROF_PMU_IDLE && selected(p, e, 0));
}

/* The status is acknowledged before the counters are re-armed, as Linux does: QEMU's
 * PMUv3 was seen to lose later overflows of a counter re-armed before its bit was
 * cleared. The events a counter counts between its read and its re-arm are lost (a few
 * dozen instructions per sample), so the write comes before the sample is recorded. */
uint64_t bmprof_pmu_overflow(struct bmprof_pmu *p, uint64_t pc)
{
	return bmprof_pmu_overflow_stack(p, pc, 0);
}

uint64_t bmprof_pmu_overflow_stack(struct bmprof_pmu *p, uint64_t pc, uint16_t stack)
{
	return bmprof_pmu_overflow_raw(p, pc, stack, 0);
}

/* The PEBS event sampling on GP counter ctr (the first PEBS event if none does). */
static struct bmprof_pmu_event *pebs_event(struct bmprof_pmu *p, unsigned ctr)
{
	struct bmprof_pmu_event *first = 0;

	for (unsigned i = 0; i < p->nevents; i++) {
		struct bmprof_pmu_event *e = &p->ev[i];
		if (!(e->flags & BMPROF_PMUEV_PEBS) || !pmu_placed(e))
			continue;
		if (e->counter == ctr)
			return e;
		if (!first)
			first = e;
	}
	return first;
}

/* Each PEBS record is one sample of its event, taken at the record's pc with its
 * registers and data address. The counter overflowed once per record and the hardware
 * reloaded it with minus the period: the events from the last read to the wrap are
 * counted, and the reload is the new last read (when the PMI owns the event). */
static void pebs_samples(struct bmprof_pmu *p, uint16_t stack, uint8_t busy)
{
	struct bmprof_raw rec[BMPROF_PMU_PEBS_BATCH];
	unsigned n;

	do {
		n = p->ops->pebs_drain(rec, BMPROF_PMU_PEBS_BATCH);
		for (unsigned k = 0; k < n; k++) {
			struct bmprof_pmu_event *e = pebs_event(p, rec[k].event);
			if (!e || !p->running)
				continue;
			if (pmi_owns(p, e, busy)) {
				uint64_t mask = pmu_width_mask(p, e->counter);
				e->count += (0 - e->last) & mask;
				e->last = (0 - e->period) & mask;
			}
			e->samples++;
			if (!p->cpu)
				continue;
			rec[k].event = e->id;
			bmprof_record_stack(p->cpu, rec[k].pc, e->id, stack);
			bmprof_record_raw(p->cpu, &rec[k]);
		}
	} while (n == BMPROF_PMU_PEBS_BATCH);
}

uint64_t bmprof_pmu_overflow_raw(struct bmprof_pmu *p, uint64_t pc, uint16_t stack,
				 const struct bmprof_raw *raw)
{
	if (!p->ops)
		return 0;
	uint64_t m = p->ops->overflow();
	if (!m)
		return 0;
	uint8_t busy = p->busy;
	p->ops->ack(m);
	if (m >> BMPROF_PMU_PEBS_BIT & 1 && p->ops->pebs_drain)
		pebs_samples(p, stack, busy);
	for (unsigned i = 0; p->running && i < p->nevents; i++) {
		struct bmprof_pmu_event *e = &p->ev[i];
		if (!(m >> (e->counter & 63) & 1) || !pmi_owns(p, e, busy) ||
		    (e->flags & BMPROF_PMUEV_PEBS))
			continue;
		uint64_t v = fold(p, e);
		e->next = draw(p, e);
		e->last = rearm_value(v, e->next, pmu_width_mask(p, e->counter));
		p->ops->write(e->counter, e->last);
		e->samples++;
		if (!p->cpu)
			continue;
		bmprof_record_stack(p->cpu, pc, e->id, stack);
		if (raw) {
			struct bmprof_raw s = *raw;
			s.event = e->id;
			bmprof_record_raw(p->cpu, &s);
		}
	}
	return m;
}
