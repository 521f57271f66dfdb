/* SPDX-License-Identifier: BSD-2-Clause */
/* The AArch64 harness's clock (arch.h): the PMU cycle counter PMCCNTR_EL0 where there is
 * a PMUv3, else the generic timer's CNTVCT_EL0 with the calibration block beside every
 * block. */
#include "bmrt.h"
#include "harness.h"

const char arch_clock[] = "cntvct";

/* The calibration block (generic timer only): dependent register adds, add x0, x0, x1 */
static uint32_t cal[BHIVE_CAL_ADDS];

/* PMUv3 present: ID_AA64DFR0_EL1.PMUVer neither 0 (none) nor 0xF (IMPLEMENTATION DEFINED) */
static int pmc_present(void)
{
	uint64_t v;

	__asm__ volatile("mrs %0, id_aa64dfr0_el1" : "=r"(v));
	v = v >> 8 & 0xF;
	return v != 0 && v != 0xF;
}

/* Written pages with a frame each: as many as L1D holds in one set beside the shared
 * frame and the scratch page, from CCSIDR_EL1 of level 1 data (its associativity field
 * 21 bits wide with FEAT_CCIDX, else 10) */
unsigned arch_write_frames(void)
{
	uint64_t ccsidr, mmfr2, ways;

	__asm__ volatile("msr csselr_el1, xzr; isb; mrs %0, ccsidr_el1" : "=r"(ccsidr));
	__asm__ volatile("mrs %0, id_aa64mmfr2_el1" : "=r"(mmfr2));
	ways = (ccsidr >> 3 & ((mmfr2 >> 20 & 0xF) ? 0x1FFFFF : 0x3FF)) + 1;
	return ways > 3 ? (unsigned)(ways - 2) : 1;
}

int arch_start(void)
{
	int pmc;

	irq_off();
	/* the runtime's sampling timers stopped: an interrupt pending (masked) would make
	 * WFI at EL0 complete at once instead of trapping, from whenever the timer fired */
	__asm__ volatile("msr cntv_ctl_el0, xzr; msr cntp_ctl_el0, xzr; isb" : : : "memory");
	pmc = pmc_present();
	run_init(pmc, 1);
	for (unsigned i = 0; i < BHIVE_CAL_ADDS; i++)
		cal[i] = 0x8B010000u;                  /* add x0, x0, x1 */
	return pmc;
}

const void *arch_cal(unsigned *len)
{
	*len = sizeof cal;
	return cal;
}
