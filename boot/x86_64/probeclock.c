/* SPDX-License-Identifier: BSD-2-Clause */
/* The gap probe's clock (rt_common.h): the TSC the sampler times its handler with. */
#include "bmprof_x86_64.h"
#include "rt.h"

const uint64_t bmrt_gap_min_ticks = 100;

uint64_t bmrt_ticks(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

void bmrt_irq_stats(uint64_t *irqs, uint64_t *last_ticks)
{
	bmprof_x86_irq_stats(0, irqs, last_ticks);
}
