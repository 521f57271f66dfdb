/* SPDX-License-Identifier: BSD-2-Clause */
/* The gap probe's clock (rt_common.h): the virtual count, at the rate of the timer the
 * sampler times its handler with. */
#include "rt.h"

const uint64_t bmrt_gap_min_ticks = 8;

uint64_t bmrt_ticks(void)
{
	uint64_t v;

	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
}

void bmrt_irq_stats(uint64_t *irqs, uint64_t *last_ticks)
{
	bmprof_a64_irq_stats(0, irqs, last_ticks);
}
