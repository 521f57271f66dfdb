/* SPDX-License-Identifier: BSD-2-Clause */
/* Counters of M-profile cores: the Armv8.1-M PMU (Cortex-M55, M85) as a driver of the
 * neutral PMU layer (bmprof_pmu.h), and the DWT cycle counter of Armv7-M / Armv8-M.
 * docs/cortex-m-trace.md describes both. Freestanding. */
#ifndef BMPROF_CM_PMU_H
#define BMPROF_CM_PMU_H

#include <stdint.h>
#include "bmprof_pmu.h"

/* Armv8.1-M PMU common events, numbered as in Arm's machine-readable PMU data
 * (pmu/common_armv8.json; on the host analysis/events/arm_events.tsv) */
#define BMPROF_CM_SW_INCR 0x0000u
#define BMPROF_CM_L1I_CACHE_REFILL 0x0001u
#define BMPROF_CM_L1D_CACHE_REFILL 0x0003u
#define BMPROF_CM_L1D_CACHE 0x0004u
#define BMPROF_CM_LD_RETIRED 0x0006u
#define BMPROF_CM_ST_RETIRED 0x0007u
#define BMPROF_CM_INST_RETIRED 0x0008u
#define BMPROF_CM_EXC_TAKEN 0x0009u
#define BMPROF_CM_EXC_RETURN 0x000Au
#define BMPROF_CM_PC_WRITE_RETIRED 0x000Cu
#define BMPROF_CM_BR_IMMED_RETIRED 0x000Du
#define BMPROF_CM_BR_RETURN_RETIRED 0x000Eu
#define BMPROF_CM_BR_MIS_PRED 0x0010u
#define BMPROF_CM_CPU_CYCLES 0x0011u
#define BMPROF_CM_BR_PRED 0x0012u
#define BMPROF_CM_MEM_ACCESS 0x0013u
#define BMPROF_CM_L1I_CACHE 0x0014u
#define BMPROF_CM_BUS_ACCESS 0x0019u
#define BMPROF_CM_BUS_CYCLES 0x001Du
#define BMPROF_CM_CHAIN 0x001Eu
#define BMPROF_CM_STALL_FRONTEND 0x0023u
#define BMPROF_CM_STALL_BACKEND 0x0024u

/* The Armv8.1-M PMU (PMU_* at 0xE0003000). probe() sets DEMCR.TRCENA (the PMU is off
 * without it) and DEMCR.MON_EN, so a counter's overflow raises the DebugMonitor exception;
 * can_interrupt is 0 when MON_EN does not stick or halting debug is on (DHCSR.C_DEBUGEN:
 * a debugger owns the debug events, and the DebugMonitor is never taken). */
extern const struct bmprof_pmu_ops bmprof_pmu_v81m;

/* In the DebugMonitor handler: 1 if a PMU overflow raised it (DFSR.PMU, which this
 * clears), else 0 (a breakpoint, a watchpoint: not the profiler's). */
int bmprof_v81m_overflow_pending(void);

/* The DWT cycle counter (DWT_CTRL 0xE0001000, DWT_CYCCNT 0xE0001004). */
enum bmprof_cyccnt {
	BMPROF_CYCCNT_OK = 0,
	BMPROF_CYCCNT_NONE,       /* DWT_CTRL.NOCYCCNT: the core has no cycle counter */
	BMPROF_CYCCNT_NO_DWT,     /* writes do not stick: no DWT at all (QEMU implements none) */
	BMPROF_CYCCNT_STOPPED,    /* enabled but it does not advance */
};

/* Detect and start the cycle counter: DEMCR.TRCENA, then DWT_CYCCNT and CYCCNTENA are
 * written and read back, and the counter must move across a few reads. Returns what was
 * found; on BMPROF_CYCCNT_OK the counter runs. */
enum bmprof_cyccnt bmprof_cyccnt_start(void);
/* One line saying what was found, for the runtime's log. */
const char *bmprof_cyccnt_text(enum bmprof_cyccnt r);
uint32_t bmprof_cyccnt_read(void);

#endif
