/* bmprof on AArch64: the EL1 generic timer or PMUv3 counter overflow as the sampling
 * source, for one CPU, with the interrupt taken through a GICv2 or GICv3.
 *
 * Two sources, one at a time:
 *   - the timer (no events configured): the EL1 virtual timer (CNTV, PPI 11 = INTID 27)
 *     or physical timer (CNTP, PPI 14 = INTID 30) at hz samples per second. Each period
 *     is drawn by bmprof_next_period() (uniform in [period - period/16, period], in
 *     CNTFRQ_EL0 ticks) and counted from the previous deadline (CNTx_CVAL_EL0), so
 *     interrupt latency does not lower the rate. CNTFRQ_EL0 is the HELLO timebase.
 *   - PMUv3 (events configured): each event gets a counter, the dedicated cycle counter
 *     (PMCCNTR_EL0, 64-bit overflow) or one of the PMCR_EL0.N event counters (32-bit),
 *     reloaded with minus a randomized period (uniform in [period - period/16, period]
 *     events) on every overflow. The PMU interrupt is PPI 7 = INTID 23 on QEMU virt.
 *     Counting is in EL0 and EL1.
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
 * never touches FP/SIMD registers. docs/integration-aarch64.md has an example.
 *
 * Memory: static .bss arrays of BMPROF_A64_TABLE_ENTRIES hash entries and two overflow
 * buffers of BMPROF_A64_OVF_ENTRIES each (DCPI's sizes); override both with -D.
 */
#ifndef BMPROF_AARCH64_H
#define BMPROF_AARCH64_H

#include <stdint.h>
#include "bmprof.h"

#ifndef BMPROF_A64_TABLE_ENTRIES
#define BMPROF_A64_TABLE_ENTRIES 16384
#endif
#ifndef BMPROF_A64_OVF_ENTRIES
#define BMPROF_A64_OVF_ENTRIES 8192
#endif

#define BMPROF_A64_DEFAULT_HZ 4000u
#define BMPROF_A64_MAX_HZ 100000u
#define BMPROF_A64_TIMER_EVENT 0      /* event id of the timer in SAMPLES */
#define BMPROF_A64_MAX_EVENTS 32      /* 31 event counters (the architecture's most) + cycles */
#define BMPROF_A64_MIN_PERIOD 10000u  /* events; shorter periods mostly sample the handler */
#define BMPROF_A64_MAX_PERIOD32 0xFFFFFFFFu  /* longest period of a 32-bit event counter */
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
	BMPROF_A64_E_CONFIG = -1,    /* hz too high, a period out of range, a duplicate id */
	BMPROF_A64_E_NOPMU = -2,     /* events requested, ID_AA64DFR0_EL1.PMUVer is not PMUv3 */
	BMPROF_A64_E_COUNTERS = -3,  /* more events than counters (or two on the cycle counter) */
	BMPROF_A64_E_GIC = -4,       /* no GIC of the requested version at the given address */
	BMPROF_A64_E_TIMER = -5,     /* CNTFRQ_EL0 is 0: the firmware did not set it */
	BMPROF_A64_E_MEMORY = -6,    /* the core refused the table sizes */
};

/* One PMU event to sample on. */
struct bmprof_a64_event {
	uint16_t id;              /* the event id SAMPLES entries carry */
	uint16_t number;          /* PMUv3 event number (PMEVTYPER<n>_EL0.evtCount) */
	uint8_t cycle_counter;    /* 1: the cycle counter PMCCNTR_EL0 (number is ignored) */
	uint64_t period;          /* nominal events between samples, BMPROF_A64_MIN_PERIOD up;
				   * at most BMPROF_A64_MAX_PERIOD32 on an event counter */
	const char *name;         /* for the EVENT frame; 0: "cycles" or "r<hex number>" */
};

struct bmprof_a64_config {
	uint32_t hz;              /* timer source: samples per second; 0: never sample */
	uint8_t timer;            /* enum bmprof_a64_timer */
	uint8_t gic;              /* enum bmprof_a64_gic */
	uint8_t nevents;          /* 0: the timer is the source; else the PMU */
	const struct bmprof_a64_event *events;  /* nevents of them, copied by init */
	const struct bmprof_out *out;           /* the stream: drains, HELLO, flush */
	uintptr_t gicd, gicc, gicr;             /* 0: QEMU virt's addresses */
	uint16_t pmu_intid;                     /* 0: BMPROF_A64_INTID_PMU */
};

struct bmprof_a64_info {
	uint64_t cntfrq;          /* the timebase, CNTFRQ_EL0 */
	uint64_t period_ticks;    /* timer: nominal period in CNTFRQ ticks (0: not sampling) */
	uint64_t jitter_ticks;    /* timer: randomization window */
	uint64_t pmceid[2];       /* implemented: [0] events 0x00..0x3F, [1] 0x4000..0x403F
				   * (PMCEID0/1_EL0) */
	uint64_t stray;           /* interrupts bmprof_a64_irq acknowledged that were not its own */
	uint32_t hz;
	uint32_t midr;            /* MIDR_EL1 */
	uint32_t unsupported;     /* bit i: events[i] is a common event PMCEID says is absent */
	uint16_t timer_intid;
	uint16_t pmu_intid;
	uint8_t source;           /* BMPROF_SOURCE_TIMER or BMPROF_SOURCE_PMU */
	uint8_t gic;              /* BMPROF_A64_GIC_V2, _V3 or _NONE: the one in use */
	uint8_t pmu_version;      /* ID_AA64DFR0_EL1.PMUVer: 0 none, 1.. PMUv3, 0xF IMPDEF */
	uint8_t pmu_counters;     /* PMCR_EL0.N event counters (the cycle counter is extra) */
	uint8_t timer;            /* enum bmprof_a64_timer */
	uint8_t nevents;
};

/* Probe the PMU, set up the GIC (the two PPIs masked), the timer or the counters (stopped)
 * and the core's per-CPU state. Call once, at EL1, with IRQs masked. Returns
 * BMPROF_A64_OK or a negative enum bmprof_a64_error; bmprof_a64_info() is filled with
 * what the probe found even when it fails. */
int bmprof_a64_init(const struct bmprof_a64_config *cfg);
const char *bmprof_a64_strerror(int err);
const struct bmprof_a64_info *bmprof_a64_info(void);
struct bmprof_cpu *bmprof_a64_cpu(void);
/* The configured events after init (info()->nevents of them). */
const struct bmprof_a64_event *bmprof_a64_events(void);

/* Send HELLO (MIDR identity, CNTFRQ timebase, build-id) and one EVENT frame per event
 * (the timer's, or each PMU event's). */
int bmprof_a64_announce(const uint8_t *build_id, uint8_t build_id_len);

/* Arm the timer or enable the counters / mask and disable them. After bmprof_a64_stop()
 * returns no sample is recorded. */
void bmprof_a64_start(void);
void bmprof_a64_stop(void);

/* IRQs masked. bmprof_a64_tick: the timer interrupt: record elr as event 0, re-arm.
 * bmprof_a64_pmu_irq: the PMU interrupt: for each overflowed counter record elr under
 * its event id, reload, clear the overflow. Neither touches the GIC. */
void bmprof_a64_tick(uint64_t elr);
void bmprof_a64_pmu_irq(uint64_t elr);
/* Either of the above for intid; returns 1 if intid was bmprof's, 0 otherwise. */
int bmprof_a64_handle(uint32_t intid, uint64_t elr);
/* With bmprof driving the GIC: acknowledge, dispatch, EOI. */
void bmprof_a64_irq(uint64_t elr);

/* Interrupt exit ("bottom half"), IRQs masked on entry and on return: if a full overflow
 * buffer waits and no drain runs on this CPU, unmask IRQs, drain, mask them. */
void bmprof_a64_irq_exit(void);

/* The ready-made IRQ handler: branch to it from the IRQ vector slots (not a C function). */
void bmprof_a64_irq_entry(void);

/* For idle loops, IRQs unmasked: send full overflow buffers if any. */
void bmprof_a64_poll(void);

/* Stop sampling, send every remaining sample and this CPU's TOTALS. */
void bmprof_a64_flush(void);

#endif
