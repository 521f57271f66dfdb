/* SPDX-License-Identifier: BSD-2-Clause */
/* Internals of the x86-64 boot runtime. */
#ifndef BMRT_RT_H
#define BMRT_RT_H

#include <stddef.h>
#include <stdint.h>
#include "bmprof.h"
#include "bmprof_x86_64.h"
#include "wire.h"
#include "../common/rt_common.h"

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
static inline void cpu_relax(void) { __asm__ volatile("pause" : : : "memory"); }
static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return (uint64_t)hi << 32 | lo;
}
static inline void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32))
			 : "memory");
}

/* Saved by isr.S, lowest address first. */
struct bmrt_regs {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rdi, rsi, rbp, rbx, rdx, rcx, rax;
	uint64_t vector, error;
	uint64_t rip, cs, rflags, rsp, ss;   /* pushed by the CPU */
};

/* exception.c: returns only when the fault was a probing MSR access (its RIP moved to
 * the recovery path); else ends the run */
void bmrt_exception(struct bmrt_regs *r);
/* A program's own exception handling (bmprof bhive's harness), called first with the frame
 * of any CPU exception, on the stack and page tables the exception arrived on: 1 when it
 * handled it (the frame then says where to resume), 0 for the runtime's handling. */
extern int (*bmrt_exception_hook)(struct bmrt_regs *r);

/* desc.c: the IDT and the GDT with one TSS per CPU (IST1 #DF, IST2 NMI and #MC), and the
 * ring-3 code and data segments */
#define BMRT_IPI_VECTOR 0xF0      /* the runtime's wake-up and stop IPI */
#define BMRT_SEL_UDATA (0x18 | 3)
#define BMRT_SEL_UCODE (0x20 | 3)
void bmrt_desc_init(void);        /* first CPU: build the tables and load them */
void bmrt_desc_load(unsigned cpu);   /* any other CPU: load them with its own TSS */
void bmrt_desc_set_rsp0(unsigned cpu, uint64_t rsp);   /* the stack ring 3 enters ring 0 on */

/* paging.c: page 0 and every CPU's stack guard page unmapped, the LAPIC uncached.
 * bmrt_paging_user: the image's memory (not page 0, not the guard pages) open to ring 3. */
void bmrt_paging_init(void);
void bmrt_paging_user(void);
int bmrt_is_guard_page(uint64_t addr);

/* user.c: main in ring 3 (config user=1). bmrt_user_run enters ring 3 on a stack of its
 * own, measures the core clock there, comes back to ring 0 (bmrt_user_call) to start
 * sampling (bmrt_begin_sampling), and runs main; ring 3 comes back the same way to end
 * the run, send an IPI, park or write console text. The exception handler hands every
 * exception to bmrt_user_trap first: 1 when it was bmrt_user_call's (served). */
#define BMRT_USER_STACK (256u * 1024)
extern uint8_t bmrt_user_stack[4096 + BMRT_USER_STACK];
_Noreturn void bmrt_user_run(void);
int bmrt_in_user(void);                          /* running in ring 3 */
enum { BMRT_UCALL_READY, BMRT_UCALL_FINISH, BMRT_UCALL_IPI, BMRT_UCALL_PARK,
       BMRT_UCALL_CONSOLE, BMRT_UCALL_PROBE, BMRT_UCALL_PHASE };
uint64_t bmrt_user_call(uint64_t op, uint64_t a, uint64_t b);
int bmrt_user_trap(struct bmrt_regs *r);
void bmrt_uart_user_flush(void);   /* ring 3's console text out (from either ring) */

/* corehz.c: timebase ticks of the fastest of a few runs of BMRT_CHAIN_ADDS dependent
 * adds (one cycle each), in the privilege level it is called in; the core clock is
 * BMRT_CHAIN_ADDS * tsc_hz / ticks. 0 when the code runs too slowly to be native. */
#define BMRT_CHAIN_ADDS 10000000ull
uint64_t bmrt_chain_ticks(uint64_t tsc_hz);

/* steal.c: KVM steal time on CPU 0 where the hypervisor offers it (ring 0, after
 * bmprof_x86_init: handed to the sampler); bmrt_steal_ns reads it, from either ring. */
void bmrt_steal_init(void);
uint64_t bmrt_steal_ns(void);
const volatile uint64_t *bmrt_steal_word(void);   /* NULL without it */


/* start.c: HELLO with the core clock measured (ticks from bmrt_chain_ticks), then every
 * CPU starts sampling */
void bmrt_begin_sampling(uint64_t chain_ticks);

/* uart.c: the 16550 at COM1 (rt_common.h declares its functions). Callers hold the UART
 * lock (uartlock.c). With main in ring 3, uart_putc hands ring 3's characters to
 * bmrt_uart_divert (user.c collects them; bmrt_uart_user_flush sends them through ring 0,
 * where bmrt_uart_user_text writes them). */
extern int (*bmrt_uart_divert)(char c);
void bmrt_uart_user_text(const char *s, uint64_t n);

/* uartlock.c: one CPU at a time writes the UART, whole frames and whole console calls. A
 * ticket lock, taken and held with interrupts enabled; a CPU that holds it may take it
 * again (an exception while it writes). bmrt_uart_out_begin/end are the sampler's
 * out_begin/out_end: its interrupt-exit drain skips (leaves the buffers full) when this
 * CPU waits for or holds the lock already. bmrt_console_begin/end (rt_common.h) take it
 * and let it go for console output. */
void bmrt_uart_lock(void);
void bmrt_uart_unlock(void);
int bmrt_uart_out_begin(void);
void bmrt_uart_out_end(void);
int bmrt_uart_busy(unsigned cpu);     /* cpu waits for or holds the lock */
void bmrt_uart_force_unlock(void);    /* release it if this CPU holds it, at any depth */

/* apic.c: this CPU's APIC ID, the EOI, and inter-processor interrupts */
#define BMRT_ICR_FIXED 0x4000u        /* | vector; level assert */
#define BMRT_ICR_INIT 0x4500u
#define BMRT_ICR_STARTUP 0x4600u      /* | the start page (address >> 12) */
void bmrt_apic_init(void);
uint32_t bmrt_apic_id(void);
void bmrt_apic_eoi(void);
void bmrt_apic_send(uint32_t apic_id, uint32_t icr);

/* acpi.c: the APIC IDs of the enabled processors the ACPI MADT lists, in its order, at
 * most cap of them; returns how many it lists (may be more than cap), or -1 if no valid
 * RSDP and MADT were found. Reads the BIOS data area: call before bmrt_paging_init. */
int bmrt_acpi_cpus(uint32_t *ids, unsigned cap);

/* smp.c: the other CPUs. bmrt_smp_start brings up every CPU the MADT lists (up to
 * BMPROF_X86_MAX_CPUS in all), each sets itself up for sampling and waits;
 * bmrt_smp_go starts their sampling. bmrt_smp_stop_others stops every other CPU (a CPU
 * that holds the UART lock or drains first finishes that) and returns the mask of CPUs
 * now quiescent (parked with sampling stopped), this CPU included. cpu_wait_ms bounds
 * each wait for another CPU, to check in and to stop. */
#define BMRT_AP_TRAMPOLINE 0x8000u
#define BMRT_AP_STACK (64u * 1024)
void bmrt_smp_find(void);
void bmrt_smp_start(uint32_t cpu_wait_ms);
void bmrt_smp_go(void);
unsigned bmrt_cpu(void);              /* this CPU's index (0 before the sampler is set up) */
uint64_t bmrt_smp_stop_others(void);
uint32_t bmrt_smp_wait_ms(void);     /* the CPU wait bmrt_smp_start was given */
_Noreturn void bmrt_smp_park(void);   /* this CPU: stop sampling, never run again */
void bmrt_smp_ipi(void);              /* the IPI handler (isr.S), interrupts disabled */
void bmrt_smp_after_unlock(unsigned cpu);   /* parks cpu if a stop waited for the lock */

/* pci.c: transport=shm: the rings in the ivshmem device's memory, one per CPU (or a
 * message saying why not) */
void bmrt_shm_start(unsigned ncpus);

/* config.c: the settings, read by bmrt_config_read (rt_common.h) */
#define BMRT_MAX_EVENTS 16
struct bmrt_config {
	uint32_t freq;
	uint32_t flush_ms;              /* the periodic flush interval; 0: off */
	uint32_t cpu_wait_ms;           /* the longest wait for another CPU to start or stop */
	uint32_t stack_depth;           /* call stacks: frames at most per sample; 0: off */
	uint32_t raw;                   /* 1: raw samples (the interrupted registers) */
	uint8_t timer;
	uint8_t mode;                /* BMPROF_PMU_SAMPLE or _COUNT */
	uint8_t pmi;                 /* enum bmprof_x86_pmi */
	uint8_t transport;           /* BMRT_TRANSPORT_* (rt_common.h) */
	uint8_t user;                /* main in ring 3 */
	uint8_t nevents;
	const char *events[BMRT_MAX_EVENTS];   /* event= values, NUL-terminated */
};
void bmrt_config_load(struct bmrt_config *cfg);

#endif
