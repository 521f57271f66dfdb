/* SPDX-License-Identifier: BSD-2-Clause */
/* The core clock, for the host's cycles per timer sample: a chain of dependent adds, one
 * cycle of latency each on every x86-64 core of the last fifteen years, timed with the
 * TSC. Register adds: recent Intel cores fold a chain of add-immediates at rename (this
 * machine's Xeon ran `add $1, %rax` chains at ~6 per cycle), but not x += y. Runs that
 * KVM's steal time says were preempted are dropped, and the median of the others kept:
 * the host's clock moves in 100 MHz steps here, and the fastest run finds its peaks,
 * not what a program sees (with no steal time, all runs count: interrupts are off).
 * A run is a tenth of BMRT_CHAIN_ADDS, a million adds, half a millisecond natively: long
 * enough for 0.1% accuracy, short enough that on a host with more runnable threads than
 * cores some runs escape preemption. Called in the privilege level main runs in. */
#include "rt.h"

#define TRIES 16
#define MAX_RUNS 100
#define RUN_ADDS (BMRT_CHAIN_ADDS / 10)   /* short: more runs escape a preemption */
#define UNROLL 100

static inline uint64_t tsc_fenced(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

static uint64_t one_run(uint64_t adds)
{
	uint64_t x = 0, y = 1, n = adds / UNROLL, t0 = tsc_fenced();

	_Static_assert(UNROLL == 100, ".rept below");
	__asm__ volatile("1:\n\t"
			 ".rept 100\n\t"
			 "addq %2, %0\n\t"
			 ".endr\n\t"
			 "decq %1\n\t"
			 "jnz 1b"
			 : "+r"(x), "+r"(n) : "r"(y) : "cc");
	return tsc_fenced() - t0;
}

uint64_t bmrt_chain_ticks(uint64_t tsc_hz)
{
	uint64_t clean[TRIES], fastest = ~0ull;
	unsigned kept = 0;

	/* a hundredth first: slower than 20 million adds a second is emulated code (kvm_pvm's
	 * ring 0), whose clock means nothing and whose full run would take a minute */
	if (one_run(BMRT_CHAIN_ADDS / 100) > tsc_hz / 200)
		return 0;
	for (int i = 0; kept < TRIES && i < MAX_RUNS; i++) {
		uint64_t s = bmrt_steal_ns(), t = one_run(RUN_ADDS) * (BMRT_CHAIN_ADDS / RUN_ADDS);
		if (t && t < fastest)
			fastest = t;
		if (t && bmrt_steal_ns() == s)
			clean[kept++] = t;
	}
	if (!kept)
		return fastest == ~0ull ? 0 : fastest;
	for (unsigned i = 1; i < kept; i++)   /* the median of the clean runs */
		for (unsigned j = i; j && clean[j - 1] > clean[j]; j--) {
			uint64_t t = clean[j];
			clean[j] = clean[j - 1];
			clean[j - 1] = t;
		}
	return clean[kept / 2];
}
