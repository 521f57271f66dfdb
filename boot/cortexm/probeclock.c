/* SPDX-License-Identifier: BSD-2-Clause */
/* The gap probe's clock (rt_common.h) and bm_cycles: the sampler's timebase, SysTick
 * extended to 64 bits, at the processor clock. */
#include "bmrt.h"
#include "rt.h"

const uint64_t bmrt_gap_min_ticks = 2;

uint64_t bmrt_ticks(void) { return bmprof_cm_now(); }
uint64_t bm_cycles(void) { return bmprof_cm_now(); }
uint64_t bm_cycles_hz(void) { return BMRT_CM_SYSCLK; }

void bmrt_irq_stats(uint64_t *irqs, uint64_t *last_ticks)
{
	bmprof_cm_irq_stats(irqs, last_ticks);
}
