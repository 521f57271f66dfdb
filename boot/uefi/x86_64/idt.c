/* SPDX-License-Identifier: BSD-2-Clause */
/* Hooking the firmware's IDT: replace one gate's handler address and put the original
 * gate back at the end. The IDT may sit in pages the firmware made read-only, so the write
 * happens with CR0.WP clear, interrupts disabled. */
#include "uefi_x86.h"

struct gate {
	uint16_t off0, sel;
	uint8_t ist, type;
	uint16_t off1;
	uint32_t off2, zero;
} __attribute__((packed));

struct idtr {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

static struct gate *idt_gate(unsigned vector)
{
	struct idtr r;

	__asm__ volatile("sidt %0" : "=m"(r));
	if ((vector + 1) * sizeof(struct gate) - 1 > r.limit)
		return 0;
	return (struct gate *)(uintptr_t)r.base + vector;
}

static void write_gate(struct gate *g, const struct gate *v)
{
	uint64_t cr0, f;

	__asm__ volatile("pushfq; popq %0; cli" : "=r"(f) : : "memory");
	__asm__ volatile("movq %%cr0, %0" : "=r"(cr0));
	__asm__ volatile("movq %0, %%cr0" : : "r"(cr0 & ~(1ull << 16)) : "memory");
	*(volatile struct gate *)g = *v;
	__asm__ volatile("movq %0, %%cr0" : : "r"(cr0) : "memory");
	__asm__ volatile("pushq %0; popfq" : : "r"(f) : "memory", "cc");
}

int bmrt_idt_hook(struct bmrt_idt_hook *h, unsigned vector, void (*entry)(void))
{
	struct gate *g = idt_gate(vector), n;
	uint64_t a = (uint64_t)(uintptr_t)entry;

	if (!g || !(g->type & 0x80))
		return -1;
	h->vector = vector;
	h->saved[0] = ((uint64_t *)g)[0];
	h->saved[1] = ((uint64_t *)g)[1];
	h->original = g->off0 | (uint64_t)g->off1 << 16 | (uint64_t)g->off2 << 32;
	n = *g;
	n.off0 = (uint16_t)a;
	n.off1 = (uint16_t)(a >> 16);
	n.off2 = (uint32_t)(a >> 32);
	write_gate(g, &n);
	h->hooked = 1;
	return 0;
}

void bmrt_idt_unhook(struct bmrt_idt_hook *h)
{
	struct gate *g;

	if (!h->hooked || !(g = idt_gate(h->vector)))
		return;
	write_gate(g, (const struct gate *)h->saved);
	h->hooked = 0;
}
