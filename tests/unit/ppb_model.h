/* SPDX-License-Identifier: BSD-2-Clause */
/* A model of the M-profile Private Peripheral Bus registers bmprof's Cortex-M code touches,
 * with the semantics the Armv7-M ARM (C1.6 debug, C1.7 ITM, C1.8 DWT) and the Armv8.1-M
 * ARM (D1.2 PMU) give them, for running the target code (transport/target/itm.c,
 * target/arch/cortexm/) on the host. It supplies the accessors the code calls
 * (mmio_rd32, mmio_wr32, mmio_wr16, mmio_wr8) and logs every write.
 *
 * Parts: DEMCR, DHCSR, DFSR always; the ITM, DWT and PMU when the board has them. With
 * PM_QEMU a part the board lacks is RAZ/WI (what QEMU 7.2's MPS2/MPS3 boards do for the
 * ITM and DWT); else an access to a register the board lacks fails the test, as does an
 * access to an address the model does not know.
 *
 * ITM: registers ignore writes until ITM_LAR is unlocked and while DEMCR.TRCENA is clear;
 * a stimulus write with ITMENA and the port's TER bit set becomes an instrumentation
 * packet (header, 1/2/4 payload bytes) in pm.swo, as the TPIU would send it. pm.busy makes
 * that many stimulus reads return FIFOREADY clear first.
 *
 * PMU: pm_count(ctr, n) (ctr < 31 event counter, 31 the cycle counter) counts n events
 * when PMU_CTRL.E and the counter's CNTENSET bit are set and DEMCR.TRCENA is on; a wrap sets
 * its overflow bit and, with its INTENSET bit and DEMCR.MON_EN, DFSR.PMU and DEMCR.MON_PEND
 * (the DebugMonitor exception is pending) and pm.debugmon++.
 *
 * Included (#include "ppb_model.c") by the tests that use it, so it needs no build rule. */
#ifndef PPB_MODEL_H
#define PPB_MODEL_H

#include <stddef.h>
#include <stdint.h>

#define BMPROF_MMIO_MODEL 1

enum pm_lack { PM_STRICT = 0, PM_QEMU = 1 };

struct pm_board {
	const char *name;
	int itm, dwt, nocyccnt;   /* parts present; DWT without a cycle counter */
	unsigned pmu_n;           /* PMU event counters (0: no PMU) */
	unsigned pmu_width;       /* their width */
	int pmu_cc;               /* PMU cycle counter */
	uint8_t lack;             /* enum pm_lack */
};

extern const struct pm_board pm_m3;        /* ITM, DWT with CYCCNT, no PMU */
extern const struct pm_board pm_m0plus_like; /* a DWT without CYCCNT */
extern const struct pm_board pm_m55;       /* ITM, DWT, PMU: 8 16-bit counters + cycle counter */
extern const struct pm_board pm_qemu;      /* QEMU mps2/mps3: no ITM, DWT or PMU, RAZ/WI */

struct pm_write {
	uint32_t addr, val;
	uint8_t size;
};

#define PM_LOG_MAX 4096
#define PM_SWO_MAX 65536

struct pm_state {
	const struct pm_board *b;
	uint32_t demcr, dhcsr, dfsr;
	/* ITM */
	uint32_t itm_tcr, itm_tpr, itm_ter[8];
	int itm_locked;
	unsigned busy;               /* stimulus reads that return not ready */
	uint8_t swo[PM_SWO_MAX];
	size_t nswo;
	/* DWT */
	uint32_t dwt_ctrl, cyccnt;
	/* PMU */
	uint32_t evcntr[31], evtyper[31], ccntr, cnten, inten, ovs, pmu_ctrl;
	unsigned debugmon;
	/* the log */
	struct pm_write log[PM_LOG_MAX];
	unsigned nlog;
	unsigned reads;
};
extern struct pm_state pm;

void pm_reset(const struct pm_board *b);
void pm_count(unsigned ctr, uint64_t n);
/* Compare the writes since the last pm_log_clear() with want[0..n). */
void pm_expect(const struct pm_write *want, unsigned n);
void pm_log_clear(void);

uint32_t mmio_rd32(uint32_t a);
void mmio_wr32(uint32_t a, uint32_t v);
void mmio_wr16(uint32_t a, uint16_t v);
void mmio_wr8(uint32_t a, uint8_t v);

#endif
