/* SPDX-License-Identifier: BSD-2-Clause */
/* Straight-line loop body: a dozen mixed ALU operations per iteration (add, xor, shift,
 * rotate, lea-style multiply-by-constant, and) with no branch but the loop's own. Every
 * repetition does the same work, so each instruction's count is a + b * reps. */
#include <stdint.h>
#include "bmrt.h"

#define ITERS 20000

static volatile uint64_t sink;

__attribute__((noinline)) static uint64_t straight(uint64_t n, uint64_t seed)
{
	uint64_t a = seed, b = seed ^ 0x9e3779b97f4a7c15ull, c = 7, d = 11;

	for (uint64_t i = 0; i < n; i++) {
		a += b ^ i;
		b = (b << 7 | b >> 57) + c;
		c ^= a >> 3;
		d = d * 5 + (a & 0xff);
		a -= d >> 11;
		b ^= c + 0x1234;
		c = (c << 3) - c;
		d += a | 1;
		__asm__ volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d));
	}
	return a ^ b ^ c ^ d;
}

int main(void)
{
	uint64_t reps = bm_param("reps", 200), x = 0;

	for (uint64_t r = 0; r < reps; r++)
		x += straight(ITERS, 12345);
	sink = x;
	bm_puts("straight: done");
	return 0;
}
