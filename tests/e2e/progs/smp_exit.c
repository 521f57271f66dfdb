/* The run ended by another CPU than CPU 0: every CPU but the last one works and prints
 * all the time (so the stop finds them waiting for the UART lock or holding it), the last
 * one calls bm_exit(5) 100 ms after the others are busy (long enough for every CPU to be
 * sampled). The runtime must stop CPU 0 in bm_wait and the others in their work, then
 * flush every CPU: exit code 5, and TOTALS from each CPU with taken = delivered + lost.
 * On one CPU, CPU 0 exits itself. */
#include <bmrt.h>

static volatile unsigned running;

static uint64_t spin(uint64_t x, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

__attribute__((noinline)) static void busy(void *arg)
{
	uint64_t x = (uintptr_t)arg;

	__atomic_add_fetch(&running, 1, __ATOMIC_RELEASE);
	for (;;) {
		x = spin(x, 20000);
		bm_printf("smp_exit: cpu %u busy\n", bm_cpu_id());
	}
}

__attribute__((noinline)) static void ender(void *arg)
{
	unsigned others = (unsigned)(uintptr_t)arg;
	uint64_t t;

	while (__atomic_load_n(&running, __ATOMIC_ACQUIRE) < others)
		;
	t = bm_cycles();
	while (bm_cycles() - t < bm_cycles_hz() / 10)
		spin(1, 1000);
	bm_printf("smp_exit: cpu %u ends the run\n", bm_cpu_id());
	bm_exit(5);
}

int main(void)
{
	unsigned n = bm_ncpus();

	if (n == 1)
		ender(0);
	for (unsigned k = 1; k + 1 < n; k++)
		bm_run_on(k, busy, (void *)(uintptr_t)k);
	bm_run_on(n - 1, ender, (void *)(uintptr_t)(n - 2));
	bm_wait(n - 1);
	bm_puts("smp_exit: bm_wait returned");
	return 1;
}
