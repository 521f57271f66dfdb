/* SPDX-License-Identifier: BSD-2-Clause */
/* A CPU that never takes interrupts again: CPU 1 disables them and spins for good, so it
 * cannot be stopped. When main returns, the runtime waits for it a bounded time, says so
 * on the console, and flushes every other CPU. */
#include <bmrt.h>

static volatile int masked;

__attribute__((noinline)) static void stuck(void *arg)
{
	(void)arg;
	__asm__ volatile("cli" : : : "memory");
	masked = 1;
	for (;;)
		__asm__ volatile("pause");
}

int main(void)
{
	if (bm_ncpus() < 2) {
		bm_puts("smp_cli: needs two CPUs");
		return 1;
	}
	bm_run_on(1, stuck, 0);
	while (!masked)
		;
	bm_puts("smp_cli: cpu 1 has interrupts disabled");
	return 0;
}
