/* SPDX-License-Identifier: BSD-2-Clause */
/* RISC-V machine-mode registers the sampler needs. Private to target/arch/riscv64. */
#ifndef BMPROF_ARCH_RV_H
#define BMPROF_ARCH_RV_H

#include <stdint.h>

#define rv_csr_read(csr) ({ uint64_t v_; __asm__ volatile("csrr %0, " #csr : "=r"(v_)); v_; })
#define rv_csr_write(csr, v) __asm__ volatile("csrw " #csr ", %0" : : "r"((uint64_t)(v)) : "memory")
#define rv_csr_set(csr, v) __asm__ volatile("csrs " #csr ", %0" : : "r"((uint64_t)(v)) : "memory")
#define rv_csr_clear(csr, v) __asm__ volatile("csrc " #csr ", %0" : : "r"((uint64_t)(v)) : "memory")

#define RV_MSTATUS_MIE (1ull << 3)
#define RV_MIE_MTIE (1ull << 7)
#define RV_MIE_LCOFIE (1ull << 13)

/* mstatus.MIE */
static inline uint64_t rv_irq_save(void)
{
	uint64_t v;
	__asm__ volatile("csrrci %0, mstatus, 8" : "=r"(v) : : "memory");
	return v & RV_MSTATUS_MIE;
}
static inline void rv_irq_restore(uint64_t f)
{
	if (f & RV_MSTATUS_MIE)
		__asm__ volatile("csrsi mstatus, 8" : : : "memory");
}
static inline void rv_irq_enable(void) { __asm__ volatile("csrsi mstatus, 8" : : : "memory"); }
static inline void rv_irq_disable(void) { __asm__ volatile("csrci mstatus, 8" : : : "memory"); }

/* The CLINT (ops.c): mtime and this hart's mtimecmp. */
void rv_clint_setup(uintptr_t clint);
uint64_t rv_mtime(void);

/* The ops under the neutral sampler (ops.c). */
struct bmprof_sampler_ops;
extern const struct bmprof_sampler_ops rv_ops;

/* The hpm counters (pmu_sscof.c): mhpmcounter3 + i for i < n exist; ovf: Sscofpmf. */
struct bmprof_pmu_ops;
extern const struct bmprof_pmu_ops bmprof_pmu_sscof;
void rv_pmu_set(unsigned n, int ovf);

#endif
