/* SPDX-License-Identifier: BSD-2-Clause */
/* One struct member whose loads miss every cache, one whose loads hit: a data-space
 * profile under real timing must put the first on top by far.
 *
 * struct rec is one 64-byte cache line. `chase` follows rec.next through `far`, an array of
 * 2^shift bytes (run-time parameter "shift", default 30: 1 GiB, several times the largest
 * last-level caches) linked in the order of a full-period linear congruential sequence,
 * so each step lands on a line far from the last and no prefetcher can guess it: its
 * loads of `next` miss the caches and the TLB. Every step also loads rec.key of one of
 * `near`'s 16 records, which stay in the L1 cache. Both members are loaded the same number
 * of times; under TCG with -icount (every instruction costs the same) they take about the
 * same samples, timed natively (main in ring 3 under KVM, `bmprof qemu --accel kvm --user
 * --data-space`) `next` takes nearly all of them.
 *
 * The records live in their own section (.noinit, after .bss): the runtime does not zero
 * them, main links them. Parameters: "shift" (20 to 30), "steps" (millions of steps,
 * default 20), "hang" (1: spin forever once done, for a profile read from memory:
 * `bmprof qemu` stopped with Ctrl-C). Prints the steps taken, the sum of the keys, and
 * the TSC ticks per step. */
#include <stdint.h>
#include <bmrt.h>

struct rec {
	struct rec *next;
	long key;
	long pad[6];
};

#define FAR_MAX (1ull << 30)

static struct rec far[FAR_MAX / sizeof(struct rec)]
	__attribute__((section(".noinit"), aligned(4096)));
static struct rec near[16];

/* rec i -> rec (a i + c) mod n: a = 1 mod 4 and c odd give one cycle through all n. */
static struct rec *link(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		far[i].next = &far[(i * 6364136223846793005ull + 1442695040888963407ull) & (n - 1)];
	for (unsigned i = 0; i < 16; i++)
		near[i].key = i + 1;
	return &far[0];
}

__attribute__((noinline)) long chase(struct rec *p, uint64_t steps)
{
	long sum = 0;

	for (uint64_t i = 0; i < steps; i++) {
		p = p->next;
		sum += near[i & 15].key;
	}
	return sum + (p == 0);
}

__attribute__((noinline)) static void spin(void)
{
	for (;;)
		__asm__ volatile("pause");
}

int main(void)
{
	uint64_t shift = bm_param("shift", 30), steps = bm_param("steps", 20) * 1000000, t0;
	long sum;

	if (shift < 20 || shift > 30) {
		bm_printf("cachemiss: shift %llu: 20 to 30\n", (unsigned long long)shift);
		return 2;
	}
	struct rec *p = link((1ull << shift) / sizeof(struct rec));
	t0 = bm_cycles();
	sum = chase(p, steps);
	bm_printf("cachemiss: %llu steps over %llu MiB, sum %ld, %llu TSC ticks per step\n",
		  (unsigned long long)steps, (unsigned long long)(1ull << shift >> 20), sum,
		  (unsigned long long)((bm_cycles() - t0) / (steps ? steps : 1)));
	if (bm_param("hang", 0))
		spin();
	return 0;
}
