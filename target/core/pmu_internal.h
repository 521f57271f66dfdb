/* SPDX-License-Identifier: BSD-2-Clause */
/* Internals shared by target/core/pmu_*.c. Freestanding. */
#ifndef BMPROF_PMU_INTERNAL_H
#define BMPROF_PMU_INTERNAL_H

#include "bmprof_pmu.h"
#include "wire.h"

static inline int pmu_is_fixed(unsigned ctr) { return ctr >= BMPROF_PMU_FIXED_BASE; }

/* All ones in a counter's width. */
static inline uint64_t pmu_width_mask(const struct bmprof_pmu *p, unsigned ctr)
{
	unsigned w = pmu_is_fixed(ctr) ? p->caps.fixed_width : p->caps.gp_width;
	return w >= 64 || w == 0 ? ~0ull : (1ull << w) - 1;
}

/* Placed on a counter: counted, in COUNTS, given enabled/running time. */
static inline int pmu_placed(const struct bmprof_pmu_event *e)
{
	return e->counter != BMPROF_PMU_NONE && e->status != BMPROF_EVST_UNAVAILABLE;
}

static inline int pmu_samples(const struct bmprof_pmu_event *e)
{
	return (e->flags & BMPROF_PMUEV_SAMPLES) != 0;
}

/* Orders the PMI against tick/start/stop on the same CPU: a compiler barrier only. */
static inline void pmu_barrier(void) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

/* The GP encoding of a word for a vendor; 0 if the vendor has none. */
uint64_t bmprof_pmu_word_encoding(uint8_t word, uint8_t vendor);

#endif
