/* SPDX-License-Identifier: BSD-2-Clause */
/* Known work on every CPU: CPU k runs work_cpuK (eight copies of one loop, one per CPU),
 * so each CPU's samples must land in its own function and never in another CPU's. Each
 * CPU also prints progress lines while the others sample and drain, so the console and
 * the stream share the UART. main checks bm_run_on's refusals and that every function
 * ran on the CPU it was sent to, prints one result line per CPU and returns 0 when all
 * of it holds, with the time main took.
 *
 * SMP_WORK_ITERS (default 4M, about 10 instructions each) sets the work per CPU. With the
 * run-time parameter own_samples=N, each CPU's last step goes on, a quarter of the work at
 * a time (up to EXTRA_MAX times), until the CPU has taken N samples inside its work calls:
 * so many samples land in work_cpuK however little of the host the run gets. */
#include <bmrt.h>
#include "own_counters.h"

#ifndef SMP_WORK_ITERS
#define SMP_WORK_ITERS 4000000ull
#endif
#define MAXCPU 8
#define STEPS 4
#define EXTRA_MAX 64

struct slot {
	unsigned want;           /* the CPU it was sent to */
	unsigned ran_on;         /* bm_cpu_id() inside */
	uint64_t result;
	volatile int done;
};

/* Sixteen cases, each its own basic block (the empty asm keeps gcc from merging them or
 * turning the switch into a table of constants), so a CPU's samples spread over many
 * addresses of its work function and a small table has to evict. */
#define CASE(i)                                                               \
	case i:                                                               \
		x = x * (6364136223846793005ull + 2 * (i)) + (i);            \
		__asm__ volatile("" : "+r"(x));                               \
		break;
#define WORK(k)                                                               \
	__attribute__((noinline)) uint64_t work_cpu##k(uint64_t x, uint64_t n) \
	{                                                                     \
		for (uint64_t i = 0; i < n; i++) {                            \
			switch (x >> 60) {                                    \
			CASE(0) CASE(1) CASE(2) CASE(3) CASE(4) CASE(5)       \
			CASE(6) CASE(7) CASE(8) CASE(9) CASE(10) CASE(11)     \
			CASE(12) CASE(13) CASE(14) CASE(15)                   \
			}                                                     \
		}                                                             \
		return x;                                                     \
	}
WORK(0) WORK(1) WORK(2) WORK(3) WORK(4) WORK(5) WORK(6) WORK(7)

static uint64_t (*const work[MAXCPU])(uint64_t, uint64_t) = {
	work_cpu0, work_cpu1, work_cpu2, work_cpu3, work_cpu4, work_cpu5, work_cpu6, work_cpu7,
};

static struct slot slots[MAXCPU];
static uint64_t own_samples;

/* One step of CPU k's work; *sampled counts the samples taken meanwhile. */
static uint64_t step(unsigned k, uint64_t x, uint64_t *sampled)
{
	uint64_t t = own_taken();

	x = work[k](x, SMP_WORK_ITERS / STEPS);
	*sampled += own_taken() - t;
	return x;
}

static void run(void *arg)
{
	struct slot *s = arg;
	uint64_t x = s->want + 1, sampled = 0;

	s->ran_on = bm_cpu_id();
	for (int j = 0; j < STEPS; j++) {
		x = step(s->want, x, &sampled);
		for (int e = 0; j == STEPS - 1 && e < EXTRA_MAX && sampled < own_samples; e++)
			x = step(s->want, x, &sampled);
		bm_printf("smp_work: cpu %u step %d of %d\n", s->want, j + 1, STEPS);
	}
	s->result = x;
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
}

int main(void)
{
	unsigned n = bm_ncpus(), bad = 0;
	uint64_t t0 = bm_cycles();

	if (n > MAXCPU)
		n = MAXCPU;
	own_samples = bm_param("own_samples", 0);
	if (bm_run_on(0, run, &slots[0]) != -1 || bm_run_on(n, run, &slots[0]) != -1) {
		bm_puts("smp_work: bm_run_on accepted CPU 0 or a CPU out of range");
		bad = 1;
	}
	for (unsigned k = 0; k < n; k++)
		slots[k].want = k;
	for (unsigned k = 1; k < n; k++) {
		if (bm_run_on(k, run, &slots[k]) != 0) {
			bm_printf("smp_work: bm_run_on(%u) failed\n", k);
			bad = 1;
		} else if (bm_run_on(k, run, &slots[k]) != -1 && !slots[k].done) {
			bm_printf("smp_work: bm_run_on(%u) accepted a busy CPU\n", k);
			bad = 1;
		}
	}
	run(&slots[0]);
	for (unsigned k = 1; k < n; k++)
		bm_wait(k);
	for (unsigned k = 0; k < n; k++) {
		const struct slot *s = &slots[k];
		int ok = __atomic_load_n(&s->done, __ATOMIC_ACQUIRE) && s->ran_on == k;
		bm_printf("smp_work: cpu %u: work_cpu%u ran on cpu %u, result %016llx, %s\n", k, k,
			  s->ran_on, (unsigned long long)s->result, ok ? "ok" : "WRONG");
		bad |= !ok;
	}
	bm_printf("smp_work: %u cpus, %s, %llu us\n", n, bad ? "FAILED" : "ok",
		  (unsigned long long)((bm_cycles() - t0) / (bm_cycles_hz() / 1000000)));
	return (int)bad;
}
