/* SPDX-License-Identifier: BSD-2-Clause */
/* The frame-pointer walk: a frame record is two words, the caller's frame pointer and the
 * return address, at a fixed offset from the frame pointer (at it on x86-64 and AArch64,
 * 16 bytes below it on RISC-V). Every record is checked before it is read (aligned,
 * wholly inside the range the first one is in, its frame pointer above the one before),
 * so a chain that runs into code built without frame pointers, into firmware, or into
 * garbage ends early and never faults. */
#include "core.h"

static const struct bmprof_range *range_of(uint64_t rec, const struct bmprof_range *r,
					   unsigned nr)
{
	for (unsigned i = 0; i < nr; i++)
		if (bmprof_in_range(&r[i], rec, 16))
			return &r[i];
	return 0;
}

unsigned bmprof_walk_fp(uint64_t fp, int rec_off, const struct bmprof_range *ranges,
			unsigned nranges, uint64_t *out, unsigned max, int *more)
{
	const struct bmprof_range *r;
	uint64_t off = (uint64_t)(int64_t)rec_off;
	unsigned n = 0;

	*more = 0;
	if (!fp || (fp & 7) || !(r = range_of(fp + off, ranges, nranges)))
		return 0;
	for (;;) {
		const volatile uint64_t *rec = (const volatile uint64_t *)(uintptr_t)(fp + off);
		uint64_t next = rec[0], ret = rec[1];
		if (!ret)
			break;
		if (n == max) {
			*more = 1;
			break;
		}
		out[n++] = ret;
		if (next <= fp || (next & 7) || !bmprof_in_range(r, next + off, 16))
			break;
		fp = next;
	}
	return n;
}
