/* SPDX-License-Identifier: BSD-2-Clause */
/* A memory-bound workload for bmprof topdown: a pointer chase through 64 MiB in a random
 * cycle, one dependent load per step, so nearly every load misses every cache and the
 * core waits on memory (Backend Bound / Memory Bound on a real PMU). */
#include <bmrt.h>

#define SLOTS (8u << 20)         /* 8M pointers: 64 MiB */
#define STEPS 4000000u

static uint64_t next[SLOTS];

int main(void)
{
	uint64_t x = 0x9e3779b97f4a7c15ull, p = 0;

	/* Sattolo's shuffle: one cycle through every slot */
	for (uint64_t i = 0; i < SLOTS; i++)
		next[i] = i;
	for (uint64_t i = SLOTS - 1; i > 0; i--) {
		uint64_t j, t;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		j = x % i;
		t = next[i];
		next[i] = next[j];
		next[j] = t;
	}
	for (uint32_t s = 0; s < STEPS; s++)
		p = next[p];
	bm_printf("topdown_mem: %u dependent loads over 64 MiB, ended at %llu\n", STEPS,
		  (unsigned long long)p);
	return 0;
}
