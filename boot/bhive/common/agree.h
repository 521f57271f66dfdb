/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof bhive's harness: the timing clean timings agree on. */
#ifndef BHIVE_AGREE_H
#define BHIVE_AGREE_H

#include <stdint.h>

/* The timing at least BHIVE_KEEP of the n clean timings in v agree on (the median of the
 * largest group that agrees): 1 with it in *t, and *kept how many agree. Sorts v. */
int agree(uint64_t *v, unsigned n, uint64_t *t, unsigned *kept);

#endif
