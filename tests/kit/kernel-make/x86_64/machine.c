/* SPDX-License-Identifier: BSD-2-Clause */
/* COM1 and the way out of QEMU (isa-debug-exit at port 0xf4). */
#include <stddef.h>
#include <stdint.h>

#include "doc_env.h"
#include "kernel.h"

static inline void outb(uint16_t port, uint8_t v) { __asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port)); }
static inline uint8_t inb(uint16_t port)
{
	uint8_t v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

#define COM1 0x3F8

const char *const arch_name = "x86_64";

void idt_init(void);

/* The BIOS leaves the 8259 PICs at vectors 8-15 and 0x70-0x77, delivered through LINT0,
 * which bmprof leaves as it is: masked here, or the PIT's tick would arrive at vector 8. */
void arch_init(void)
{
	outb(0x21, 0xFF);
	outb(0xA1, 0xFF);
	idt_init();
}
/* no interrupt of its own: the kernel's only interrupt is bmprof's timer */
void arch_ticks_start(void) {}
void arch_ticks_stop(void) {}

size_t uart_send(const void *buf, size_t len)
{
	const uint8_t *p = buf;

	for (size_t i = 0; i < len; i++) {
		while (!(inb(COM1 + 5) & 0x20))
			;
		outb(COM1, p[i]);
	}
	return len;
}

void cpu_relax(void) { __asm__ volatile("pause"); }
void irq_enable(void) { __asm__ volatile("sti" ::: "memory"); }
void irq_disable(void) { __asm__ volatile("cli" ::: "memory"); }

void machine_exit(int code)
{
	__asm__ volatile("outl %0, %1" : : "a"((uint32_t)code), "Nd"((uint16_t)0xf4));
	for (;;)
		__asm__ volatile("cli; hlt");
}
