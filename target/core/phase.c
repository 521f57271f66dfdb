/* SPDX-License-Identifier: BSD-2-Clause */
/* The current phase (bmprof.h, "phases"): one 16-bit store the handlers of every CPU read
 * as they record. */
#include "bmprof.h"

volatile uint16_t bmprof_phase_now;

void bmprof_set_phase(uint16_t id)
{
	__atomic_store_n(&bmprof_phase_now, (uint16_t)(id & BMPROF_PHASE_MAX), __ATOMIC_RELEASE);
}
