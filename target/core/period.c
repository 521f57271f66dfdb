/* SPDX-License-Identifier: BSD-2-Clause */
/* Randomized sampling periods (DCPI): each period is uniform in [nominal - jitter, nominal],
 * so samples cannot lock onto a loop whose length divides the period. */
#include "core.h"

void bmprof_set_period(struct bmprof_cpu *c, uint64_t nominal, uint64_t jitter)
{
	if (nominal == 0)
		jitter = 0;
	else if (jitter > nominal - 1)
		jitter = nominal - 1;
	c->period = nominal;
	c->jitter = jitter;
}

/* xorshift64* (Vigna): one shift-xor round and a multiply, good enough in its high bits. */
static uint64_t next_random(struct bmprof_cpu *c)
{
	uint64_t x = c->rng;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	c->rng = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* High 64 bits of a * b: maps a uniform 64-bit a onto [0, b) without a division. */
static uint64_t mulhi64(uint64_t a, uint64_t b)
{
#ifdef __SIZEOF_INT128__
	return (uint64_t)(((unsigned __int128)a * b) >> 64);
#else
	uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
	uint64_t mid = (al * bl >> 32) + (uint32_t)(ah * bl) + (uint32_t)(al * bh);
	return ah * bh + (ah * bl >> 32) + (al * bh >> 32) + (mid >> 32);
#endif
}

uint64_t bmprof_random_period(struct bmprof_cpu *c, uint64_t nominal, uint64_t jitter)
{
	if (nominal == 0 || jitter == 0)
		return nominal;
	if (jitter > nominal - 1)
		jitter = nominal - 1;
	/* jitter < nominal <= UINT64_MAX, so jitter + 1 does not wrap */
	return nominal - jitter + mulhi64(next_random(c), jitter + 1);
}

uint64_t bmprof_next_period(struct bmprof_cpu *c)
{
	return bmprof_random_period(c, c->period, c->jitter);
}
