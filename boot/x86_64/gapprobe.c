/* What a timer interrupt costs the program beyond what its handler times. The handler
 * times itself from the deadline it answers to its exit (sampler.c); the interrupt's
 * delivery before that and its return after (under kvm_pvm, ring 0 emulated: an emulated
 * iretq) are the program's time as far as TOTALS sampled_ticks knows, which makes the
 * period in cycles come out long. Seen from the program, the whole interrupt is a jump
 * between two consecutive TSC reads: with the timer running as it will while sampling
 * (bmprof_x86_probe, nothing recorded), a loop of TSC reads pairs each jump with the
 * handler's own time of the same interrupt (paired by the handler's count, which moves by
 * one across the jump), and the median of jump less handler time is the untimed part
 * (a preempted vCPU or a long handler shows as an outlier, not a shift). Runs in the
 * privilege level main runs in, for at most PAIRS interrupts or a quarter second. */
#include "bmprof_x86_64.h"
#include "rt.h"

#define PAIRS 31
#define MIN_GAP 100   /* TSC ticks: more than a turn of the loop, less than an interrupt */

static inline uint64_t tsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static void sort(int64_t *v, unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j && v[j - 1] > v[j]; j--) {
			int64_t t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

unsigned bmrt_gap_probe(uint64_t tsc_hz, int64_t *untimed, uint64_t *cost)
{
	int64_t d[PAIRS], g[PAIRS];
	unsigned n = 0;
	uint64_t k0, k, h, prev, end, gap = 0, last = 0;

	bmprof_x86_irq_stats(0, &k0, &h);
	prev = tsc();
	end = prev + tsc_hz / 4;
	while (n < PAIRS && (int64_t)(prev - end) < 0) {
		uint64_t t;
		bmprof_x86_irq_stats(0, &k, &h);
		t = tsc();
		gap = t - prev;
		/* The count is read just before the TSC. An interrupt between the last turn's
		 * TSC read and this count read shows in both this count and this jump; one
		 * between the last turn's count and TSC reads is in the last jump but shows
		 * in the count only now. So the larger of the two jumps is the interrupt's
		 * (under TCG interrupts come at the call, between the two reads). */
		if (k != k0) {
			uint64_t j = gap > last ? gap : last;
			if (k == k0 + 1 && j > MIN_GAP) {
				g[n] = (int64_t)j;
				d[n++] = (int64_t)j - (int64_t)h;
			}
			k0 = k;
		}
		last = gap;
		prev = t;
	}
	if (!n)
		return 0;
	sort(d, n);
	sort(g, n);
	*untimed = d[n / 2];
	*cost = (uint64_t)g[n / 2];
	return n;
}
