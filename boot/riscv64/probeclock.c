/* SPDX-License-Identifier: BSD-2-Clause */
/* The gap probe's clock (rt_common.h): mtime, the sampler's timebase. */
#include "bmrt.h"
#include "rt.h"

const uint64_t bmrt_gap_min_ticks = 2;

uint64_t bmrt_ticks(void) { return bm_cycles(); }

void bmrt_irq_stats(uint64_t *irqs, uint64_t *last_ticks)
{
	bmprof_rv_irq_stats(0, irqs, last_ticks);
}
