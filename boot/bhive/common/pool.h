/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof bhive's harness: the pages the block's address space is made of that are not the
 * arch's own: the pool its translation tables come from (BHIVE_TABLES of them, harness.h),
 * the scratch page, and the frames every page the block touches maps to (frames.h). */
#ifndef BHIVE_POOL_H
#define BHIVE_POOL_H

#include <stdint.h>
#include "frames.h"

extern uint64_t bhive_scratch[512];

void pool_reset(void);                  /* every table free again */
uint64_t *pool_table(void);             /* a zeroed table, or 0 when none is left */

#endif
