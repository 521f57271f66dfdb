/* SPDX-License-Identifier: BSD-2-Clause */
/* The hot function of the multi-file image. */
#include <bmrt.h>

__attribute__((noinline)) uint64_t hot_in_b(uint64_t n)
{
	uint64_t x = 7;

	for (uint64_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}
