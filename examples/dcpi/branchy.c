/* SPDX-License-Identifier: BSD-2-Clause */
/* Data-dependent branches: each repetition fills a table from a reseeded generator, then
 * walks it through if/else chains and a dense switch that gcc compiles to a jump table.
 * The same seed every repetition makes every count a + b * reps. */
#include <stdint.h>
#include "bmrt.h"

#define N 4096

static uint32_t data[N];
static volatile uint64_t sink;

__attribute__((noinline)) static void fill(uint32_t seed)
{
	uint32_t x = seed;

	for (int i = 0; i < N; i++) {
		x = x * 1664525u + 1013904223u;
		data[i] = x >> 8;
	}
}

__attribute__((noinline)) static uint64_t branchy(void)
{
	uint64_t s = 0;

	for (int i = 0; i < N; i++) {
		uint32_t v = data[i];
		if (v & 1)
			s += v;
		else
			s ^= v << 1;
		if ((v & 6) == 6)
			s = s * 3 + 1;
		switch ((v >> 4) & 7) {
		case 0: s += 17; break;
		case 1: s ^= 0x55; break;
		case 2: s = s * 9; break;
		case 3: s -= v; break;
		case 4: s = (s << 2) | 1; break;
		case 5: s += v >> 3; break;
		case 6: s ^= s >> 7; break;
		default: s += 1; break;
		}
		__asm__ volatile("" : "+r"(s));
	}
	return s;
}

int main(void)
{
	uint64_t reps = bm_param("reps", 200), x = 0;

	for (uint64_t r = 0; r < reps; r++) {
		fill(42);
		x += branchy();
	}
	sink = x;
	bm_puts("branchy: done");
	return 0;
}
