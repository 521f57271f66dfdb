/* SPDX-License-Identifier: BSD-2-Clause */
/* Pointer chasing over a random cyclic permutation (Sattolo's shuffle) of size entries
 * (param size, default 1M entries of 4 bytes: 4 MiB, more than L1 and L2 when run
 * natively): each load's address is the previous load's value. The permutation is built
 * once; each repetition follows STEPS links from the same start, so counts are
 * a + b * reps. */
#include <stdint.h>
#include "bmrt.h"

#define STEPS 20000
#define MAX_SIZE (4u << 20)

static uint32_t next[MAX_SIZE];
static volatile uint64_t sink;

__attribute__((noinline)) static void build(uint32_t n)
{
	uint64_t x = 88172645463325252ull;

	for (uint32_t i = 0; i < n; i++)
		next[i] = i;
	for (uint32_t i = n - 1; i > 0; i--) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		uint32_t j = (uint32_t)(x % i);
		uint32_t t = next[i];
		next[i] = next[j];
		next[j] = t;
	}
}

__attribute__((noinline)) static uint32_t chase(uint32_t start, uint32_t steps)
{
	uint32_t p = start;

	for (uint32_t i = 0; i < steps; i++) {
		p = next[p];
		/* opaque: gcc may not treat chase() as pure and call it once for all reps */
		__asm__ volatile("" : "+r"(p));
	}
	return p;
}

int main(void)
{
	uint64_t reps = bm_param("reps", 200), size = bm_param("size", 1u << 20), x = 0;

	if (size < 2 || size > MAX_SIZE) {
		bm_printf("chase: size must be 2 to %u\n", MAX_SIZE);
		return 1;
	}
	build((uint32_t)size);
	for (uint64_t r = 0; r < reps; r++)
		x += chase(0, STEPS);
	sink = x;
	bm_puts("chase: done");
	return 0;
}
