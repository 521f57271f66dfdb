/* Internals of the AArch64 boot runtime. */
#ifndef BMRT_RT_H
#define BMRT_RT_H

#include <stddef.h>
#include <stdint.h>
#include "bmprof.h"
#include "bmprof_aarch64.h"
#include "wire.h"

static inline void irq_off(void) { __asm__ volatile("msr daifset, #2" : : : "memory"); }
static inline void irq_on(void) { __asm__ volatile("msr daifclr, #2" : : : "memory"); }
static inline void serror_on(void) { __asm__ volatile("msr daifclr, #4" : : : "memory"); }

static inline uint32_t mmio_read32(uintptr_t a) { return *(volatile uint32_t *)a; }
static inline void mmio_write32(uintptr_t a, uint32_t v) { *(volatile uint32_t *)a = v; }
static inline uint8_t mmio_read8(uintptr_t a) { return *(volatile uint8_t *)a; }
static inline void mmio_write16(uintptr_t a, uint16_t v) { *(volatile uint16_t *)a = v; }

/* Saved by vectors.S, lowest address first. */
struct bmrt_regs {
	uint64_t x[31];
	uint64_t sp;       /* at the exception */
	uint64_t elr, spsr, esr, far;
	uint64_t kind;     /* the vector slot: 0 sync, 1 IRQ, 2 FIQ, 3 SError */
	uint64_t pad;
};

/* Values for the QEMU exit status, (value << 1) | 1 as with x86's isa-debug-exit. */
#define BMRT_EXIT_MAX_CODE 123    /* main's 0..123 is passed as 1 + code */
#define BMRT_EXIT_OTHER 125       /* main returned something outside 0..123 */
#define BMRT_EXIT_PANIC 126       /* the runtime could not set up sampling */
#define BMRT_EXIT_EXCEPTION 127   /* an unhandled CPU exception */

/* entry.S: the exception level QEMU entered the image at (1 or 2) */
extern uint64_t bmrt_entry_el;

/* exception.c: called by vectors.S for everything but IRQs; returns only after skipping
 * a probe instruction (trap.S) the CPU refused */
void bmrt_exception(struct bmrt_regs *r);

/* trap.S: instructions that may be absent. Each returns -1 if it raised an undefined
 * instruction exception (semihosting off, no PSCI conduit). */
int64_t bmrt_semihost(uint64_t op, const void *arg);
int64_t bmrt_psci_hvc(uint64_t fn);
int64_t bmrt_psci_smc(uint64_t fn);
int bmrt_probe_skip(struct bmrt_regs *r);

/* mmu.c */
void bmrt_mmu_init(void);

/* uart.c: the PL011 at 0x09000000; uart_write() is the bmprof_out sink */
void uart_init(void);
void uart_putc(char c);
int uart_at_line_start(void);
void uart_drain(void);
extern const struct bmprof_out bmrt_out;

/* fwcfg.c: copy up to cap bytes of fw_cfg file name into buf; returns the file's full
 * length, or -1 if there is no fw_cfg or no such file */
int fwcfg_read_file(const char *name, char *buf, size_t cap);

/* config.c */
struct bmrt_config {
	uint32_t freq;
	uint8_t timer;
	uint8_t nevents;
	struct bmprof_a64_event events[BMPROF_A64_MAX_EVENTS];
};
void bmrt_config_load(struct bmrt_config *cfg);

/* buildid.c */
uint8_t bmrt_build_id(const uint8_t **id);

/* finish.c */
_Noreturn void bmrt_finish(const struct bmprof_end *end, uint8_t exit_value);

/* poweroff.c */
_Noreturn void bmrt_poweroff(uint8_t exit_value);

#endif
