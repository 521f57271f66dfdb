/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof on RISC-V (RV64, machine mode): the machine timer or Sscofpmf counter overflow
 * as the sampling source, and hpm counting with multiplexing, on one hart or more.
 *
 * Sources:
 *   - the machine timer: the CLINT's mtimecmp of this hart at hz interrupts per second,
 *     each deadline counted from the previous one (mtime, the HELLO timebase, 10 MHz on
 *     QEMU virt). It samples when no event samples on the PMU (mode sample), each period
 *     then drawn uniform in [period - period/16, period] mtime ticks; it also runs,
 *     recording nothing, to rotate multiplexed event groups. The sampled pc is mepc.
 *   - the hpm counters mhpmcounter3.. through the neutral PMU layer (bmprof_pmu.h, driver
 *     bmprof_pmu_sscof): an event's encoding is written to mhpmevent (QEMU implements the
 *     SBI codes 0x1 cycles, 0x2 instructions and a few TLB-miss events); with Sscofpmf a
 *     sampling counter is loaded with minus a randomized period and raises the local
 *     counter-overflow interrupt (LCOFI, 13) when it wraps: mhpmevent.OF set, cleared by
 *     the handler. Counters stop and start through mcountinhibit.
 *
 * Taking the interrupt: the trap handler calls bmprof_rv_irq(cause, mepc, frame) for each
 * interrupt; it returns 1 for the timer's and the overflow interrupt, 0 for others.
 * Then bmprof_rv_irq_exit() with interrupts masked, just before mret.
 *
 * CPUs (harts): bmprof_rv_init() on the first, bmprof_rv_cpu_init(idx) on each other.
 * The hardware id is mhartid.
 */
#ifndef BMPROF_RISCV64_H
#define BMPROF_RISCV64_H

#include <stdint.h>
#include "bmprof.h"
#include "bmprof_pmu.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef BMPROF_RV_TABLE_ENTRIES
#define BMPROF_RV_TABLE_ENTRIES 16384
#endif
#ifndef BMPROF_RV_OVF_ENTRIES
#define BMPROF_RV_OVF_ENTRIES 8192
#endif
#ifndef BMPROF_RV_MAX_CPUS
#define BMPROF_RV_MAX_CPUS 8
#endif
/* Call stacks (config.stack_depth): per CPU, a stack table of BMPROF_RV_STACK_ENTRIES
 * distinct chains holding BMPROF_RV_STACK_FRAMES frames in all; 0 entries: no stack
 * memory, stacks cannot be turned on. */
#ifndef BMPROF_RV_STACK_ENTRIES
#define BMPROF_RV_STACK_ENTRIES 2048
#endif
#ifndef BMPROF_RV_STACK_FRAMES
#define BMPROF_RV_STACK_FRAMES 16384
#endif

#define BMPROF_RV_DEFAULT_HZ 4000u
#define BMPROF_RV_MAX_HZ 100000u
#define BMPROF_RV_MAX_EVENTS BMPROF_PMU_MAX_EVENTS
#define BMPROF_RV_VIRT_CLINT 0x02000000u      /* QEMU virt's CLINT */
#define BMPROF_RV_VIRT_TIMEBASE 10000000u     /* its mtime rate */

#define BMPROF_RV_IRQ_MTIMER 7
#define BMPROF_RV_IRQ_LCOF 13

enum bmprof_rv_error {
	BMPROF_RV_OK = 0,
	BMPROF_RV_E_CONFIG = -1,    /* hz too high, a bad mode, a bad event spec or depth */
	BMPROF_RV_E_MEMORY = -6,    /* the core refused the table sizes */
	BMPROF_RV_E_CPU = -7,       /* a bad CPU index, one already set up, or no init yet */
};

enum bmprof_rv_mode { BMPROF_RV_SAMPLE = BMPROF_PMU_SAMPLE, BMPROF_RV_COUNT = BMPROF_PMU_COUNT };

struct bmprof_rv_config {
	uint32_t hz;              /* timer interrupts per second; 0: the timer never runs */
	uint8_t mode;             /* enum bmprof_rv_mode */
	uint8_t nevents;          /* up to BMPROF_RV_MAX_EVENTS */
	const char *const *events;  /* event specs ID:ENC:PERIOD[:NAME[:GROUP]] */
	const struct bmprof_out *out;
	uintptr_t clint;          /* 0: BMPROF_RV_VIRT_CLINT */
	uint64_t timebase_hz;     /* 0: BMPROF_RV_VIRT_TIMEBASE */
	uint64_t load_bias;
	uint32_t flush_ms;        /* the periodic flush; 0: off */
	int (*out_begin)(void);   /* around each drain bmprof starts; may be NULL */
	void (*out_end)(void);
	uint8_t raw;              /* raw samples (the registers in the trap frame) */
	/* Call stacks: each sample's frame-pointer chain (s0, records { caller's s0, ra } just
	 * below it; code built with -fno-omit-frame-pointer), at most stack_depth frames (1 ..
	 * BMPROF_STACK_DEPTH_MAX; 0: off). Frame records are read only inside the interrupted
	 * hart's stack (bmprof_rv_set_stack) or ram; instructions (to find where the pc is in
	 * its function's frame) only inside code. Only a frame given to bmprof_rv_irq records
	 * chains. */
	uint32_t stack_depth;
	struct bmprof_range ram, code;
	/* The hpm counters mhpmcounter3 .. 3+hpm_counters-1 that exist (0: no PMU; a read of
	 * a missing one may trap, so the caller says) and whether Sscofpmf's overflow
	 * interrupt does. */
	uint8_t hpm_counters;
	uint8_t sscofpmf;
};

struct bmprof_rv_info {
	uint64_t timebase_hz;
	uint64_t period_ticks;    /* timer: nominal period (0: not running) */
	uint64_t jitter_ticks;
	uint32_t hz;
	uint8_t source;           /* BMPROF_SOURCE_TIMER or BMPROF_SOURCE_PMU */
	uint8_t mode;
	uint8_t timer_samples, timer_runs;
	uint8_t hpm_counters;     /* mhpmcounter3.. that exist (writable) */
	uint8_t sscofpmf;         /* overflow interrupts (mhpmevent.OF) exist */
	uint8_t bad_event;        /* after E_CONFIG from a spec: its index; else 0xFF */
};

/* The trap frame bmprof_rv_irq reads for raw samples: x1 .. x31 at words 1 .. 31 (word 0
 * unused), mepc at BMPROF_RV_FRAME_PC. */
#define BMPROF_RV_FRAME_PC 32
#define BMPROF_RV_FRAME_WORDS 34

int bmprof_rv_init(const struct bmprof_rv_config *cfg);
int bmprof_rv_cpu_init(unsigned idx);
const char *bmprof_rv_strerror(int err);
const struct bmprof_rv_info *bmprof_rv_info(void);
unsigned bmprof_rv_ncpus(void);
/* This hart's core state (NULL if it was not set up). */
struct bmprof_cpu *bmprof_rv_cpu(void);
const struct bmprof_pmu *bmprof_rv_pmu(void);
int bmprof_rv_announce(const uint8_t *build_id, uint8_t build_id_len);
void bmprof_rv_start(void);
void bmprof_rv_stop(void);
int bmprof_rv_probe(int on);
void bmprof_rv_irq_stats(unsigned idx, uint64_t *irqs, uint64_t *last_ticks);
void bmprof_rv_set_untimed_fine(unsigned idx, int64_t untimed);
/* An interrupt (mcause with its top bit cleared) with the trap frame (above; may be
 * NULL: then pc alone): 1 if it was the timer's or the overflow interrupt. */
int bmprof_rv_irq(uint64_t cause, uint64_t pc, const uint64_t *frame);
/* The calling hart's stack [lo, hi): where its frame records may be read. After
 * bmprof_rv_init / bmprof_rv_cpu_init on that hart. */
void bmprof_rv_set_stack(uint64_t lo, uint64_t hi);
void bmprof_rv_irq_exit(void);
void bmprof_rv_poll(void);
void bmprof_rv_flush(void);
void bmprof_rv_flush_cpu(unsigned idx);

#ifdef __cplusplus
}
#endif

#endif
