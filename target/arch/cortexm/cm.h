/* SPDX-License-Identifier: BSD-2-Clause */
/* Cortex-M system registers the sampler needs (Armv7-M / Armv8-M System Control Space).
 * Private to target/arch/cortexm. */
#ifndef BMPROF_ARCH_CM_H
#define BMPROF_ARCH_CM_H

#include <stdint.h>

#define CM_SYST_CSR 0xE000E010u    /* SysTick control and status */
#define CM_SYST_RVR 0xE000E014u    /* reload value (24 bits) */
#define CM_SYST_CVR 0xE000E018u    /* current value; a write clears it and COUNTFLAG */
#define CM_CPUID 0xE000ED00u
#define CM_ICSR 0xE000ED04u
#define CM_SHPR3 0xE000ED20u

#define CM_CSR_ENABLE (1u << 0)
#define CM_CSR_TICKINT (1u << 1)
#define CM_CSR_CLKSOURCE (1u << 2)   /* the processor clock */
#define CM_CSR_COUNTFLAG (1u << 16)
#define CM_ICSR_PENDSTCLR (1u << 25)
#define CM_SYST_MAX 0x01000000u      /* ticks of one SysTick period at most */

static inline uint32_t cm_read(uintptr_t a) { return *(volatile uint32_t *)a; }
static inline void cm_write(uintptr_t a, uint32_t v) { *(volatile uint32_t *)a = v; }

static inline uint32_t cm_irq_save(void)
{
	uint32_t f;
	__asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(f) : : "memory");
	return f;
}
static inline void cm_irq_restore(uint32_t f)
{
	__asm__ volatile("msr primask, %0" : : "r"(f) : "memory");
}
static inline void cm_irq_enable(void) { __asm__ volatile("cpsie i" : : : "memory"); }
static inline void cm_irq_disable(void) { __asm__ volatile("cpsid i" : : : "memory"); }

/* ops.c: the ops table; SysTick set running free as the timebase (TICKINT on, so each
 * wrap is counted); the time with interrupts masked; whether a deadline is armed (else a
 * SysTick interrupt is only a wrap); whether it was further than one SysTick period (then
 * the interrupt only re-arms). */
struct bmprof_sampler_ops;
const struct bmprof_sampler_ops *cm_ops(void);
void cm_timebase_start(void);
uint64_t cm_now_masked(void);
int cm_armed(void);
int cm_short_of_deadline(void);
void cm_rearm(void);

/* sampler.c: the ops' unwind */
struct bmprof_regs;
struct bmprof_unwind_env;
unsigned cm_stack_unwind(const struct bmprof_regs *r, const struct bmprof_unwind_env *e,
			 uint64_t *out, unsigned max, int *more);

/* cpuinfo.c */
struct bmprof_hello;
void cm_cpuinfo(struct bmprof_hello *h);

#endif
