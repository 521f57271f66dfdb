/* SPDX-License-Identifier: BSD-2-Clause */
/* x86-64 instructions the sampler needs, as inline functions. Private to target/arch. */
#ifndef BMPROF_ARCH_X86_H
#define BMPROF_ARCH_X86_H

#include <stdint.h>

static inline uint8_t x86_inb(uint16_t port)
{
	uint8_t v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void x86_outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint64_t x86_rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static inline uint64_t x86_rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return (uint64_t)hi << 32 | lo;
}

static inline void x86_wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)) : "memory");
}

static inline void x86_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	__asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(sub));
}

static inline void x86_cli(void) { __asm__ volatile("cli" : : : "memory"); }
static inline void x86_sti(void) { __asm__ volatile("sti" : : : "memory"); }

static inline uint64_t x86_save_flags_cli(void)
{
	uint64_t f;
	__asm__ volatile("pushfq; popq %0; cli" : "=r"(f) : : "memory");
	return f;
}

static inline void x86_restore_flags(uint64_t f)
{
	__asm__ volatile("pushq %0; popfq" : : "r"(f) : "memory", "cc");
}

/* LAPIC (lapic.c) */
#define LAPIC_ID 0x020
#define LAPIC_EOI 0x0B0
#define LAPIC_SVR 0x0F0
#define LAPIC_LVT_TIMER 0x320
#define LAPIC_LVT_PERF 0x340      /* the PMI; masked by the CPU when it delivers one */
#define LAPIC_TIMER_INIT 0x380
#define LAPIC_TIMER_CUR 0x390
#define LAPIC_TIMER_DIV 0x3E0
#define LAPIC_LVT_MASKED (1u << 16)
#define LAPIC_LVT_ONESHOT (0u << 17)
#define LAPIC_LVT_DEADLINE (2u << 17)
#define LAPIC_LVT_NMI (4u << 8)   /* delivery mode NMI (the vector is ignored) */

int lapic_setup_at(uintptr_t va);      /* first CPU: find and enable the APIC; 1 if x2APIC */
void lapic_enable_local(void);         /* any other CPU: enable its APIC in the same mode */
uint32_t lapic_id(void);               /* this CPU's APIC ID */
uint32_t lapic_read(uint32_t reg);
void lapic_write(uint32_t reg, uint32_t v);
void lapic_eoi(void);

/* Calibration (calibrate.c): both rates in Hz, measured over one PIT interval; with lapic
 * 0 the LAPIC timer is left alone and *lapic_hz is 0. */
int calibrate(uint64_t *tsc_hz, uint64_t *lapic_hz, int *tsc_from_cpuid, int lapic);

/* sampler.c: what bmprof_x86_pmi_entry calls (bmprof_x86_timer_entry calls the neutral
 * sampler's bmprof_sampler_timer_irq) */
/* The ready-made entries' C halves: the interrupt frame (RIP, CS, RFLAGS, RSP, SS) and
 * the interrupted rbp. */
void bmprof_x86_timer_frame(const uint64_t *iret, uint64_t rbp, const uint64_t *gpr);
void bmprof_x86_tick_frame(const uint64_t *iret, uint64_t rbp, const uint64_t *gpr);
void bmprof_x86_nmi_frame(const uint64_t *iret, uint64_t rbp, const uint64_t *gpr);
void bmprof_x86_pmi_frame(const uint64_t *iret, uint64_t rbp, const uint64_t *gpr);

/* The ops under the neutral sampler (ops.c): the table for the timer mode (NULL: hz too
 * low for one-shot mode's divider), and the LAPIC timer masked on this CPU. */
struct bmprof_sampler_ops;
const struct bmprof_sampler_ops *x86_ops(uint8_t timer, uint8_t vector, uint32_t lvtpc,
					 uint64_t tsc_hz, uint64_t lapic_hz, uint32_t hz);
void x86_timer_mask(void);

/* CPU identity (cpuinfo.c) */
struct bmprof_hello;
void cpuinfo_fill(struct bmprof_hello *h);
int cpu_has_apic(void);
int cpu_has_tsc_deadline(void);

#endif
