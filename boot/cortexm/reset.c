/* SPDX-License-Identifier: BSD-2-Clause */
/* The reset handler, on the initial MSP from the vector table: .data from its load
 * address, .bss zeroed, the FPU on where there is one (CPACR CP10/CP11 full access, and
 * its lazy state preservation left as reset sets it), faults made precise enough to report
 * (MemManage, BusFault and UsageFault enabled, divide by zero trapped), then
 * bmrt_start. */
#include "rt.h"

#define CPACR 0xE000ED88u
#define SHCSR 0xE000ED24u
#define CCR 0xE000ED14u
#define SHCSR_FAULTS (7u << 16)           /* MEMFAULTENA, BUSFAULTENA, USGFAULTENA */
#define CCR_DIV_0_TRP (1u << 4)

extern uint32_t __data_start[], __data_end[], __data_load[], __bss_start[], __bss_end[];
_Noreturn void bmrt_start(void);

__attribute__((used)) void bmrt_reset(void)
{
	uint32_t *d = __data_start;
	const uint32_t *s = __data_load;

	while (d < __data_end) {
		*d++ = *s++;
		__asm__ volatile("" : : : "memory");
	}
	for (d = __bss_start; d < __bss_end; d++) {
		*d = 0;
		__asm__ volatile("" : : : "memory");
	}
#if defined(__ARM_FP) || defined(__ARM_FEATURE_MVE)
	mmio_write32(CPACR, mmio_read32(CPACR) | 0xFu << 20);
	__asm__ volatile("dsb\n\tisb" : : : "memory");
#endif
	mmio_write32(SHCSR, mmio_read32(SHCSR) | SHCSR_FAULTS);
	mmio_write32(CCR, mmio_read32(CCR) | CCR_DIV_0_TRP);
	__asm__ volatile("dsb\n\tisb" : : : "memory");
	bmrt_start();
}
