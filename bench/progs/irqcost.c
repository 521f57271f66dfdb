/* A fixed amount of work timed with the TSC, for measuring what each sampling interrupt
 * costs under the emulator: run it with sampling off and on, and divide the difference by
 * the number of samples taken. */
#include <bmrt.h>

__attribute__((noinline)) static uint64_t work(uint64_t n)
{
	uint64_t x = 1;

	for (uint64_t i = 0; i < n; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

int main(void)
{
	uint64_t t0 = bm_cycles(), x = work(300000000), t1 = bm_cycles();

	bm_printf("irqcost: %llx cycles=%llu hz=%llu\n", (unsigned long long)x,
		  (unsigned long long)(t1 - t0), (unsigned long long)bm_cycles_hz());
	return 0;
}
