/* SPDX-License-Identifier: BSD-2-Clause */
/* Weak stand-ins for everything doc_env.h declares, so each example of the docs links on
 * its own (tests/e2e/test_docs.sh): the link then fails only on a name the example gets
 * wrong, a bmprof function that does not exist among them. Never run. */
#include <stdint.h>

#include "doc_env.h"

#define WEAK __attribute__((weak))

WEAK size_t uart_send(const void *buf, size_t len) { (void)buf; return len; }
WEAK void printk(const char *fmt, ...) { (void)fmt; }
WEAK void cpu_relax(void) {}
WEAK void profiling_begin(void) {}
WEAK void profiling_end(int status) { (void)status; }
WEAK void idt_set_interrupt_gate(unsigned vector, void (*entry)(void)) { (void)vector; (void)entry; }
WEAK void idt_set_interrupt_gate_ist(unsigned vector, void (*entry)(void), unsigned ist)
{
	(void)vector;
	(void)entry;
	(void)ist;
}
WEAK void gic_enable_ppi(uint32_t intid, int trigger) { (void)intid; (void)trigger; }
WEAK uint32_t gic_ack(void) { return 1023; }
WEAK void gic_eoi(uint32_t intid) { (void)intid; }
WEAK void dispatch(uint32_t intid) { (void)intid; }
WEAK void scheduler_tick(void) {}
WEAK void panic(const char *why) { (void)why; for (;;) ; }
WEAK void load_gdt_and_tss(unsigned cpu) { (void)cpu; }
WEAK void load_idt(void) {}
WEAK void report_up(unsigned cpu, int err) { (void)cpu; (void)err; }
WEAK void wait_until_announced(void) {}
WEAK void idle_loop(void) { for (;;) ; }
WEAK int console_trylock(void) { return 1; }
WEAK void console_unlock(void) {}
WEAK void console_print(const char *s, size_t n) { (void)s; (void)n; }
WEAK void console_print_from_irq(const char *s, size_t n) { (void)s; (void)n; }
WEAK int console_out_begin(void) { return 0; }
WEAK void console_out_end(void) {}
WEAK const uint8_t __build_id_start[20];
WEAK const uint8_t __build_id_end[1];

WEAK void *memcpy(void *d, const void *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		((char *)d)[i] = ((const char *)s)[i];
	return d;
}

WEAK void *memset(void *d, int c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		((char *)d)[i] = (char)c;
	return d;
}

WEAK void _start(void) { for (;;) ; }
