/* SPDX-License-Identifier: BSD-2-Clause */
/* The profile model's sample store, for profile.c (profile_store.c has the how). */
#ifndef BMPROF_PROFILE_STORE_H
#define BMPROF_PROFILE_STORE_H

#include <stddef.h>
#include <stdint.h>
#include "profile.h"

/* Before appending up to extra entries: merges a full pending tail (which may find the
 * profile over its cap: p->over_cap, and nothing more may be appended) and grows the
 * array. 0, or -1 when out of memory. */
int profile_store_room(struct profile *p, size_t extra);
/* Append one entry; room must have been made and the profile not be over its cap. */
void profile_store_append(struct profile *p, uint16_t cpu, uint16_t event, uint64_t pc,
			  uint64_t count);

#endif
