/* SPDX-License-Identifier: BSD-2-Clause */
/* The test kernel's IDT: an exception handler for vectors 0-31, an iretq for the APIC's
 * spurious vector, and the gates the kernel sets. */
#include <stdint.h>

#include "doc_env.h"
#include "kernel.h"

struct gate {
	uint16_t off0, sel;
	uint8_t ist, type;
	uint16_t off1;
	uint32_t off2, zero;
};

static struct gate idt[256] __attribute__((aligned(16)));

void fault_entry(void);
void spurious_entry(void);

void idt_set_interrupt_gate_ist(unsigned vector, void (*entry)(void), unsigned ist)
{
	uint64_t a = (uint64_t)(uintptr_t)entry;

	idt[vector] = (struct gate){ (uint16_t)a, 8, (uint8_t)ist, 0x8E, (uint16_t)(a >> 16),
				     (uint32_t)(a >> 32), 0 };
}

void idt_set_interrupt_gate(unsigned vector, void (*entry)(void))
{
	idt_set_interrupt_gate_ist(vector, entry, 0);
}

void idt_init(void)
{
	struct __attribute__((packed)) { uint16_t limit; uint64_t base; } p = {
		sizeof idt - 1, (uint64_t)(uintptr_t)idt };

	for (unsigned v = 0; v < 32; v++)
		idt_set_interrupt_gate(v, fault_entry);
	idt_set_interrupt_gate(0xFF, spurious_entry);
	__asm__ volatile("lidt %0" : : "m"(p));
}

void fault(uint64_t rip)
{
	printk("kernel: CPU exception near rip=0x%lx\n", (unsigned long)rip);
	machine_exit(99);
}
