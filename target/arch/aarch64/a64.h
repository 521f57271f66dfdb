/* AArch64 instructions and registers the sampler needs. Private to target/arch/aarch64. */
#ifndef BMPROF_ARCH_A64_H
#define BMPROF_ARCH_A64_H

#include <stdint.h>

#define a64_read(reg) ({ uint64_t v_; __asm__ volatile("mrs %0, " #reg : "=r"(v_)); v_; })
#define a64_write(reg, v) __asm__ volatile("msr " #reg ", %0" : : "r"((uint64_t)(v)) : "memory")

static inline void a64_isb(void) { __asm__ volatile("isb" : : : "memory"); }
static inline void a64_dsb(void) { __asm__ volatile("dsb sy" : : : "memory"); }

/* IRQ mask (DAIF.I). */
static inline uint64_t a64_irq_save(void)
{
	uint64_t f = a64_read(daif);
	__asm__ volatile("msr daifset, #2" : : : "memory");
	return f;
}
static inline void a64_irq_restore(uint64_t f) { a64_write(daif, f); }
static inline void a64_irq_enable(void) { __asm__ volatile("msr daifclr, #2" : : : "memory"); }
static inline void a64_irq_disable(void) { __asm__ volatile("msr daifset, #2" : : : "memory"); }

static inline uint32_t mmio_read32(uintptr_t a) { return *(volatile uint32_t *)a; }
static inline void mmio_write32(uintptr_t a, uint32_t v) { *(volatile uint32_t *)a = v; }
static inline uint8_t mmio_read8(uintptr_t a) { return *(volatile uint8_t *)a; }
static inline void mmio_write8(uintptr_t a, uint8_t v) { *(volatile uint8_t *)a = v; }

/* GIC (gic.c): a minimal driver for one CPU's PPIs. */
int gic_setup(uint8_t want, uintptr_t gicd, uintptr_t gicc, uintptr_t gicr);  /* version or -1 */
void gic_ppi(uint32_t intid, int enable);
uint32_t gic_ack(void);          /* INTID; 1020..1023: nothing to acknowledge */
void gic_eoi(uint32_t intid);

/* Generic timer (timer.c), times in CNTFRQ ticks. */
uint64_t timer_now(uint8_t which);
void timer_set(uint8_t which, uint64_t cval);   /* enable, unmasked, fire at cval */
void timer_off(uint8_t which);

/* PMUv3 (pmu.c). Counter index 31 is the cycle counter. */
#define PMU_CYCLE_IDX 31u
uint8_t pmu_version(void);
uint32_t pmu_counters(void);
void pmu_events_implemented(uint64_t pmceid[2]);
void pmu_program(uint32_t idx, uint16_t number);  /* event type, counting EL0 and EL1 */
uint64_t pmu_read(uint32_t idx);
void pmu_write(uint32_t idx, uint64_t v);
void pmu_enable(uint32_t mask);                   /* counters, their interrupts, PMCR.E */
void pmu_disable(uint32_t mask);
uint32_t pmu_overflowed(uint32_t mask);           /* and clears those overflow bits */

/* CPU identity (cpuinfo.c) */
struct bmprof_hello;
void cpuinfo_fill(struct bmprof_hello *h);

#endif
