/* SPDX-License-Identifier: BSD-2-Clause */
/* A loop whose iterations the host knows (it prints them): bmprof cpi estimates how often
 * the loop body ran from the samples alone (tests/e2e/test_cpi.sh). */
#include <stdint.h>
#include "bmrt.h"

static volatile uint64_t sink;

__attribute__((noinline)) static uint64_t mix(uint64_t n)
{
	uint64_t a = 1, b = 2;

	for (uint64_t i = 0; i < n; i++) {
		a += b ^ i;
		b = (b << 3) + a;
		__asm__ volatile("" : "+r"(a), "+r"(b));
	}
	return a ^ b;
}

int main(void)
{
	uint64_t n = bm_param("iters", 2000000);

	sink = mix(n);
	bm_printf("iterations %lu\n", (unsigned long)n);
	return 0;
}
