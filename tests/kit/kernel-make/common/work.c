/* SPDX-License-Identifier: BSD-2-Clause */
/* Known shares: the same loop body for 50, 30 and 20 units of iterations, so samples split
 * 50:30:20 (under -icount, where time follows instructions). */
#include "kernel.h"

#define UNIT 250000ull

#define BODY(n)                                                       \
	uint64_t x = seed;                                            \
	for (uint64_t i = 0; i < (n); i++) {                          \
		x = x * 6364136223846793005ull + 1442695040888963407ull; \
		__asm__ volatile("" : "+r"(x));                        \
	}                                                             \
	return x

__attribute__((noinline)) uint64_t work_a(uint64_t seed) { BODY(50 * UNIT); }
__attribute__((noinline)) uint64_t work_b(uint64_t seed) { BODY(30 * UNIT); }
__attribute__((noinline)) uint64_t work_c(uint64_t seed) { BODY(20 * UNIT); }
