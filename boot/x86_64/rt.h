/* Internals of the x86-64 boot runtime. */
#ifndef BMRT_RT_H
#define BMRT_RT_H

#include <stddef.h>
#include <stdint.h>
#include "bmprof.h"
#include "wire.h"

static inline void outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}
static inline void outw(uint16_t port, uint16_t v)
{
	__asm__ volatile("outw %0, %1" : : "a"(v), "Nd"(port));
}
static inline uint8_t inb(uint16_t port)
{
	uint8_t v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}
static inline void cli(void) { __asm__ volatile("cli" : : : "memory"); }
static inline void sti(void) { __asm__ volatile("sti" : : : "memory"); }

/* Saved by isr.S, lowest address first. */
struct bmrt_regs {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rdi, rsi, rbp, rbx, rdx, rcx, rax;
	uint64_t vector, error;
	uint64_t rip, cs, rflags, rsp, ss;   /* pushed by the CPU */
};

/* Values written to the isa-debug-exit port; QEMU exits with (value << 1) | 1. */
#define BMRT_EXIT_MAX_CODE 123    /* main's 0..123 is written as 1 + code */
#define BMRT_EXIT_OTHER 125       /* main returned something outside 0..123 */
#define BMRT_EXIT_PANIC 126       /* the runtime could not set up sampling */
#define BMRT_EXIT_EXCEPTION 127   /* an unhandled CPU exception */

/* exception.c */
_Noreturn void bmrt_exception(struct bmrt_regs *r);

/* desc.c, paging.c */
void bmrt_desc_init(void);
void bmrt_paging_init(void);

/* uart.c: the 16550 at COM1; uart_write() is the bmprof_out sink */
void uart_init(void);
void uart_putc(char c);
int uart_at_line_start(void);
extern const struct bmprof_out bmrt_out;

/* fwcfg.c: copy up to cap bytes of fw_cfg file name into buf; returns the file's full
 * length, or -1 if there is no fw_cfg or no such file */
int fwcfg_read_file(const char *name, char *buf, size_t cap);

/* config.c */
struct bmrt_config {
	uint32_t freq;
	uint8_t timer;
};
void bmrt_config_load(struct bmrt_config *cfg);

/* buildid.c */
uint8_t bmrt_build_id(const uint8_t **id);

/* finish.c */
_Noreturn void bmrt_finish(const struct bmprof_end *end, uint8_t exit_value);

/* poweroff.c */
_Noreturn void bmrt_poweroff(uint8_t exit_value);

#endif
