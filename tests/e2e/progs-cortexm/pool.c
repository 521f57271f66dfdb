/* SPDX-License-Identifier: BSD-2-Clause */
/* A hot function with a literal pool in its code (the addresses of the tables it walks,
 * loaded pc-relative), and a switch gcc compiles to a tbb table: bmprof annotate must show
 * both as data (.word, .short, .byte as objdump does) and cpi must not count them as
 * instructions (tests/e2e/test_thumb_data.sh). */
#include <bmrt.h>

volatile uint32_t pool_a[8], pool_b[8], pool_c[8];

__attribute__((noinline)) uint32_t pool_work(uint32_t n)
{
	uint32_t x = 1;

	for (uint32_t i = 0; i < n; i++) {
		switch (x >> 29) {
		case 0: pool_a[i & 7] += x; break;
		case 1: pool_b[i & 7] ^= x; break;
		case 2: pool_c[i & 7] -= x; break;
		case 3: pool_a[(i + 1) & 7] += i; break;
		case 4: pool_b[(i + 2) & 7] ^= i; break;
		case 5: pool_c[(i + 3) & 7] -= i; break;
		default: x ^= pool_a[i & 7]; break;
		}
		x = x * 1664525u + 1013904223u;
	}
	return x;
}

int main(void)
{
	bm_printf("pool: %lx\n", (unsigned long)pool_work(20 * UNIT));
	return 0;
}
