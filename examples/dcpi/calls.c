/* SPDX-License-Identifier: BSD-2-Clause */
/* Calls in loops: each iteration calls small noinline functions (one of them calling
 * another), so the profile spreads over several short procedures with their prologues,
 * returns and call sites. The same inputs every repetition: counts are a + b * reps. */
#include <stdint.h>
#include "bmrt.h"

#define ITERS 10000

static volatile uint64_t sink;

__attribute__((noinline)) static uint64_t mix(uint64_t a, uint64_t b)
{
	a ^= b + 0x9e3779b97f4a7c15ull + (a << 6) + (a >> 2);
	return a;
}

__attribute__((noinline)) static uint64_t clamp(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

__attribute__((noinline)) static uint64_t step(uint64_t s, uint64_t i)
{
	return mix(s, i) + clamp(s & 0xffff, 100, 60000);
}

__attribute__((noinline)) static uint64_t calls(uint64_t n)
{
	uint64_t s = 1;

	for (uint64_t i = 0; i < n; i++) {
		s = step(s, i);
		s += mix(i, s >> 3);
		/* an opaque step: gcc may not treat calls() as a pure function and call it
		 * once for every repetition */
		__asm__ volatile("" : "+r"(s));
	}
	return s;
}

int main(void)
{
	uint64_t reps = bm_param("reps", 200), x = 0;

	for (uint64_t r = 0; r < reps; r++)
		x += calls(ITERS);
	sink = x;
	bm_puts("calls: done");
	return 0;
}
