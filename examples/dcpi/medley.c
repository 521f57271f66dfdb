/* SPDX-License-Identifier: BSD-2-Clause */
/* A longer run of three kinds of loop, about 200 million instructions at the default 750
 * repetitions: the size at which `bmprof validate --accel tcg` counts the whole run
 * exactly, without --reps-param, in well under a minute (docs/bmprof-validate.md, Speed).
 * Each repetition does the same work: a straight-line ALU loop (alu), data-dependent
 * branches and a jump table over a table reseeded every repetition (classify), and small
 * noinline calls (hash, calling rotl). Every count is a + b * reps. */
#include <stdint.h>
#include "bmrt.h"

#define ALU_ITERS 6000
#define N 2048
#define CALL_ITERS 3000

static uint32_t data[N];
static volatile uint64_t sink;

__attribute__((noinline)) static uint64_t alu(uint64_t n, uint64_t seed)
{
	uint64_t a = seed, b = seed ^ 0x9e3779b97f4a7c15ull, c = 3, d = 5;

	for (uint64_t i = 0; i < n; i++) {
		a += b ^ i;
		b = (b << 9 | b >> 55) + c;
		c ^= a >> 5;
		d = d * 7 + (a & 0x3f);
		a -= d >> 13;
		b ^= c + 0x4321;
		__asm__ volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d));
	}
	return a ^ b ^ c ^ d;
}

__attribute__((noinline)) static void fill(uint32_t seed)
{
	uint32_t x = seed;

	for (int i = 0; i < N; i++) {
		x = x * 1664525u + 1013904223u;
		data[i] = x >> 8;
	}
}

__attribute__((noinline)) static uint64_t classify(void)
{
	uint64_t s = 0;

	for (int i = 0; i < N; i++) {
		uint32_t v = data[i];
		if (v & 1)
			s += v;
		else
			s ^= v << 1;
		switch ((v >> 3) & 7) {
		case 0: s += 11; break;
		case 1: s ^= 0x3c; break;
		case 2: s = s * 5; break;
		case 3: s -= v; break;
		case 4: s = (s << 3) | 1; break;
		case 5: s += v >> 2; break;
		case 6: s ^= s >> 9; break;
		default: s += 2; break;
		}
		__asm__ volatile("" : "+r"(s));
	}
	return s;
}

__attribute__((noinline)) static uint64_t rotl(uint64_t v, unsigned k)
{
	return v << (k & 63) | v >> ((64 - k) & 63);
}

__attribute__((noinline)) static uint64_t hash(uint64_t s, uint64_t i)
{
	return rotl(s ^ (i * 0xff51afd7ed558ccdull), (unsigned)(i & 31)) + 0x1234567;
}

__attribute__((noinline)) static uint64_t calls(uint64_t n)
{
	uint64_t s = 7;

	for (uint64_t i = 0; i < n; i++) {
		s = hash(s, i);
		__asm__ volatile("" : "+r"(s));
	}
	return s;
}

int main(void)
{
	uint64_t reps = bm_param("reps", 750), x = 0;

	for (uint64_t r = 0; r < reps; r++) {
		x += alu(ALU_ITERS, 99);
		fill(1234);
		x += classify();
		x += calls(CALL_ITERS);
	}
	sink = x;
	bm_puts("medley: done");
	return 0;
}
