/* SPDX-License-Identifier: BSD-2-Clause */
/* The 16-bit atomics gcc 12 calls out of line on RISC-V (which has word and doubleword
 * LR/SC only), as a compare-and-swap loop on the aligned word around the halfword. Built
 * into the library (where the symbols stay local) and into the boot runtime. */
#include <stdint.h>

uint16_t rv_atomic_exchange_2(volatile void *p, uint16_t v, int order)
	__asm__("__atomic_exchange_2");
uint16_t rv_atomic_fetch_add_2(volatile void *p, uint16_t v, int order)
	__asm__("__atomic_fetch_add_2");

static uint16_t update(volatile void *p, uint16_t v, int add)
{
	volatile uint32_t *w = (volatile uint32_t *)((uintptr_t)p & ~(uintptr_t)3);
	unsigned sh = (unsigned)((uintptr_t)p & 2) * 8;
	uint32_t mask = 0xFFFFu << sh, old = *w, next;

	do {
		uint16_t h = (uint16_t)((old >> sh) + (add ? v : 0));
		next = (old & ~mask) | (uint32_t)(add ? h : v) << sh;
	} while (!__atomic_compare_exchange_n(w, &old, next, 1, __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	return (uint16_t)(old >> sh);
}

uint16_t rv_atomic_exchange_2(volatile void *p, uint16_t v, int order)
{
	(void)order;
	return update(p, v, 0);
}

uint16_t rv_atomic_fetch_add_2(volatile void *p, uint16_t v, int order)
{
	(void)order;
	return update(p, v, 1);
}
