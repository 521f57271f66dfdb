/* SPDX-License-Identifier: BSD-2-Clause */
/* What a timer interrupt costs the program beyond what its handler times. The handler
 * times itself from the deadline it answers to its exit (the samplers); the interrupt's
 * delivery before that and its return after (iretq, eret; under kvm_pvm, ring 0 is
 * emulated and an iretq costs much) are the program's time as far as TOTALS sampled_ticks
 * knows, which makes the period in cycles come out long (under -icount, by the few dozen
 * instructions of the return, per sample). Seen from the program, the whole interrupt is a
 * jump between two consecutive clock reads: with the timer running as it will while
 * sampling (the sampler's probe mode, nothing recorded), a loop of clock reads pairs each
 * jump with the handler's own time of the same interrupt (paired by the handler's count,
 * which moves by one across the jump), and the mean of the middle half of jump less
 * handler time is the untimed part, once the loop's own mean turn is taken off (a
 * preempted vCPU or a long handler shows as an outlier, not a shift). Both are averaged
 * in 1/BMPROF_UNTIMED_ONE ticks: a coarse clock (AArch64's generic timer ticks every 16
 * instructions under QEMU -icount) reads each one to a whole tick either way.
 * Runs in the privilege level main runs in, for at most PAIRS interrupts or a quarter
 * second. */
#include "rt_common.h"

#define PAIRS 31

static void sort(int64_t *v, unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j && v[j - 1] > v[j]; j--) {
			int64_t t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

/* The mean of the middle half of v[0, n) (sorted), in 1/BMPROF_UNTIMED_ONE units. */
static int64_t middle_mean(const int64_t *v, unsigned n)
{
	unsigned lo = n / 4, hi = n - n / 4;
	int64_t sum = 0;

	for (unsigned i = lo; i < hi; i++)
		sum += v[i];
	return sum * BMPROF_UNTIMED_ONE / (int64_t)(hi - lo);
}

unsigned bmrt_gap_probe(uint64_t hz, int64_t *untimed, uint64_t *cost)
{
	int64_t d[PAIRS], g[PAIRS];
	unsigned n = 0;
	uint64_t k0, k, h, prev, end, gap = 0, last = 0, turn = ~0ull, turns = 0, turn_sum = 0;

	bmrt_irq_stats(&k0, &h);
	prev = bmrt_ticks();
	end = prev + hz / 4;
	while (n < PAIRS && (int64_t)(prev - end) < 0) {
		uint64_t t;
		bmrt_irq_stats(&k, &h);
		t = bmrt_ticks();
		gap = t - prev;
		/* The count is read just before the TSC. An interrupt between the last turn's
		 * TSC read and this count read shows in both this count and this jump; one
		 * between the last turn's count and TSC reads is in the last jump but shows
		 * in the count only now. So the larger of the two jumps is the interrupt's
		 * (under TCG interrupts come at the call, between the two reads). */
		if (k != k0) {
			uint64_t j = gap > last ? gap : last;
			if (k == k0 + 1 && j > bmrt_gap_min_ticks) {
				g[n] = (int64_t)j;
				d[n++] = (int64_t)j - (int64_t)h;
			}
			k0 = k;
		} else if (gap <= bmrt_gap_min_ticks) {
			turn = gap < turn ? gap : turn;
			turn_sum += gap;
			turns++;
		}
		last = gap;
		prev = t;
	}
	if (!n)
		return 0;
	sort(d, n);
	sort(g, n);
	/* a jump holds the interrupt and a turn of this loop, which is the program's time */
	*untimed = middle_mean(d, n);
	if (turns && turn < (uint64_t)g[0])
		*untimed -= (int64_t)(turn_sum * BMPROF_UNTIMED_ONE / turns);
	*cost = (uint64_t)g[n / 2];
	return n;
}
