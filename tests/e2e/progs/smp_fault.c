/* SPDX-License-Identifier: BSD-2-Clause */
/* A fault on another CPU than CPU 0: the last CPU writes through a null pointer while
 * CPU 0 waits for it and the others work, once every CPU has taken SAMPLES samples (each
 * publishes its own count; CPU 0 before it waits in bm_wait), so every CPU's TOTALS has
 * some however slowly the host runs the vCPUs. The run must end with the exception (END
 * reason exception), after every CPU was stopped and flushed. */
#include <bmrt.h>
#include "own_counters.h"

#define MAXCPU 8
#define SAMPLES 10
#define SPINS_MAX 1000000u       /* the faulter's wait, in turns of spin(1000) */

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
		x = spin(x, 1000);
		publish();
	}
}

__attribute__((noinline)) static void faulter(void *arg)
{
	unsigned n = (unsigned)(uintptr_t)arg;
	volatile int *volatile p = 0;

	for (unsigned i = 0; i < SPINS_MAX && !all_sampled(n); i++) {
		spin(1, 1000);
		publish();
	}
	bm_printf("smp_fault: cpu %u writes to address 0\n", bm_cpu_id());
	*p = 1;
}

int main(void)
{
	unsigned n = bm_ncpus();

	if (n > MAXCPU)
		n = MAXCPU;
	if (n == 1)
		faulter((void *)(uintptr_t)1);
	for (unsigned k = 1; k + 1 < n; k++)
		bm_run_on(k, busy, (void *)(uintptr_t)k);
	bm_run_on(n - 1, faulter, (void *)(uintptr_t)n);
	for (unsigned i = 0; i < SPINS_MAX && own_taken() < SAMPLES; i++)
		spin(1, 1000);
	publish();
	bm_wait(n - 1);
	bm_puts("smp_fault: the fault did not end the run");
	return 1;
}
