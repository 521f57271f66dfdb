/* SPDX-License-Identifier: BSD-2-Clause */
/* Returns 42: the exit status and the END frame must both carry it. It works a little
 * first (about 20M instructions) so the run has samples in every mode. */
#include <bmrt.h>

__attribute__((noinline)) static uint64_t busy(uint64_t n)
{
	uint64_t x = 3;

	for (uint64_t i = 0; i < n; i++) {
		x = x * 6364136223846793005ull + 1;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

int main(void)
{
	bm_printf("exitcode: %llx, returning 42\n", (unsigned long long)busy(5000000));
	return 42;
}
