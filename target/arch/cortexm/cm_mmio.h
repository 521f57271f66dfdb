/* SPDX-License-Identifier: BSD-2-Clause */
/* 32-bit accesses to the M-profile Private Peripheral Bus (System Control Space, DWT, PMU).
 * A host test defines BMPROF_MMIO_MODEL and supplies mmio_rd32/mmio_wr32 over a register
 * model (tests/unit/ppb_model.c) before including the drivers. */
#ifndef BMPROF_CM_MMIO_H
#define BMPROF_CM_MMIO_H

#include <stdint.h>

#ifndef BMPROF_MMIO_MODEL
static inline uint32_t mmio_rd32(uint32_t a)
{
	return *(volatile uint32_t *)(uintptr_t)a;
}

static inline void mmio_wr32(uint32_t a, uint32_t v)
{
	*(volatile uint32_t *)(uintptr_t)a = v;
}
#endif

/* Debug registers (Armv7-M ARM C1.6, Armv8-M ARM D1.2) */
#define CM_DHCSR 0xE000EDF0u
#define CM_DHCSR_C_DEBUGEN (1u << 0)
#define CM_DEMCR 0xE000EDFCu
#define CM_DEMCR_MON_EN (1u << 16)
#define CM_DEMCR_MON_PEND (1u << 17)
#define CM_DEMCR_TRCENA (1u << 24)
#define CM_DFSR 0xE000ED30u
#define CM_DFSR_PMU (1u << 5)     /* Armv8.1-M: a PMU overflow raised the DebugMonitor */

#endif
