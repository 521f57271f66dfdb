/* SPDX-License-Identifier: BSD-2-Clause */
/* Internals of the RISC-V boot runtime (machine mode, QEMU virt). */
#ifndef BMRT_RT_H
#define BMRT_RT_H

#include <stddef.h>
#include <stdint.h>
#include "bmprof.h"
#include "bmprof_riscv64.h"
#include "wire.h"
#include "../common/rt_common.h"


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

/* uart.c: the NS16550A at 0x10000000; one hart writes at a time (uart_lock(),
 * rt_common.h). */
void uart_drain(void);

/* smp.c: each hart's runtime state, indexed by mhartid, in its own cache line. The
 * fields another hart reads or writes are accessed with release stores and acquire
 * loads; the rest belong to the hart (its program and its interrupts). */
#define BMRT_MAX_CPUS BMPROF_RV_MAX_CPUS
#define CPU_STACK_SHIFT 16             /* 64 KiB per other hart (entry.S) */
struct bmrt_cpu {
	void (*fn)(void *);          /* the posted job */
	void *arg;
	volatile uint32_t busy;      /* a job was claimed and has not finished */
	volatile uint32_t posted;    /* jobs posted */
	uint32_t started;            /* jobs this hart picked up */
	volatile uint32_t booted;    /* came up; init_err says how */
	int init_err;
	volatile uint32_t stop_req;  /* the run ends: stop sampling and park */
	volatile uint32_t stopped;   /* it stopped its sampling when told to */
	volatile uint32_t parked;    /* waits with interrupts off for the power-off */
	volatile uint32_t irq_depth; /* interrupts being handled */
	volatile uint32_t out_busy;  /* console output runs in program context */
} __attribute__((aligned(BMPROF_CACHE_LINE)));
extern struct bmrt_cpu bmrt_cpus[BMRT_MAX_CPUS];
static inline unsigned bmrt_cpu(void)
{
	uint64_t v;
	__asm__ volatile("csrr %0, mhartid" : "=r"(v));
	return (unsigned)v;
}
extern uint64_t bmrt_dtb;            /* entry.S: a1 at entry, the device tree */
unsigned bmrt_fdt_harts(const void *blob);
void bmrt_smp_boot(uint32_t cpu_wait_ms);
void bmrt_smp_go(void);
void bmrt_smp_stop(uint32_t cpu_wait_ms);   /* the other harts stop and park */
void bmrt_msip(unsigned hart, int on);
void bmrt_soft_irq(void);            /* trap.c: the machine software interrupt */
extern uint32_t bmrt_cpu_wait_ms;    /* start.c: the config's cpu_wait_ms */

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
