/* SPDX-License-Identifier: BSD-2-Clause */
/* QEMU virt: the PL011, a GICv2 driver, the kernel's own tick on the EL1 physical timer
 * (INTID 30, 1 kHz; bmprof's timer is the virtual one), PSCI SYSTEM_OFF. */
#include <stddef.h>
#include <stdint.h>

#include "doc_env.h"
#include "kernel.h"

#define UART 0x09000000ul
#define GICD 0x08000000ul
#define GICC 0x08010000ul
#define TICK_INTID 30
#define TICK_HZ 1000
#define PRINT_EVERY 1

const char *const arch_name = "aarch64";

static inline void w32(uintptr_t a, uint32_t v) { *(volatile uint32_t *)a = v; }
static inline uint32_t r32(uintptr_t a) { return *(volatile uint32_t *)a; }

static uint64_t now(void)
{
	uint64_t v;

	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v));
	return v;
}

static uint64_t timer_hz(void)
{
	uint64_t f;

	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(f));
	return f;
}

/* QEMU's PL011 takes a character at once; this one goes at 921600 baud (10 bits a
 * character), as a board's would, so a drain holds the console as long as on a board and
 * the kernel's own tick comes while it does. */
size_t uart_send(const void *buf, size_t len)
{
	static uint64_t next;
	uint64_t per_char = timer_hz() / 92160;
	const uint8_t *p = buf;

	for (size_t i = 0; i < len; i++) {
		while ((int64_t)(now() - next) < 0)
			;
		while (r32(UART + 0x18) & (1u << 5))      /* FR.TXFF */
			;
		w32(UART, p[i]);
		next = now() + per_char;
	}
	return len;
}

void cpu_relax(void) { __asm__ volatile("yield"); }
void irq_enable(void) { __asm__ volatile("msr daifclr, #2" ::: "memory"); }
void irq_disable(void) { __asm__ volatile("msr daifset, #2" ::: "memory"); }

void gic_enable_ppi(uint32_t intid, int trigger)
{
	uintptr_t prio = GICD + 0x400 + (intid & ~3u), cfg = GICD + 0xC00 + 4 * (intid / 16);
	unsigned sh = 8 * (intid & 3), bit = 2 * (intid % 16) + 1;

	w32(prio, (r32(prio) & ~(0xFFu << sh)) | 0xA0u << sh);
	w32(cfg, trigger == GIC_LEVEL ? r32(cfg) & ~(1u << bit) : r32(cfg) | 1u << bit);
	w32(GICD + 0x100 + 4 * (intid / 32), 1u << (intid % 32));
}

uint32_t gic_ack(void) { return r32(GICC + 0x0C) & 0x3FF; }
void gic_eoi(uint32_t intid) { w32(GICC + 0x10, intid); }

static unsigned long ticks;

static void tick_rearm(void)
{
	__asm__ volatile("msr cntp_tval_el0, %0" : : "r"(timer_hz() / TICK_HZ));
}

/* The kernel's own interrupt: a tick that prints every PRINT_EVERY ticks, never waiting
 * for the console (console_print_from_irq drops the line when the console is busy). */
void dispatch(uint32_t intid)
{
	char line[64];

	if (intid != TICK_INTID)
		return;
	tick_rearm();
	if (++ticks % PRINT_EVERY == 0)
		console_print_from_irq(line, kformat(line, sizeof line, "tick %lu\n", ticks));
}

void arch_init(void)
{
	w32(GICD, 1);                /* distributor on */
	w32(GICC + 0x04, 0xFF);      /* priority mask: everything */
	w32(GICC, 1);                /* CPU interface on */
}

void arch_ticks_start(void)
{
	gic_enable_ppi(TICK_INTID, GIC_LEVEL);
	tick_rearm();
	__asm__ volatile("msr cntp_ctl_el0, %0; isb" : : "r"(1ul));
}

void arch_ticks_stop(void)
{
	__asm__ volatile("msr cntp_ctl_el0, %0; isb" : : "r"(0ul));
	printk("kernel-make: %lu ticks of its own, %lu lines\n", ticks, ticks / PRINT_EVERY);
}

void fault(uint64_t esr, uint64_t elr, uint64_t far)
{
	printk("kernel: exception esr=0x%lx elr=0x%lx far=0x%lx\n", (unsigned long)esr,
	       (unsigned long)elr, (unsigned long)far);
	machine_exit(99);
}

void machine_exit(int code)
{
	(void)code;   /* PSCI SYSTEM_OFF has no status: the END frame carries it */
	register uint64_t x0 __asm__("x0") = 0x84000008;
	__asm__ volatile("hvc #0" : "+r"(x0) : : "memory");
	for (;;)
		__asm__ volatile("wfi");
}
