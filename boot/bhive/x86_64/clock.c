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

/* Written pages with a frame each: as many as L1D holds in one set beside the shared
 * frame, the scratch page and the steal-time page (a 4 KiB page covers every set once
 * where sets x line size is 4 KiB), from CPUID leaf 4; 8 ways when it does not say. */
unsigned arch_write_frames(void)
{
	uint32_t a, b, c, d, max, ways = 8;

	__asm__ volatile("cpuid" : "=a"(max), "=b"(b), "=c"(c), "=d"(d) : "a"(0), "c"(0));
	for (uint32_t i = 0; max >= 4 && i < 8; i++) {
		__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(4), "c"(i));
		uint32_t type = a & 0x1F, level = a >> 5 & 7;
		if (!type)
			break;
		if ((type == 1 || type == 3) && level == 1) {   /* data or unified L1 */
			ways = (b >> 22 & 0x3FF) + 1;
			break;
		}
	}
	return ways > 4 ? ways - 3 : 1;
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
