/* SPDX-License-Identifier: BSD-2-Clause */
/* The run ended by another CPU than CPU 0: every CPU but the last one works and prints
 * all the time (so the stop finds them waiting for the UART lock or holding it), the last
 * one calls bm_exit(5) once every CPU has taken SAMPLES samples (each publishes its own
 * count; CPU 0 before it waits in bm_wait), so every CPU's TOTALS has some however slowly
 * the host runs the vCPUs. The runtime must stop CPU 0 in bm_wait and the others in their
 * work, then flush every CPU: exit code 5, and TOTALS from each CPU with taken = delivered
 * + lost. On one CPU, CPU 0 exits itself. */
#include <bmrt.h>
#include "own_counters.h"

#define MAXCPU 8
#define SAMPLES 10
#define SPINS_MAX 1000000u       /* the ender's wait, in turns of spin(1000) */

static volatile uint64_t sampled[MAXCPU];

static uint64_t spin(uint64_t x, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

static void publish(void) { __atomic_store_n(&sampled[bm_cpu_id()], own_taken(), __ATOMIC_RELEASE); }

static int all_sampled(unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		if (__atomic_load_n(&sampled[k], __ATOMIC_ACQUIRE) < SAMPLES)
			return 0;
	return 1;
}

__attribute__((noinline)) static void busy(void *arg)
{
	uint64_t x = (uintptr_t)arg;

	for (;;) {
		x = spin(x, 20000);
		publish();
		bm_printf("smp_exit: cpu %u busy\n", bm_cpu_id());
	}
}

__attribute__((noinline)) static void ender(void *arg)
{
	unsigned n = (unsigned)(uintptr_t)arg;

	for (unsigned i = 0; i < SPINS_MAX && !all_sampled(n); i++) {
		spin(1, 1000);
		publish();
	}
	bm_printf("smp_exit: cpu %u ends the run\n", bm_cpu_id());
	bm_exit(5);
}

int main(void)
{
	unsigned n = bm_ncpus();

	if (n > MAXCPU)
		n = MAXCPU;
	if (n == 1)
		ender((void *)(uintptr_t)1);
	for (unsigned k = 1; k + 1 < n; k++)
		bm_run_on(k, busy, (void *)(uintptr_t)k);
	bm_run_on(n - 1, ender, (void *)(uintptr_t)n);
	for (unsigned i = 0; i < SPINS_MAX && own_taken() < SAMPLES; i++)
		spin(1, 1000);
	publish();
	bm_wait(n - 1);
	bm_puts("smp_exit: bm_wait returned");
	return 1;
}
