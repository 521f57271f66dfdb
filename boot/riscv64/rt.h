/* SPDX-License-Identifier: BSD-2-Clause */
/* Internals of the RISC-V boot runtime (machine mode, QEMU virt, one hart). */
#ifndef BMRT_RT_H
#define BMRT_RT_H

#include <stddef.h>
#include <stdint.h>
#include "bmprof.h"
#include "bmprof_riscv64.h"
#include "wire.h"
#include "../common/rt_common.h"

#define STACK_SIZE (256 * 1024)

static inline void irq_off(void) { __asm__ volatile("csrci mstatus, 8" : : : "memory"); }
static inline void irq_on(void) { __asm__ volatile("csrsi mstatus, 8" : : : "memory"); }

static inline uint8_t mmio_read8(uintptr_t a) { return *(volatile uint8_t *)a; }
static inline void mmio_write8(uintptr_t a, uint8_t v) { *(volatile uint8_t *)a = v; }
static inline void mmio_write16(uintptr_t a, uint16_t v) { *(volatile uint16_t *)a = v; }
static inline void mmio_write32(uintptr_t a, uint32_t v) { *(volatile uint32_t *)a = v; }

/* The trap frame entry.S saves, in 64-bit words: x1 .. x31 at 1 .. 31 (x2 the interrupted
 * sp), then mepc, mcause, mstatus, mtval, and the caller-saved FP registers. */
#define FRAME_PC BMPROF_RV_FRAME_PC
#define FRAME_CAUSE 33
#define FRAME_STATUS 34
#define FRAME_TVAL 35
#define FRAME_A0 10

/* trap.c: every trap (entry.S): interrupts to the sampler, exceptions to the crash
 * report. While probing (csrprobe.c), an illegal instruction is skipped with a0 = -1. */
void bmrt_trap(uint64_t *frame);
extern volatile int bmrt_probing;
/* csrprobe.c: the hpm counters that exist and whether Sscofpmf does */
void bmrt_probe_pmu(unsigned *counters, int *sscofpmf);

/* uart.c: the NS16550A at 0x10000000 */
void uart_drain(void);

/* irq.c */
extern volatile uint32_t bmrt_irq_depth, bmrt_out_busy;

/* config.c */
#define BMRT_SPEC_MAX 128
struct bmrt_config {
	uint32_t freq;
	uint32_t flush_ms;
	uint32_t cpu_wait_ms;
	uint32_t stack_depth;
	uint32_t raw;
	uint8_t timer;
	uint8_t mode;
	uint8_t transport;
	uint8_t nevents;
	char specs[BMPROF_RV_MAX_EVENTS][BMRT_SPEC_MAX];
	const char *events[BMPROF_RV_MAX_EVENTS];
};
void bmrt_config_load(struct bmrt_config *cfg);

#endif
