/* SPDX-License-Identifier: BSD-2-Clause */
/* The calling CPU's sampler counters, read from its core state (bmprof.h), for test
 * programs that work until enough has happened on their CPU rather than for a set time:
 * how fast the host runs them must not decide what a test sees. */
#ifndef OWN_COUNTERS_H
#define OWN_COUNTERS_H

#include <stdint.h>
#if defined(__aarch64__)
#include "bmprof_aarch64.h"
static inline const struct bmprof_cpu *own_core(void) { return bmprof_a64_cpu(); }
#elif defined(__riscv)
#include "bmprof_riscv64.h"
static inline const struct bmprof_cpu *own_core(void) { return bmprof_rv_cpu(); }
#else
#include "bmprof_x86_64.h"
static inline const struct bmprof_cpu *own_core(void) { return bmprof_x86_cpu(); }
#endif

/* Samples this CPU has taken so far (0 on a CPU that does not sample). */
static inline uint64_t own_taken(void)
{
	const struct bmprof_cpu *c = own_core();
	return c ? __atomic_load_n(&c->taken, __ATOMIC_RELAXED) : 0;
}

/* SAMPLES frames this CPU has sent so far. */
static inline uint32_t own_frames(void)
{
	const struct bmprof_cpu *c = own_core();
	return c ? __atomic_load_n(&c->frames, __ATOMIC_RELAXED) : 0;
}

#endif
