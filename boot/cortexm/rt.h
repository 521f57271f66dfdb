/* SPDX-License-Identifier: BSD-2-Clause */
/* Internals of the Cortex-M boot runtime (QEMU's MPS2 and MPS3 boards). The board's
 * constants come from mk/image-cortexm.mk as -D flags:
 *   BMRT_CM_UART        the CMSDK APB UART0's base address (secure alias on v8-M)
 *   BMRT_CM_UART_PCLK   its APB clock, Hz
 *   BMRT_CM_SYSCLK      the processor clock SysTick counts (CLKSOURCE 1), Hz
 *   BMRT_CM_MACHINE, BMRT_CM_CPU   QEMU's -M and -cpu names, for the board note */
#ifndef BMRT_CM_RT_H
#define BMRT_CM_RT_H

#include <stddef.h>
#include <stdint.h>
#include "bmprof.h"
#include "bmprof_cortexm.h"
#include "wire.h"
#include "../common/rt_common.h"

#if !defined(BMRT_CM_UART) || !defined(BMRT_CM_UART_PCLK) || !defined(BMRT_CM_SYSCLK)
#error "build the Cortex-M runtime through mk/image-cortexm.mk (board -D flags missing)"
#endif

static inline void irq_off(void) { __asm__ volatile("cpsid i" : : : "memory"); }
static inline void irq_on(void) { __asm__ volatile("cpsie i" : : : "memory"); }

static inline uint32_t mmio_read32(uintptr_t a) { return *(volatile uint32_t *)a; }
static inline void mmio_write32(uintptr_t a, uint32_t v) { *(volatile uint32_t *)a = v; }

/* uart.c: wait until everything written has gone out */
void uart_drain(void);
/* uart.c: console output runs (bmrt_console_begin .. end): the interrupt-exit drain waits */
int bmrt_console_busy(void);

/* semihost.S: an Arm semihosting call (BKPT 0xAB), r0 = op, r1 = arg */
int32_t bmrt_semihost(uint32_t op, const void *arg);

/* config.c */
#define BMRT_CM_MAX_EVENTS 4
#define BMRT_SPEC_MAX 64
struct bmrt_config {
	uint32_t freq;
	uint32_t flush_ms;
	uint32_t cpu_wait_ms;           /* read for the common keys; one CPU */
	uint32_t stack_depth;
	uint32_t raw;                   /* must stay 0 */
	uint8_t timer;                  /* systick only */
	uint8_t mode;
	uint8_t transport;              /* serial only */
	uint8_t nevents;
	char specs[BMRT_CM_MAX_EVENTS][BMRT_SPEC_MAX];
	const char *events[BMRT_CM_MAX_EVENTS];
};
void bmrt_config_load(struct bmrt_config *cfg);

/* cfgarea.c: the config text the host put in RAM (QEMU -device loader) */
extern char bmrt_config_area[];

/* exception.c, from fault.S: a fault's exception frame, EXC_RETURN and IPSR */
_Noreturn void bmrt_fault(const uint32_t *frame, uint32_t exc_return, uint32_t ipsr);

#endif
