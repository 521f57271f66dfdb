/* SPDX-License-Identifier: BSD-2-Clause */
/* Known shares: work_a, work_b and work_c run the same loop body for 50, 30 and 20 units
 * of iterations, so they should get 50%, 30% and 20% of the samples (about 400M
 * instructions in all). The asm barrier keeps gcc from folding or vectorizing the loops. */
#include <bmrt.h>

#ifndef UNIT
#define UNIT 1000000ull  /* iterations per share point: 100 points, 4 instructions each */
#endif

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

int main(void)
{
	uint64_t t0 = bm_cycles(), x;

	x = work_a(1);
	x = work_b(x);
	x = work_c(x);
	bm_printf("shares: a:b:c = 50:30:20, result %llx, %llu ms\n", (unsigned long long)x,
		  (unsigned long long)((bm_cycles() - t0) / (bm_cycles_hz() / 1000)));
	return 0;
}
