/* SPDX-License-Identifier: BSD-2-Clause */
/* AArch64 instructions and registers the sampler needs. Private to target/arch/aarch64. */
#ifndef BMPROF_ARCH_A64_H
#define BMPROF_ARCH_A64_H

#include <stdint.h>

#define a64_read(reg) ({ uint64_t v_; __asm__ volatile("mrs %0, " #reg : "=r"(v_)); v_; })
#define a64_write(reg, v) __asm__ volatile("msr " #reg ", %0" : : "r"((uint64_t)(v)) : "memory")

static inline void a64_isb(void) { __asm__ volatile("isb" : : : "memory"); }
static inline void a64_dsb(void) { __asm__ volatile("dsb sy" : : : "memory"); }
static inline void a64_sev(void) { __asm__ volatile("dsb ish; sev" : : : "memory"); }

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

/* GIC (gic.c): a minimal driver for each CPU's SGIs and PPIs. */
struct gic_cpu {
	uintptr_t rd;          /* GICv3: this CPU's redistributor */
	uint32_t affinity;     /* MPIDR_EL1 Aff3.Aff2.Aff1.Aff0 */
	uint8_t v2_target;     /* GICv2: this CPU interface's bit in an SGI target list */
};
int gic_setup(uint8_t want, uintptr_t gicd, uintptr_t gicc);   /* version, or -1 */
int gic_cpu_setup(struct gic_cpu *c, uintptr_t gicr);           /* on that CPU; 0 or -1 */
void gic_private(const struct gic_cpu *c, uint32_t intid, int enable);   /* on that CPU */
void gic_sgi(const struct gic_cpu *to, uint32_t intid);
uint32_t gic_ack(void);          /* raw; gic_intid() of it 1020..1023: nothing acknowledged */
uint32_t gic_intid(uint32_t ack);
void gic_eoi(uint32_t ack);

/* The ops under the neutral sampler (ops.c): the table for the timer in use; a PPI of the
 * sampler's enabled or disabled on CPU idx (this CPU) in bmprof's GIC or through the
 * integrator's irq_enable (0 if neither can); the generic timer `which` disabled; each
 * CPU's GIC CPU interface or redistributor. */
struct bmprof_sampler_ops;
const struct bmprof_sampler_ops *a64_ops(uint8_t timer, uint16_t timer_intid,
					 uint16_t pmu_intid, uint8_t gic,
					 void (*irq_enable_fn)(uint32_t, int));
int a64_ppi(unsigned idx, uint32_t intid, int enable);
void a64_timer_off(uint8_t which);
extern struct gic_cpu a64_gic[];

/* PMUv3 (pmu_v3.c): bmprof_pmu_v3 is the driver for the neutral PMU layer. */
struct bmprof_pmu_ops;
extern const struct bmprof_pmu_ops bmprof_pmu_v3;
uint8_t pmu_version(void);
int pmu_present(void);                            /* PMUv3 (not absent, not IMPDEF) */
uint32_t pmu_counters(void);
void pmu_events_implemented(uint64_t pmceid[2]);
uint8_t pmu_v3_probe_irq(uint64_t cntfrq);   /* the PMU's PPI enabled, IRQs masked */
void pmu_v3_forget_irq(void);

/* CPU identity (cpuinfo.c) */
struct bmprof_hello;
void cpuinfo_fill(struct bmprof_hello *h);

/* bmprof_a64_irq_entry's C half: its 272-byte frame (irq_entry.S). */
void bmprof_a64_irq_frame(const uint64_t *frame);

#endif
