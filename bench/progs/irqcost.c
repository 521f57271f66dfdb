/* SPDX-License-Identifier: BSD-2-Clause */
/* What a sampling interrupt costs, measured inside one guest run: a fixed amount of work
 * timed with the guest's counter (x86-64 TSC, AArch64 CNTVCT) in three kinds of phase,
 * interleaved round after round in rotating order:
 *   off     the sampling timer stopped: the work alone
 *   empty   the timer running at the same rate with bmprof's handler recording nothing
 *           (the samplers' probe mode, bmprof_x86_probe and bmprof_a64_probe): entry,
 *           re-arm, acknowledge, exit
 *   sample  the timer sampling as usual
 * Each phase prints its ticks, the timer interrupts it took and the samples taken; the
 * host (bench/irq_cost.sh) turns them into costs per interrupt and ratios. Interrupts are
 * masked around each reading of the counter and the interrupt count, so every interrupt
 * counted is inside the timed span. Parameters: iters (work loop turns per phase),
 * rounds (each round runs every kind once; a first round is run unreported to warm up). */
#include <bmrt.h>

#if defined(__aarch64__)
#include "bmprof_aarch64.h"

static inline void irq_off(void) { __asm__ volatile("msr daifset, #2" ::: "memory"); }
static inline void irq_on(void) { __asm__ volatile("msr daifclr, #2" ::: "memory"); }
static uint64_t irqs(void)
{
	uint64_t n, last;

	bmprof_a64_irq_stats(0, &n, &last);
	return n;
}
static uint64_t taken(void) { return bmprof_a64_cpu()->taken; }
static void empty_on(void) { bmprof_a64_probe(1); }
static void empty_off(void) { bmprof_a64_probe(0); }   /* forgets the count: read before */
static void sample_on(void) { bmprof_a64_start(); }
static void sample_off(void) { bmprof_a64_stop(); }
static void all_off(void) { bmprof_a64_stop(); }
#else
#include "bmprof_x86_64.h"

static inline void irq_off(void) { __asm__ volatile("cli" ::: "memory"); }
static inline void irq_on(void) { __asm__ volatile("sti" ::: "memory"); }
static uint64_t irqs(void)
{
	uint64_t n, last;

	bmprof_x86_irq_stats(0, &n, &last);
	return n;
}
static uint64_t taken(void) { return bmprof_x86_cpu()->taken; }
static void empty_on(void) { bmprof_x86_probe(1); }
static void empty_off(void) { bmprof_x86_probe(0); }   /* forgets the count: read before */
static void sample_on(void) { bmprof_x86_start(); }
static void sample_off(void) { bmprof_x86_stop(); }
static void all_off(void) { bmprof_x86_stop(); }
#endif

enum kind { OFF, EMPTY, SAMPLE, KINDS };
static const char *const names[KINDS] = { "off", "empty", "sample" };

__attribute__((noinline)) static uint64_t work(uint64_t n)
{
	uint64_t x = 1;

	for (uint64_t i = 0; i < n; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

static uint64_t sink;

static void phase(enum kind k, unsigned round, uint64_t iters, int report)
{
	uint64_t t0, t1, k0, k1, s0, s1;

	if (k == EMPTY)
		empty_on();
	else if (k == SAMPLE)
		sample_on();
	irq_off();
	k0 = irqs();
	s0 = taken();
	t0 = bm_cycles();
	irq_on();
	sink += work(iters);
	irq_off();
	t1 = bm_cycles();
	k1 = irqs();
	s1 = taken();
	irq_on();
	if (k == EMPTY)
		empty_off();
	else if (k == SAMPLE)
		sample_off();
	if (report)
		bm_printf("irqcost: phase=%s round=%u ticks=%llu irqs=%llu samples=%llu\n", names[k],
			  round, (unsigned long long)(t1 - t0), (unsigned long long)(k1 - k0),
			  (unsigned long long)(s1 - s0));
}

int main(void)
{
	uint64_t iters = bm_param("iters", 20000000), rounds = bm_param("rounds", 7);

	all_off();
	bm_printf("irqcost: hz=%llu iters=%llu rounds=%llu\n", (unsigned long long)bm_cycles_hz(),
		  (unsigned long long)iters, (unsigned long long)rounds);
	for (unsigned k = 0; k < KINDS; k++)
		phase((enum kind)k, 0, iters, 0);
	for (unsigned r = 1; r <= rounds; r++)
		for (unsigned i = 0; i < KINDS; i++)
			phase((enum kind)((i + r) % KINDS), r, iters, 1);
	bm_printf("irqcost: done %llx\n", (unsigned long long)sink);
	return 0;
}
