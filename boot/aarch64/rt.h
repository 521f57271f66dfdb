/* SPDX-License-Identifier: BSD-2-Clause */
/* Internals of the AArch64 boot runtime. */
#ifndef BMRT_RT_H
#define BMRT_RT_H

#include <stddef.h>
#include <stdint.h>
#include "bmprof.h"
#include "bmprof_aarch64.h"
#include "wire.h"
#include "layout.h"
#include "../common/rt_common.h"


static inline void irq_off(void) { __asm__ volatile("msr daifset, #2" : : : "memory"); }
static inline void irq_on(void) { __asm__ volatile("msr daifclr, #2" : : : "memory"); }
static inline void serror_on(void) { __asm__ volatile("msr daifclr, #4" : : : "memory"); }

static inline uint32_t mmio_read32(uintptr_t a) { return *(volatile uint32_t *)a; }
static inline void mmio_write32(uintptr_t a, uint32_t v) { *(volatile uint32_t *)a = v; }
static inline uint8_t mmio_read8(uintptr_t a) { return *(volatile uint8_t *)a; }
static inline void mmio_write16(uintptr_t a, uint16_t v) { *(volatile uint16_t *)a = v; }

/* Saved by vectors.S, lowest address first. */
struct bmrt_regs {
	uint64_t x[31];
	uint64_t sp;       /* at the exception */
	uint64_t elr, spsr, esr, far;
	uint64_t kind;     /* the vector slot: 0 sync, 1 IRQ, 2 FIQ, 3 SError */
	uint64_t pad;
};

/* entry.S: the exception level QEMU entered the image at (1 or 2) */
extern uint64_t bmrt_entry_el;

/* exception.c: called by vectors.S for everything but IRQs; returns only after skipping
 * a probe instruction (trap.S) the CPU refused */
void bmrt_exception(struct bmrt_regs *r);

/* trap.S: instructions that may be absent. Each returns -1 if it raised an undefined
 * instruction exception (semihosting off, no PSCI conduit). */
int64_t bmrt_semihost(uint64_t op, const void *arg);
int64_t bmrt_psci_hvc(uint64_t fn, uint64_t a1, uint64_t a2, uint64_t a3);
int64_t bmrt_psci_smc(uint64_t fn, uint64_t a1, uint64_t a2, uint64_t a3);
int bmrt_probe_skip(struct bmrt_regs *r);

/* psci.c: a PSCI call through the conduit QEMU offers at the entry EL */
#define PSCI_CPU_OFF 0x84000002u
#define PSCI_SYSTEM_OFF 0x84000008u
#define PSCI_CPU_ON 0xC4000003u
#define PSCI_AFFINITY_INFO 0xC4000004u
#define PSCI_AFFINITY_OFF 1
#define PSCI_INVALID_PARAMETERS (-2)
#define PSCI_ALREADY_ON (-4)
int64_t bmrt_psci(uint64_t fn, uint64_t a1, uint64_t a2, uint64_t a3);

/* mmu.c */
void bmrt_mmu_init(void);
int bmrt_in_guard(uint64_t addr);
/* mmu.c: size bytes at pa (2 MiB aligned, inside the device region below 1 GiB) become
 * Normal write-back memory, never executable: shared memory behind a PCI BAR. 0 or -1. */
int bmrt_mmu_map_normal(uint64_t pa, uint64_t size);
/* pci.c: transport=shm: the rings in the ivshmem device's memory, one per CPU (or a
 * message saying why not) */
void bmrt_shm_start(unsigned ncpus);
extern uint64_t bmrt_mmu_regs[4];

/* uart.c: the PL011 at 0x09000000 (rt_common.h declares the functions both UARTs have,
 * and the lock). uart_write() takes the lock around each write, so a frame (one write) is
 * never split. */
void uart_drain(void);
/* pl011.c: len bytes out; -1 if the transmitter is stuck. Takes no lock. */
int pl011_send(const void *buf, size_t len);

/* smp.c: each CPU's runtime state, indexed by bm_cpu_id() (TPIDR_EL1), in its own cache
 * line. The fields a CPU shares are written with release stores and read with acquire
 * loads; the rest belong to the CPU itself (its program and its interrupts). */
#define BMRT_SGI 1          /* the one SGI: work was posted, a job finished, or stop */
struct bmrt_cpu {
	void (*fn)(void *);          /* the posted job */
	void *arg;
	volatile uint32_t busy;      /* a job was claimed and has not finished */
	volatile uint32_t posted;    /* jobs posted (the claimant publishes fn, arg with it) */
	volatile uint32_t stop_req;  /* the run ends: stop sampling and park */
	volatile uint32_t booted;    /* came up; init_err says how it went */
	volatile uint32_t parked;    /* stopped and waits with IRQs masked for the power-off */
	int init_err;
	uint32_t started;            /* jobs this CPU has picked up */
	volatile uint32_t stopped;   /* it stopped its sampling when told to (bmrt_sgi) */
	volatile uint32_t irq_depth; /* bmrt_irq() calls running */
	volatile uint32_t out_busy;  /* console output (or its drain) runs in program context */
	uint32_t exc_depth;          /* bmrt_exception() calls running */
} __attribute__((aligned(BMPROF_CACHE_LINE)));
extern struct bmrt_cpu bmrt_cpus[BMRT_MAX_CPUS];
static inline unsigned bmrt_cpu(void)
{
	uint64_t v;
	__asm__ volatile("mrs %0, tpidr_el1" : "=r"(v));
	return (unsigned)v;
}
/* start the other CPUs, each setting up its sampler; cpu_wait_ms bounds every wait for
 * another CPU, here and in bmrt_smp_stop */
void bmrt_smp_boot(uint32_t cpu_wait_ms);
void bmrt_smp_go(void);             /* let them start sampling and wait for work */
void bmrt_smp_stop(void);           /* IRQs masked: stop sampling on every CPU, wait for them */
void bmrt_sgi(uint32_t intid);      /* the sampler's other_irq */

/* irq.c: the IRQ path (vectors.S), and console output's side of it: between
 * bmrt_console_begin() and bmrt_console_end() (rt_common.h) the interrupt-exit drain is
 * skipped (this CPU may hold the UART) and a stop request waits. */
void bmrt_irq(const uint64_t *frame);

/* config.c: the settings, read by bmrt_config_read (rt_common.h) */
#define BMRT_SPEC_MAX 128    /* an event spec's bytes, with the NUL */
struct bmrt_config {
	uint32_t freq;
	uint32_t flush_ms;              /* the periodic flush interval; 0: off */
	uint32_t cpu_wait_ms;           /* the longest wait for another CPU to start or stop */
	uint32_t stack_depth;           /* call stacks: frames at most per sample; 0: off */
	uint32_t raw;                   /* 1: raw samples (the interrupted registers) */
	uint8_t timer;
	uint8_t mode;                   /* enum bmprof_a64_mode */
	uint8_t transport;           /* BMRT_TRANSPORT_* (rt_common.h) */
	uint8_t nevents;
	char specs[BMPROF_A64_MAX_EVENTS][BMRT_SPEC_MAX];
	const char *events[BMPROF_A64_MAX_EVENTS];   /* specs[i], for bmprof_a64_config */
};
void bmrt_config_load(struct bmrt_config *cfg);

#endif
