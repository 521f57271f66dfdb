/* SPDX-License-Identifier: BSD-2-Clause */
/* Data-space runs (bmprof qemu --data-space, bmprof record --data-space): which source the
 * raw samples came from, for the user and the profile's meta. */
#ifndef BMPROF_DATA_SPACE_H
#define BMPROF_DATA_SPACE_H

#include <stddef.h>
#include "profile.h"

/* The event a data-space run asks for when none is given: loads that missed the level 1
 * data cache (analysis/events/events.tsv: Intel MEM_LOAD_RETIRED.L1_MISS, which the
 * target samples by PEBS where the CPU has it; AMD PMCx060, Arm L1D_CACHE_REFILL). */
#define DATA_SPACE_DEFAULT_EVENT "l1d-miss-loads"

/* The source the run's raw samples came from into name (an event's name, or "timer") and
 * one line saying so and why into line ("raw samples from the timer: l1d-misses is not
 * counted (this CPU does not implement the event); the host backtracks from each sampled
 * pc to the memory instruction"). */
void data_space_source(const struct profile *p, char *name, size_t nn, char *line, size_t ln);
/* bmprof record --data-space: a warning on stderr when the stream has no raw samples (the
 * image decides: raw=1 in its configuration). */
void data_space_expect_raw(const struct profile *p);

#endif
