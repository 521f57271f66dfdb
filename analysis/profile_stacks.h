/* SPDX-License-Identifier: BSD-2-Clause */
/* The profile model's call stacks (profile.h), as profile.c applies their frames. */
#ifndef BMPROF_PROFILE_STACKS_H
#define BMPROF_PROFILE_STACKS_H

#include <stdint.h>
#include "profile.h"

#define BMPROF_STACK_LOST_ID 0xFFFFu   /* the target's BMPROF_STACK_LOST */

/* A STACKS payload: 0, or -1 if malformed (chains before the bad one stay defined). */
int profile_apply_stacks(struct profile *p, const uint8_t *b, uint16_t len);
/* The index of CPU cpu's chain id, PROFILE_STACK_EMPTY for 0, PROFILE_STACK_NONE when
 * it is not known. */
uint32_t profile_stack_index(struct profile *p, uint16_t cpu, uint64_t id);
/* One STACK_SAMPLES entry, taken in phase (its flat sample is added apart). 0, or -1
 * out of memory. */
int profile_add_stack_sample(struct profile *p, uint16_t cpu, uint16_t event, uint64_t pc,
			     uint64_t count, uint64_t id, uint16_t phase);
void profile_stacks_free(struct profile *p);

#endif
