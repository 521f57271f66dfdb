/* SPDX-License-Identifier: BSD-2-Clause */
/* Works for a while (so there are samples to flush), then executes an undefined
 * instruction (x86-64 ud2, AArch64 udf): the runtime must report the exception with an END
 * frame and end the run with status 255. */
#include <bmrt.h>

__attribute__((noinline)) uint64_t busy(uint64_t n)
{
	uint64_t x = 1;

	for (uint64_t i = 0; i < n; i++) {
		x = x * 2862933555777941757ull + 3037000493ull;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

__attribute__((noinline)) void fault_here(void)
{
#if defined(__x86_64__)
	__asm__ volatile("ud2");
#else
	__asm__ volatile("udf #0");
#endif
}

int main(void)
{
	bm_printf("ud: worked (%llx), now an undefined instruction\n", (unsigned long long)busy(20000000));
	fault_here();
	bm_puts("ud: still alive, which is wrong");
	return 0;
}
