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

int arch_start(void)
{
	int pmc;

	irq_off();
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
