/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof on AArch64: the EL1 generic timer or PMUv3 counter overflow as the sampling
 * source, and PMUv3 counting with multiplexing, on up to BMPROF_A64_MAX_CPUS CPUs, with
 * the interrupts taken through a GICv2 or GICv3.
 *
 * Sources:
 *   - the timer: the EL1 virtual timer (CNTV, PPI 11 = INTID 27) or physical timer (CNTP,
 *     PPI 14 = INTID 30) at hz interrupts per second, each period counted from the
 *     previous deadline (CNTx_CVAL_EL0), so interrupt latency does not lower the rate.
 *     It samples when no event samples on the PMU (mode sample), each period then drawn
 *     uniform in [period - period/16, period] CNTFRQ_EL0 ticks. It also runs, recording
 *     nothing, to rotate multiplexed event groups and to read counting events before
 *     their 32-bit counters can wrap. CNTFRQ_EL0 is the HELLO timebase.
 *   - PMUv3, through the neutral PMU layer (bmprof_pmu.h, driver bmprof_pmu_v3): events
 *     given as specs ID:ENC:PERIOD[:NAME[:GROUP]] (docs/image.md) go on the cycle counter
 *     (PMCCNTR_EL0, 64-bit, for `cycles`) or the PMCR_EL0.N event counters (32-bit);
 *     more events than counters are multiplexed in groups rotated by the timer. A
 *     sampling counter is reloaded with minus a randomized period (uniform in
 *     [period - period/16, period] events) on every overflow; the PMU interrupt is PPI 7 =
 *     INTID 23 on QEMU virt. Counting is in EL0 and EL1. In mode count nothing samples
 *     and bmprof_a64_flush() sends the totals as COUNTS.
 *
 * Taking the interrupt:
 *   - put a branch to bmprof_a64_irq_entry in the IRQ slots of your VBAR_EL1 table: it
 *     saves the caller-saved registers, ELR_EL1 and SPSR_EL1, calls bmprof_a64_irq(ELR)
 *     (GIC acknowledge, dispatch, EOI) and bmprof_a64_irq_exit(), and returns with ERET;
 *   - or, from an IRQ handler of your own that acknowledged the interrupt, call
 *     bmprof_a64_handle(intid, elr) (or bmprof_a64_tick / bmprof_a64_pmu_irq), EOI, then
 *     bmprof_a64_irq_exit() with interrupts masked just before returning. Set gic to
 *     BMPROF_A64_GIC_NONE if your GIC driver enables the two PPIs itself.
 * Compile this library and the handler path with -mgeneral-regs-only: the interrupt path
 * never touches FP/SIMD registers; the library also with -mno-outline-atomics (no libgcc
 * helper needing __getauxval) and -mstrict-align (it may run with the MMU off).
 * docs/integration-aarch64.md has an example.
 *
 * CPUs: bmprof_a64_init() on the first CPU (index 0), then bmprof_a64_cpu_init(idx) on
 * each other CPU, one at a time. Each CPU has its own core state (struct bmprof_cpu), PMU
 * state, timer deadline and GIC CPU interface or redistributor, in its own cache lines.
 * The per-CPU calls (start, stop, the interrupt paths, poll, flush, cpu, pmu) act on the
 * CPU they run on, which they find by MPIDR_EL1. The SAMPLES, TOTALS and COUNTS frames
 * carry the index; HELLO and the EVENT frames (bmprof_a64_announce) describe CPU 0.
 *
 * Memory: static .bss arrays, per CPU, of BMPROF_A64_TABLE_ENTRIES hash entries and two
 * overflow buffers of BMPROF_A64_OVF_ENTRIES each (DCPI's sizes); override both (and
 * BMPROF_A64_MAX_CPUS) with -D.
 */
#ifndef BMPROF_AARCH64_H
#define BMPROF_AARCH64_H

#include <stdint.h>
#include "bmprof.h"
#include "bmprof_pmu.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef BMPROF_A64_TABLE_ENTRIES
#define BMPROF_A64_TABLE_ENTRIES 16384
#endif
#ifndef BMPROF_A64_OVF_ENTRIES
#define BMPROF_A64_OVF_ENTRIES 8192
#endif

#ifndef BMPROF_A64_MAX_CPUS
#define BMPROF_A64_MAX_CPUS 8
#endif
/* Call stacks (config.stack_depth): per CPU, a stack table of BMPROF_A64_STACK_ENTRIES
 * distinct chains holding BMPROF_A64_STACK_FRAMES frames in all; 0 entries: no stack
 * memory, stacks cannot be turned on. */
#ifndef BMPROF_A64_STACK_ENTRIES
#define BMPROF_A64_STACK_ENTRIES 2048
#endif
#ifndef BMPROF_A64_STACK_FRAMES
#define BMPROF_A64_STACK_FRAMES 16384
#endif
/* Raw samples (config.raw): per CPU, a ring of BMPROF_A64_RAW_ENTRIES records (280 bytes
 * each); 0: no raw memory, raw mode cannot be turned on. */
#ifndef BMPROF_A64_RAW_ENTRIES
#define BMPROF_A64_RAW_ENTRIES 64
#endif

/* The IRQ entry's frame (bmprof_a64_irq_entry, and a runtime's own entry that passes its
 * frame in struct bmprof_regs.frame for raw samples), in 64-bit words from its start:
 * x29, x30, x0 .. x17, x18, ELR_EL1, SPSR_EL1, one unused, x19 .. x28; 272 bytes, the
 * interrupted sp just above it when SPSR_EL1.M[0] says the code ran on SP_ELx. */
#define BMPROF_A64_FRAME_X29 0
#define BMPROF_A64_FRAME_X30 1
#define BMPROF_A64_FRAME_X0 2
#define BMPROF_A64_FRAME_X18 20
#define BMPROF_A64_FRAME_ELR 21
#define BMPROF_A64_FRAME_SPSR 22
#define BMPROF_A64_FRAME_X19 24
#define BMPROF_A64_FRAME_BYTES 272

#define BMPROF_A64_DEFAULT_HZ 4000u
#define BMPROF_A64_MAX_HZ 100000u
#define BMPROF_A64_TIMER_EVENT 0      /* event id of the timer in SAMPLES */
#define BMPROF_A64_MAX_EVENTS BMPROF_PMU_MAX_EVENTS
#define BMPROF_A64_CPU_CYCLES 0x11u   /* PMUv3 common event CPU_CYCLES */

/* QEMU virt's PPIs (INTID = 16 + PPI) and GIC addresses, the defaults. */
#define BMPROF_A64_INTID_PMU 23
#define BMPROF_A64_INTID_VTIMER 27
#define BMPROF_A64_INTID_PTIMER 30
#define BMPROF_A64_VIRT_GICD 0x08000000u
#define BMPROF_A64_VIRT_GICC 0x08010000u   /* GICv2 CPU interface */
#define BMPROF_A64_VIRT_GICR 0x080A0000u   /* GICv3 redistributor of CPU 0 */

enum bmprof_a64_timer {
	BMPROF_A64_TIMER_VIRTUAL = 0,   /* CNTV_*_EL0, INTID 27 */
	BMPROF_A64_TIMER_PHYSICAL = 1,  /* CNTP_*_EL0, INTID 30 */
};

enum bmprof_a64_gic {
	BMPROF_A64_GIC_AUTO = 0,   /* GICv3 if ID_AA64PFR0_EL1.GIC and GICD_PIDR2 say so, else v2 */
	BMPROF_A64_GIC_V2 = 2,
	BMPROF_A64_GIC_V3 = 3,
	BMPROF_A64_GIC_NONE = 0xFF, /* bmprof never touches the GIC: your driver enables the
				     * PPIs (level-triggered), acknowledges and EOIs */
};

enum bmprof_a64_error {
	BMPROF_A64_OK = 0,
	BMPROF_A64_E_CONFIG = -1,    /* hz too high, a bad timer or mode, a bad event spec */
	BMPROF_A64_E_GIC = -4,       /* no GIC of the requested version at the given address */
	BMPROF_A64_E_TIMER = -5,     /* CNTFRQ_EL0 is 0: the firmware did not set it */
	BMPROF_A64_E_MEMORY = -6,    /* the core refused the table sizes */
	BMPROF_A64_E_CPU = -7,       /* a bad CPU index, one already set up, or no init yet */
};

/* enum bmprof_pmu_mode */
enum bmprof_a64_mode { BMPROF_A64_SAMPLE = BMPROF_PMU_SAMPLE, BMPROF_A64_COUNT = BMPROF_PMU_COUNT };

struct bmprof_a64_config {
	uint32_t hz;              /* timer interrupts per second; 0: the timer never runs */
	uint8_t timer;            /* enum bmprof_a64_timer */
	uint8_t gic;              /* enum bmprof_a64_gic */
	uint8_t mode;             /* enum bmprof_a64_mode */
	uint8_t nevents;          /* up to BMPROF_A64_MAX_EVENTS */
	const char *const *events;  /* event specs ID:ENC:PERIOD[:NAME[:GROUP]], read by init */
	const struct bmprof_out *out;           /* the stream: drains, HELLO, flush */
	uintptr_t gicd, gicc, gicr;             /* 0: QEMU virt's addresses */
	uint16_t pmu_intid;                     /* 0: BMPROF_A64_INTID_PMU */
	/* With bmprof driving the GIC: called by bmprof_a64_irq() for an interrupt that is
	 * not bmprof's (an SGI of yours), after the acknowledge and before the EOI, IRQs
	 * masked. NULL: such interrupts are only counted in info()->stray. */
	void (*other_irq)(uint32_t intid);
	/* With gic = BMPROF_A64_GIC_NONE: enable (1) or disable (0) bmprof's PPI intid at the
	 * caller's interrupt controller, on this CPU (the overflow probe in init, start,
	 * stop; IRQs masked). NULL: the caller keeps them enabled, and init does not probe
	 * which counters interrupt on overflow. */
	void (*irq_enable)(uint32_t intid, int enable);
	/* HELLO's load_bias: where the image runs minus where it was linked (0: not
	 * relocated; a UEFI application's ImageBase minus its link base) */
	uint64_t load_bias;
	/* The periodic flush (bmprof_flush_delta): every flush_ms milliseconds each CPU sends
	 * what its table and buffers hold, from bmprof_a64_irq_exit with IRQs unmasked or
	 * bmprof_a64_poll. 0: off, samples are sent when a buffer fills and at the end. */
	uint32_t flush_ms;
	/* Optional, for a stream several CPUs (or a console) share: called around each drain
	 * bmprof starts by itself (bmprof_a64_irq_exit, bmprof_a64_poll), with IRQs unmasked.
	 * out_begin returns 0 to go ahead (out_end follows the drain), non-zero to leave the
	 * full buffers for a later interrupt, e.g. when this CPU holds the stream's lock
	 * already; it may wait for another CPU. NULL: no such bracket. */
	int (*out_begin)(void);
	void (*out_end)(void);
	/* Call stacks: each sample's frame-pointer chain, at most stack_depth frames (1 ..
	 * BMPROF_STACK_DEPTH_MAX; 0: off). Frame records are read only inside the interrupted
	 * CPU's stack (bmprof_a64_set_stack) or ram; instructions (for a pc in a prologue or
	 * an epilogue) only inside code. Only the *_regs entry points and the ready-made IRQ
	 * handler record chains. */
	uint32_t stack_depth;
	struct bmprof_range ram, code;
	/* Raw samples (data-space profiling): each sample also goes whole, with the
	 * interrupted general registers, into a per-CPU ring sent as RAW_SAMPLES frames.
	 * Only the ready-made entries save every register; the *_regs entry points give the
	 * ones struct bmprof_regs holds. */
	uint8_t raw;
};

struct bmprof_a64_info {
	uint64_t cntfrq;          /* the timebase, CNTFRQ_EL0 */
	uint64_t period_ticks;    /* timer: nominal period in CNTFRQ ticks (0: not running) */
	uint64_t jitter_ticks;    /* timer: randomization window (0 unless the timer samples) */
	uint64_t pmceid[2];       /* implemented: [0] events 0x00..0x3F, [1] 0x4000..0x403F
				   * (PMCEID0/1_EL0) */
	uint64_t stray;           /* interrupts bmprof_a64_irq acknowledged that were not its own
				   * and that no other_irq took, all CPUs together */
	uint32_t hz;
	uint32_t midr;            /* MIDR_EL1 */
	uint16_t timer_intid;
	uint16_t pmu_intid;
	uint8_t source;           /* BMPROF_SOURCE_TIMER or BMPROF_SOURCE_PMU */
	uint8_t gic;              /* BMPROF_A64_GIC_V2, _V3 or _NONE: the one in use */
	uint8_t pmu_version;      /* ID_AA64DFR0_EL1.PMUVer: 0 none, 1.. PMUv3, 0xF IMPDEF */
	uint8_t pmu_counters;     /* PMCR_EL0.N event counters (the cycle counter is extra) */
	uint8_t timer;            /* enum bmprof_a64_timer */
	uint8_t mode;             /* enum bmprof_a64_mode */
	uint8_t timer_samples;    /* the timer is the sampling source */
	uint8_t timer_runs;       /* the timer interrupts (to sample, rotate or read) */
	uint8_t no_irq;           /* the overflow-interrupt probe found: bit 0 event counters,
				   * bit 1 the cycle counter do not interrupt (QEMU -icount) */
	uint8_t bad_event;        /* after E_CONFIG from a spec: its index; else 0xFF */
};

/* Probe the PMU, parse the event specs, set up the GIC (the PPIs masked), the timer and
 * the counters (stopped) and the core's per-CPU state, for this CPU as CPU 0. Call once,
 * at EL1, with IRQs masked. Returns BMPROF_A64_OK or a negative enum bmprof_a64_error;
 * bmprof_a64_info() is filled with what the probe found even when it fails, and for a bad
 * spec bmprof_a64_pmu()->error says what is wrong with it. Events the CPU cannot count are
 * not an error: their status and reason are in bmprof_a64_pmu()->ev[] and the EVENT
 * frames. */
int bmprof_a64_init(const struct bmprof_a64_config *cfg);
/* The same for another CPU, after bmprof_a64_init() returned OK, on that CPU, at EL1, IRQs
 * masked, with idx 1 .. BMPROF_A64_MAX_CPUS-1 unused so far; one CPU at a time. It sets up
 * this CPU's GIC CPU interface (GICv2) or finds and wakes its redistributor (GICv3), its
 * timer, its PMU with the same event specs placed as on CPU 0 (which the EVENT frames
 * describe), and its core state. Returns BMPROF_A64_OK or a negative error; after an error
 * the index is free again. */
int bmprof_a64_cpu_init(unsigned idx);
const char *bmprof_a64_strerror(int err);
const struct bmprof_a64_info *bmprof_a64_info(void);
/* CPUs set up (HELLO's ncpus); this CPU's index, or -1 if it was not set up. */
unsigned bmprof_a64_ncpus(void);
int bmprof_a64_cpu_index(void);
/* This CPU's core state (NULL if it was not set up). */
struct bmprof_cpu *bmprof_a64_cpu(void);
/* The events after init: status, reason, counter, group, and after stop their counts; this
 * CPU's, or CPU 0's on a CPU that was not set up. */
const struct bmprof_pmu *bmprof_a64_pmu(void);

/* Send HELLO (MIDR identity, CNTFRQ timebase, build-id; source PMU when an event samples
 * on the PMU) and the EVENT frames: the timer's when it samples, and one per event spec
 * with its status. */
int bmprof_a64_announce(const uint8_t *build_id, uint8_t build_id_len);

/* This CPU: arm the timer and enable the counters / stop both. After bmprof_a64_stop()
 * returns no sample is recorded and nothing is counted on this CPU. May be called from an
 * interrupt handler. */
void bmprof_a64_start(void);
void bmprof_a64_stop(void);

/* Measuring what an interrupt costs the program, before sampling starts (this CPU; only
 * when the timer samples alone; -1 otherwise). bmprof_a64_probe(1) starts the timer
 * without recording; bmprof_a64_probe(0) stops it and forgets its times.
 * bmprof_a64_irq_stats reads CPU idx's count of timer interrupts and the ticks its last
 * one took as the handler timed it; bmprof_a64_set_untimed gives the ticks each interrupt
 * costs beyond that (delivery, return), taken off TOTALS sampled_ticks per interrupt. */
int bmprof_a64_probe(int on);
void bmprof_a64_irq_stats(unsigned idx, uint64_t *irqs, uint64_t *last_ticks);
void bmprof_a64_set_untimed(unsigned idx, int64_t ticks);
/* The same in 1/BMPROF_UNTIMED_ONE ticks (a probe's average is finer than a tick: under
 * QEMU -icount CNTFRQ_EL0 ticks every 16 instructions). */
void bmprof_a64_set_untimed_fine(unsigned idx, int64_t untimed);

/* IRQs masked. bmprof_a64_tick: the timer interrupt: record elr as event 0 when the timer
 * samples, read the counters and rotate the event groups, re-arm. bmprof_a64_pmu_irq: the
 * PMU interrupt: for each overflowed counter record elr under its event id, reload, clear
 * the overflow. Neither touches the GIC. */
void bmprof_a64_tick(uint64_t elr);
void bmprof_a64_pmu_irq(uint64_t elr);
/* Either of the above for intid; returns 1 if intid was bmprof's, 0 otherwise. */
int bmprof_a64_handle(uint32_t intid, uint64_t elr);
/* With bmprof driving the GIC: acknowledge, dispatch (an interrupt not bmprof's to
 * cfg.other_irq), EOI. */
void bmprof_a64_irq(uint64_t elr);
/* The same entries with the interrupted registers (pc = ELR_EL1, sp, x29, x30), so the
 * sample's call chain is recorded when stacks are on. */
void bmprof_a64_tick_regs(const struct bmprof_regs *r);
void bmprof_a64_pmu_irq_regs(const struct bmprof_regs *r);
int bmprof_a64_handle_regs(uint32_t intid, const struct bmprof_regs *r);
void bmprof_a64_irq_regs(const struct bmprof_regs *r);
/* The calling CPU's stack [lo, hi): where its frame records may be read. After
 * bmprof_a64_init / bmprof_a64_cpu_init on that CPU. */
void bmprof_a64_set_stack(uint64_t lo, uint64_t hi);

/* Interrupt exit ("bottom half"), IRQs masked on entry and on return: if a full overflow
 * buffer waits (or, with flush_ms, the periodic flush is due) and no drain runs on this
 * CPU, unmask IRQs, drain or flush (inside out_begin/out_end), mask them. */
void bmprof_a64_irq_exit(void);

/* The ready-made IRQ handler: branch to it from the IRQ vector slots (not a C function). */
void bmprof_a64_irq_entry(void);

/* For idle loops, IRQs unmasked: send full overflow buffers if any, and with flush_ms
 * the table and buffers when the interval is due (inside out_begin/out_end). */
void bmprof_a64_poll(void);

/* Stop sampling and counting on this CPU, then send COUNTS (when events were counted),
 * every remaining sample and this CPU's TOTALS. */
void bmprof_a64_flush(void);
/* The same for CPU idx from any CPU, once bmprof_a64_stop() has returned on idx and no
 * drain runs there (idx waits with IRQs masked, or runs no bmprof code any more). */
void bmprof_a64_flush_cpu(unsigned idx);

/* With bmprof driving the GIC: enable (or disable) SGI intid (0..15) on this CPU, and send
 * SGI intid to CPU idx (a dsb first, so what was written before is visible to its
 * handler); -1 if idx is not set up or intid is not an SGI. bmprof uses no SGI itself. */
void bmprof_a64_sgi_enable(uint32_t intid, int enable);
int bmprof_a64_sgi_send(unsigned idx, uint32_t intid);

#ifdef __cplusplus
}
#endif

#endif
