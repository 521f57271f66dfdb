/* What the samplers of every architecture share (target/arch/<arch>/sampler.c). Header
 * only: building the library takes no sources beyond target/arch/<arch>/. */
#ifndef BMPROF_SAMPLER_COMMON_H
#define BMPROF_SAMPLER_COMMON_H

#include "bmprof.h"
#include "wire.h"

/* Static per-CPU memory, sized at compile time: the table rounded up to a power of two
 * entries, and the two overflow buffers. */
#define BMPROF_SMEAR1(v) ((v) | (v) >> 1)
#define BMPROF_SMEAR2(v) (BMPROF_SMEAR1(v) | BMPROF_SMEAR1(v) >> 2)
#define BMPROF_SMEAR4(v) (BMPROF_SMEAR2(v) | BMPROF_SMEAR2(v) >> 4)
#define BMPROF_SMEAR8(v) (BMPROF_SMEAR4(v) | BMPROF_SMEAR4(v) >> 8)
#define BMPROF_SMEAR16(v) (BMPROF_SMEAR8(v) | BMPROF_SMEAR8(v) >> 16)
#define BMPROF_POW2_UP(x) (BMPROF_SMEAR16((unsigned long)(x) - 1) + 1)
#define BMPROF_STATIC_MEM(table_entries, ovf_entries) \
	((BMPROF_POW2_UP(table_entries) + 2ul * (ovf_entries)) * sizeof(struct bmprof_entry))

/* The timer's EVENT frame, for HELLO's announcement when the timer is a sampling source:
 * periods uniform in [period - jitter, period] timebase ticks. */
static inline int bmprof_emit_timer_event(const struct bmprof_out *out, uint16_t id,
					  uint64_t period, uint64_t jitter)
{
	struct bmprof_event_desc e = {
		.id = id,
		.source = BMPROF_SOURCE_TIMER,
		.flags = jitter ? BMPROF_EVENT_RANDOMIZED : 0,
		.period = period,
		.jitter = jitter,
		.name = "timer",
		.counter_kind = BMPROF_CTR_TIMER,
	};

	return bmprof_emit_event(out, &e);
}

#endif
