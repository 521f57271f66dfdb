/* SPDX-License-Identifier: BSD-2-Clause */
/* The 64-bit atomics gcc calls out for on Armv7-M and Armv8-M (they have no 64-bit
 * exclusive access): with one CPU, each is atomic with interrupts masked around it. */
#include <stdint.h>
#include "cm.h"

#define OP8(name, expr)                                                         \
uint64_t __atomic_##name##_8(volatile void *p, uint64_t v, int order)           \
{                                                                               \
	volatile uint64_t *q = p;                                               \
	uint32_t f = cm_irq_save();                                             \
	uint64_t old = *q;                                                      \
	(void)order;                                                            \
	*q = (expr);                                                            \
	cm_irq_restore(f);                                                      \
	return old;                                                             \
}

OP8(fetch_or, old | v)
OP8(fetch_and, old & v)
OP8(fetch_add, old + v)
OP8(exchange, v)

uint64_t __atomic_load_8(const volatile void *p, int order)
{
	uint32_t f = cm_irq_save();
	uint64_t v = *(const volatile uint64_t *)p;

	(void)order;
	cm_irq_restore(f);
	return v;
}

void __atomic_store_8(volatile void *p, uint64_t v, int order)
{
	uint32_t f = cm_irq_save();

	(void)order;
	*(volatile uint64_t *)p = v;
	cm_irq_restore(f);
}
