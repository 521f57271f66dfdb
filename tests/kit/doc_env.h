/* SPDX-License-Identifier: BSD-2-Clause */
/* What the code examples of docs/integration-*.md assume of "your kernel": the drivers and
 * helpers they call, declared here once. The doc test (tests/e2e/test_docs.sh) compiles
 * every marked example with this header forced in (-include) and links it against
 * doc_env_stubs.c; the kit's test kernels (tests/kit/kernel-*) implement what their
 * examples call, with these declarations. */
#ifndef DOC_ENV_H
#define DOC_ENV_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* console */
size_t uart_send(const void *buf, size_t len);   /* bytes sent */
void printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cpu_relax(void);                           /* a spin-wait hint: pause, yield */

/* the examples' profiling_begin and profiling_end */
void profiling_begin(void);
void profiling_end(int status);

/* the registers an interrupt stub saved, and where the interrupt returns to */
#if defined(__x86_64__)
struct trap_frame {
	uint64_t r11, r10, r9, r8, rdi, rsi, rdx, rcx, rax;
	uint64_t rip, cs, rflags, rsp, ss;
};
#elif defined(__aarch64__)
struct trap_frame {
	uint64_t x[19];
	uint64_t fp, lr;
	uint64_t elr, spsr;
};
#endif

/* x86-64: the IDT */
void idt_set_interrupt_gate(unsigned vector, void (*entry)(void));
void idt_set_interrupt_gate_ist(unsigned vector, void (*entry)(void), unsigned ist);
/* AArch64: a GIC driver */
#define GIC_LEVEL 1
void gic_enable_ppi(uint32_t intid, int trigger);
uint32_t gic_ack(void);
void gic_eoi(uint32_t intid);
void dispatch(uint32_t intid);         /* the kernel's own interrupts */

void scheduler_tick(void);
__attribute__((noreturn)) void panic(const char *why);

/* bring-up of the other CPUs */
void load_gdt_and_tss(unsigned cpu);
void load_idt(void);
void report_up(unsigned cpu, int err);
void wait_until_announced(void);
__attribute__((noreturn)) void idle_loop(void);

/* the console lock of docs/integration-x86_64.md, "Sharing the stream" */
int console_trylock(void);
void console_unlock(void);
void console_print(const char *s, size_t n);
void console_print_from_irq(const char *s, size_t n);
int console_out_begin(void);
void console_out_end(void);

#ifdef __cplusplus
}
#endif

#endif
