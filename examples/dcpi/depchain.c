/* SPDX-License-Identifier: BSD-2-Clause */
/* A loop whose body is one long dependency chain of multiplies and adds: every
 * instruction waits for the one before it (imul's latency dominates natively). Counts are
 * a + b * reps. */
#include <stdint.h>
#include "bmrt.h"

#define ITERS 20000

static volatile uint64_t sink;

__attribute__((noinline)) static uint64_t depchain(uint64_t n, uint64_t x)
{
	for (uint64_t i = 0; i < n; i++) {
		x = x * 0x5851f42d4c957f2dull + i;
		x = x * 0x14057b7ef767814full + 3;
		x ^= x >> 29;
		x = x * 0x9e3779b97f4a7c15ull + 7;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

int main(void)
{
	uint64_t reps = bm_param("reps", 200), x = 0;

	for (uint64_t r = 0; r < reps; r++)
		x += depchain(ITERS, r & 0);
	sink = x;
	bm_puts("depchain: done");
	return 0;
}
