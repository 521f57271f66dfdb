/* SPDX-License-Identifier: BSD-2-Clause */
/* Works for a while (so there are samples to flush), then writes to an address beyond
 * the runtime's 4 GiB identity map: a page fault the runtime must report and survive. */
#include <bmrt.h>

#define UNMAPPED 0x4000000000ull   /* 256 GiB */

__attribute__((noinline)) uint64_t busy(uint64_t n)
{
	uint64_t x = 1;

	for (uint64_t i = 0; i < n; i++) {
		x = x * 2862933555777941757ull + 3037000493ull;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

int main(void)
{
	uint64_t x = busy(20000000);

	bm_printf("crash: worked (%llx), now writing to %#llx\n", (unsigned long long)x, UNMAPPED);
	*(volatile uint64_t *)UNMAPPED = x;
	bm_puts("crash: still alive, which is wrong");
	return 0;
}
