/* SPDX-License-Identifier: BSD-2-Clause */
/* Works for a while (so there are samples to flush), then runs an undefined instruction:
 * a UsageFault the runtime must report with the faulting pc, and end the run on. */
#include <bmrt.h>

__attribute__((noinline)) uint32_t busy(uint32_t n)
{
	uint32_t x = 1;

	for (uint32_t i = 0; i < n; i++) {
		x = x * 1664525u + 1013904223u;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

__attribute__((noinline)) void crash_here(void)
{
	__asm__ volatile("udf #7");
}

int main(void)
{
	bm_printf("udf: %lx\n", (unsigned long)busy(2000000));
	crash_here();
	return 0;
}
