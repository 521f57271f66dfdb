/* SPDX-License-Identifier: BSD-2-Clause */
/* A core-bound workload for bmprof topdown: a long chain of dependent integer divisions on
 * a few registers, no memory traffic, so the divider and the dependency chain bound the
 * run (Backend Bound / Core Bound on a real PMU). */
#include <bmrt.h>

#define STEPS 20000000u

int main(void)
{
	uint64_t x = 0xfedcba9876543210ull, d = 3;

	for (uint32_t i = 0; i < STEPS; i++) {
		x = x / d + 0x123456789abcdefull;
		d = (x & 7) + 3;
		__asm__ volatile("" : "+r"(x), "+r"(d));
	}
	bm_printf("topdown_core: %u dependent divisions, result %llx\n", STEPS,
		  (unsigned long long)x);
	return 0;
}
