/* SPDX-License-Identifier: BSD-2-Clause */
/* Known phases: before the first bm_phase work_s runs 10 units; phase "boot" runs
 * work_boot 20; "test_a" work_a 40 (10 a call); "test_b" work_b 20 and work_a 10, through a caller of
 * its own (run_b). Under -icount the samples split 10:20:40:30 by phase, and work_a's 50
 * as 40 in test_a and 10 in test_b. */
#include <bmrt.h>

#define UNIT 400000ull  /* iterations per share point: 100 points, 4 instructions each */

#define BODY(n)                                                       \
	uint64_t x = seed;                                            \
	for (uint64_t i = 0; i < (n); i++) {                          \
		x = x * 6364136223846793005ull + 1442695040888963407ull; \
		__asm__ volatile("" : "+r"(x));                        \
	}                                                             \
	return x

__attribute__((noinline)) uint64_t work_s(uint64_t seed) { BODY(10 * UNIT); }
__attribute__((noinline)) uint64_t work_boot(uint64_t seed) { BODY(20 * UNIT); }
__attribute__((noinline)) uint64_t work_a(uint64_t seed) { BODY(10 * UNIT); }
__attribute__((noinline)) uint64_t work_b(uint64_t seed) { BODY(20 * UNIT); }

__attribute__((noinline)) uint64_t run_b(uint64_t seed)
{
	uint64_t x = work_a(work_b(seed));

	__asm__ volatile("" : "+r"(x));   /* not a tail call: run_b stays in work_a's chain */
	return x;
}

int main(void)
{
	uint64_t x = work_s(1);

	if (bm_phase("boot") != 1)
		return 2;
	x = work_boot(x);
	bm_phase("test_a");
	for (int i = 0; i < 4; i++)
		x = work_a(x);
	bm_phase("test_b");
	x = run_b(x);
	bm_printf("phases: result %llx\n", (unsigned long long)x);
	return 0;
}
