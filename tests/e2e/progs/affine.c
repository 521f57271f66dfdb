/* SPDX-License-Identifier: BSD-2-Clause */
/* Work that is affine in the parameter reps and work that is not (bmprof validate
 * --reps-param, tests/e2e/test_validate.sh): lin runs reps x 50,000 iterations, quad
 * reps x reps x 1,000. Counted at reps 1, 2, 4 and 8, quad's counts are off the line
 * through the first two, so validate leaves it out and names it. */
#include <bmrt.h>
#include <stdint.h>

static volatile uint64_t sink;

__attribute__((noinline)) static uint64_t loop(uint64_t n, uint64_t x)
{
	for (uint64_t i = 0; i < n; i++) {
		x = x * 2862933555777941757ull + 3037000493ull;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

__attribute__((noinline)) static uint64_t lin(uint64_t reps)
{
	return loop(reps * 50000, 1);
}

__attribute__((noinline)) static uint64_t quad(uint64_t reps)
{
	uint64_t x = 5;

	for (uint64_t i = 0; i < reps * reps * 1000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

int main(void)
{
	uint64_t reps = bm_param("reps", 10);

	sink = lin(reps) + quad(reps);
	return 0;
}
