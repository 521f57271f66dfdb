/* SPDX-License-Identifier: BSD-2-Clause */
/* The x86-64 harness's clock (arch.h): fixed counter 1 (core cycles) read by RDPMC where
 * there is an architectural PMU, else the TSC with the calibration block beside every
 * block; KVM's steal counter for clean timings. */
#include "bmrt.h"
#include "harness.h"

const char arch_clock[] = "tsc";

/* The calibration block: register adds (recent Intel cores fold chains of add-immediates
 * at rename, corehz.c), timed beside every block, so the TSC's ticks convert to the core
 * cycles of the moment */
static uint8_t cal[3 * BHIVE_CAL_ADDS];

static int pmc_present(void)
{
	uint32_t a, b, c, d;

	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0), "c"(0));
	if (a < 0xA)
		return 0;
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0xA), "c"(0));
	return (a & 0xFF) >= 2 && (d & 0x1F) >= 2;
}

/* Fixed counter 1 (core cycles) counting in both rings; RDPMC allowed in ring 3. */
static void pmc_enable(void)
{
	wrmsr(0x38D, rdmsr(0x38D) | 0x30);          /* IA32_FIXED_CTR_CTRL: ctr 1 OS|USR */
	wrmsr(0x38F, rdmsr(0x38F) | 1ull << 33);    /* IA32_PERF_GLOBAL_CTRL: fixed ctr 1 */
}

int arch_start(void)
{
	int pmc;

	cli();
	pmc = pmc_present();
	if (pmc)
		pmc_enable();
	bmrt_steal_init();
	run_init(pmc, 1);
	for (unsigned i = 0; i < sizeof cal; i++)
		cal[i] = (const uint8_t[3]){ 0x48, 0x01, 0xd8 }[i % 3];   /* add %rbx, %rax */
	return pmc;
}

const void *arch_cal(unsigned *len)
{
	*len = sizeof cal;
	return cal;
}
