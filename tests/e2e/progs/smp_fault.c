/* A fault on another CPU than CPU 0: the last CPU writes through a null pointer while
 * CPU 0 waits for it and the others work, 100 ms after they started (long enough for
 * every CPU to be sampled). The run must end with the exception (END
 * reason exception), after every CPU was stopped and flushed. */
#include <bmrt.h>

static volatile unsigned running;

__attribute__((noinline)) static void busy(void *arg)
{
	uint64_t x = (uintptr_t)arg;

	__atomic_add_fetch(&running, 1, __ATOMIC_RELEASE);
	for (;;) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		__asm__ volatile("" : "+r"(x));
	}
}

__attribute__((noinline)) static void faulter(void *arg)
{
	unsigned others = (unsigned)(uintptr_t)arg;
	volatile int *volatile p = 0;
	uint64_t t;

	while (__atomic_load_n(&running, __ATOMIC_ACQUIRE) < others)
		;
	t = bm_cycles();
	while (bm_cycles() - t < bm_cycles_hz() / 10)
		;
	bm_printf("smp_fault: cpu %u writes to address 0\n", bm_cpu_id());
	*p = 1;
}

int main(void)
{
	unsigned n = bm_ncpus();

	if (n == 1)
		faulter(0);
	for (unsigned k = 1; k + 1 < n; k++)
		bm_run_on(k, busy, (void *)(uintptr_t)k);
	bm_run_on(n - 1, faulter, (void *)(uintptr_t)(n - 2));
	bm_wait(n - 1);
	bm_puts("smp_fault: the fault did not end the run");
	return 1;
}
