/* SPDX-License-Identifier: BSD-2-Clause */
/* The profile model's raw samples (profile.h), as profile.c applies RAW_SAMPLES frames. */
#ifndef BMPROF_PROFILE_RAW_H
#define BMPROF_PROFILE_RAW_H

#include <stdint.h>
#include "profile.h"

/* A RAW_SAMPLES payload: 0, or -1 if malformed (nothing of it is kept then). Records past
 * max_entries are counted in raw_over_cap, not kept. */
int profile_apply_raw(struct profile *p, const uint8_t *b, uint16_t len);

#endif
