/* SPDX-License-Identifier: BSD-2-Clause */
/* What the workload ran while the timer sampled (bmprof.h, struct bmprof_timing). */
#include "core.h"

void bmprof_timing_start(struct bmprof_timing *t, uint64_t now)
{
	t->started = now;
	t->running = 1;
}

void bmprof_timing_stop(struct bmprof_timing *t, uint64_t now)
{
	if (t->running)
		t->enabled += now - t->started;
	t->running = 0;
}

uint64_t bmprof_timing_from(uint64_t due, uint64_t now, uint64_t period)
{
	return (int64_t)(now - due) >= 0 && now - due < period ? due : now;
}

void bmprof_timing_handled(struct bmprof_timing *t, uint64_t ticks)
{
	t->handler += ticks;
	t->last_handler = ticks;
	__asm__ volatile("" : : : "memory");
	if (t->running)   /* after last_handler: a reader pairs them by irqs */
		t->irqs = t->irqs + 1;
}

void bmprof_timing_reset(struct bmprof_timing *t)
{
	t->enabled = t->handler = 0;
	t->irqs = t->last_handler = 0;
}

#ifdef __SIZEOF_INT128__
uint64_t bmprof_timing_sampled(const struct bmprof_timing *t, uint64_t stolen)
{
	__int128 v = (__int128)t->enabled - t->handler -
		     (__int128)t->untimed * t->irqs / BMPROF_UNTIMED_ONE - stolen;

	return v > 0 ? (uint64_t)v : 0;
}
#else
/* 32-bit targets: the untimed product split so it stays within 64 bits (untimed % ONE
 * times irqs, with irqs far below 2^40 in any run). */
uint64_t bmprof_timing_sampled(const struct bmprof_timing *t, uint64_t stolen)
{
	int64_t u = t->untimed, irqs = (int64_t)t->irqs;
	int64_t untimed = u / BMPROF_UNTIMED_ONE * irqs + u % BMPROF_UNTIMED_ONE * irqs /
			  BMPROF_UNTIMED_ONE;
	int64_t v = (int64_t)t->enabled - (int64_t)t->handler - untimed - (int64_t)stolen;

	return v > 0 ? (uint64_t)v : 0;
}
#endif
