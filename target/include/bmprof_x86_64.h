/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof on x86-64: the LAPIC timer, and the PMU (Intel architectural performance
 * monitoring v1-v5, AMD core counters) as sampling and counting sources, on up to
 * BMPROF_X86_MAX_CPUS CPUs.
 *
 * The timer runs in TSC-deadline mode where CPUID.1:ECX[24] offers it, else in one-shot
 * mode with the initial count re-written on every interrupt; either way each period is
 * drawn by bmprof_next_period() (uniform in [period - period/16, period], in TSC ticks)
 * and counted from the previous deadline, so interrupt latency does not lower the rate.
 * The TSC and the LAPIC timer are calibrated against PIT channel 2 (CPUID leaf 0x15 gives
 * the TSC rate where it is complete); the TSC rate is the HELLO timebase.
 *
 * PMU events (config.events, the `event=` specs of docs/image.md) are placed on counters
 * by the PMU layer (bmprof_pmu.h). When one samples on overflow, the PMU is the sampling
 * source: its interrupt (PMI) comes through the LAPIC's LVT performance counter entry,
 * as an NMI by default (so code running with interrupts masked is sampled too) or as a
 * vector; the timer then only rotates multiplexed groups and reads counting counters.
 * With no usable PMU, or no event that samples, the timer samples (event 0) and the
 * requested events are announced with the reason (UNAVAILABLE or FALLBACK, NO_PMU).
 *
 * CPUs: the CPU that calls bmprof_x86_init() is CPU 0 and calibrates; every other CPU
 * that is to sample calls bmprof_x86_init_cpu(index) itself, and gets its own LAPIC
 * timer (the first CPU's calibration and configuration), its own table and overflow
 * buffers, and its own PMU state, programmed on it. Start, stop, the interrupt entries,
 * poll and flush act on the CPU that calls them; an interrupt finds its CPU by the LAPIC
 * ID. SAMPLES, COUNTS and TOTALS carry the index.
 *
 * Taking the interrupts (on every CPU; the same IDT may serve all):
 *   - put bmprof_x86_timer_entry in the IDT at the configured vector (interrupt gate): it
 *     saves the scratch registers, calls bmprof_x86_tick() and bmprof_x86_irq_exit();
 *     with events, put bmprof_x86_nmi_entry at vector 2 (NMI delivery) or
 *     bmprof_x86_pmi_entry at pmi_vector (IRQ delivery);
 *   - or call bmprof_x86_tick(rip) / bmprof_x86_nmi(rip) / bmprof_x86_pmi(rip) from
 *     handlers of your own, then bmprof_x86_irq_exit() (not from the NMI) with interrupts
 *     disabled just before returning from the interrupt.
 * Compile this library and the handler path with -mgeneral-regs-only -mno-red-zone: the
 * interrupt path never saves SSE state. docs/integration-x86_64.md has an example.
 *
 * Memory: static .bss arrays, per CPU, of BMPROF_X86_TABLE_ENTRIES hash entries and two
 * overflow buffers of BMPROF_X86_OVF_ENTRIES each (DCPI's sizes); override them and
 * BMPROF_X86_MAX_CPUS with -D.
 */
#ifndef BMPROF_X86_64_H
#define BMPROF_X86_64_H

#include <stdint.h>
#include "bmprof.h"
#include "bmprof_pmu.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef BMPROF_X86_TABLE_ENTRIES
#define BMPROF_X86_TABLE_ENTRIES 16384
#endif
#ifndef BMPROF_X86_OVF_ENTRIES
#define BMPROF_X86_OVF_ENTRIES 8192
#endif
#ifndef BMPROF_X86_MAX_CPUS
#define BMPROF_X86_MAX_CPUS 8         /* 1..64 */
#endif
/* Call stacks (config.stack_depth): per CPU, a stack table of BMPROF_X86_STACK_ENTRIES
 * distinct chains holding BMPROF_X86_STACK_FRAMES frames in all; 0 entries: no stack
 * memory, stacks cannot be turned on. */
#ifndef BMPROF_X86_STACK_ENTRIES
#define BMPROF_X86_STACK_ENTRIES 2048
#endif
#ifndef BMPROF_X86_STACK_FRAMES
#define BMPROF_X86_STACK_FRAMES 16384
#endif
/* Raw samples (config.raw): per CPU, a ring of BMPROF_X86_RAW_ENTRIES records (280 bytes
 * each); 0: no raw memory, raw mode cannot be turned on. */
#ifndef BMPROF_X86_RAW_ENTRIES
#define BMPROF_X86_RAW_ENTRIES 64
#endif
#define BMPROF_X86_NO_CPU (~0u)       /* bmprof_x86_cpu_index() on a CPU not set up */

#define BMPROF_X86_DEFAULT_HZ 4000u
#define BMPROF_X86_MAX_HZ 100000u
#define BMPROF_X86_DEFAULT_VECTOR 0x40u
#define BMPROF_X86_TIMER_EVENT 0      /* event id of the timer in SAMPLES */
#define BMPROF_X86_DEFAULT_PMI_VECTOR 0x41u   /* the PMI's vector in IRQ delivery */
#define BMPROF_X86_MAX_EVENTS 32      /* specs accepted; BMPROF_PMU_MAX_EVENTS are kept */

enum bmprof_x86_timer {
	BMPROF_X86_TIMER_AUTO = 0,      /* TSC deadline if the CPU has it, else one-shot */
	BMPROF_X86_TIMER_DEADLINE = 1,  /* TSC-deadline mode (falls back to one-shot if absent) */
	BMPROF_X86_TIMER_ONESHOT = 2,   /* one-shot mode, LAPIC ticks */
	/* Someone else's periodic interrupt (a firmware's timer, at hz per second) calls
	 * bmprof_x86_tick(): bmprof never touches the LAPIC timer, does not re-arm or EOI, and
	 * calibrates only the TSC. Periods are not randomized. */
	BMPROF_X86_TIMER_EXTERNAL = 3,
};

enum bmprof_x86_pmi {
	BMPROF_X86_PMI_NMI = 0,         /* LVT performance counter entry in NMI delivery mode */
	BMPROF_X86_PMI_IRQ = 1,         /* fixed delivery at pmi_vector */
};

enum bmprof_x86_error {
	BMPROF_X86_OK = 0,
	BMPROF_X86_E_NOAPIC = -1,      /* CPUID.1:EDX[9]: no local APIC */
	BMPROF_X86_E_CALIBRATE = -2,   /* the PIT did not tick or the timer did not count */
	BMPROF_X86_E_CONFIG = -3,      /* hz above BMPROF_X86_MAX_HZ, a vector below 32 or 255,
					* more than BMPROF_X86_MAX_EVENTS events, a bad mode, a
					* stack_depth above BMPROF_STACK_DEPTH_MAX or without stack
					* memory */
	BMPROF_X86_E_MEMORY = -4,      /* the core refused the table sizes */
	BMPROF_X86_E_CPU = -5,         /* init twice, init_cpu before init, a CPU index out
					* of range or already set up, two CPUs with one APIC ID */
};

struct bmprof_x86_config {
	uint32_t hz;                    /* timer interrupts per second; 0: no timer (no timer
					 * samples; PMI samples drain only in poll and flush) */
	uint8_t vector;                 /* IDT vector of the timer, 32..254 */
	uint8_t timer;                  /* enum bmprof_x86_timer */
	const struct bmprof_out *out;   /* the stream: drains, HELLO, flush */
	uintptr_t lapic_va;             /* where the xAPIC page is mapped; 0: identity-mapped */
	/* PMU events; with none the PMU is never touched. */
	const char *const *events;      /* nevents `event=` specs (ID:ENC:PERIOD[:NAME[:GROUP]]) */
	uint8_t nevents;
	uint8_t mode;                   /* BMPROF_PMU_SAMPLE or BMPROF_PMU_COUNT (no sampling) */
	uint8_t pmi;                    /* enum bmprof_x86_pmi */
	uint8_t pmi_vector;             /* IRQ delivery: the IDT vector, 32..254; 0: the default */
	uint8_t msr_fixup;              /* 1: your #GP handler calls bmprof_x86_gp_fixup(), so
					 * the PMU probe can touch MSRs a hypervisor may fault on */
	/* Optional, for a stream several CPUs (or a console) share: called around each drain
	 * bmprof starts by itself (bmprof_x86_irq_exit, bmprof_x86_poll), with interrupts
	 * enabled. out_begin returns 0 to go ahead (out_end follows the drain), non-zero to
	 * leave the full buffers for a later interrupt, e.g. when this CPU holds the stream's
	 * lock already; it may wait for another CPU. NULL: no such bracket. */
	int (*out_begin)(void);
	void (*out_end)(void);
	uint64_t load_bias;             /* HELLO: run-time minus link-time address of the image */
	/* The periodic flush (bmprof_flush_delta): every flush_ms milliseconds each CPU sends
	 * what its table and buffers hold, from its interrupt exit with interrupts enabled
	 * (bmprof_x86_irq_exit) or bmprof_x86_poll. 0: off, samples are sent when a buffer
	 * fills and at the end. */
	uint32_t flush_ms;
	/* Call stacks: each sample's frame-pointer chain, at most stack_depth frames (1 ..
	 * BMPROF_STACK_DEPTH_MAX; 0: off). Frame records are read only inside the interrupted
	 * CPU's stack (bmprof_x86_set_stack) or ram; instructions (for a pc in a prologue or
	 * an epilogue) only inside code. Only the *_regs entry points and the ready-made IDT
	 * handlers record chains. */
	uint32_t stack_depth;
	struct bmprof_range ram, code;
	/* Raw samples (data-space profiling): each sample also goes whole, with the
	 * interrupted general registers, into a per-CPU ring sent as RAW_SAMPLES frames.
	 * Only the ready-made entries save every register; the *_regs entry points give the
	 * ones struct bmprof_regs holds. */
	uint8_t raw;
};

/* One per CPU; the calibration fields are CPU 0's on every CPU. */
struct bmprof_x86_info {
	uint64_t tsc_hz;                /* the timebase */
	uint64_t lapic_hz;              /* LAPIC timer input clock (divide by 1) */
	uint64_t period_tsc;            /* nominal period in TSC ticks (0: not sampling) */
	uint64_t jitter_tsc;            /* randomization window in TSC ticks */
	uint32_t hz;
	uint8_t timer;                  /* mode in use: BMPROF_X86_TIMER_DEADLINE or _ONESHOT */
	uint8_t x2apic;                 /* the firmware left the APIC in x2APIC mode */
	uint8_t tsc_from_cpuid;         /* tsc_hz came from CPUID leaf 0x15, not the PIT */
	uint8_t source;                 /* BMPROF_SOURCE_TIMER or _PMU: what samples */
	uint8_t timer_samples;          /* the timer records samples (event 0) */
	uint8_t timer_runs;             /* the timer runs: it samples, or events are on counters
					 * (it rotates groups, reads counters, drains PMI samples) */
	uint8_t pmi;                    /* enum bmprof_x86_pmi in use */
	uint32_t bad_events;            /* bit i: events[i] was malformed and ignored */
	uint64_t pmis;                  /* PMIs that found an overflow */
	uint64_t pmis_deferred;         /* PMIs that arrived in the timer handler, handled at
					 * its end */
	uint64_t nmis_other;            /* NMIs (or deferred PMIs) with no overflow pending */
};

/* Calibrate, set up the LAPIC (timer and PMI masked), the core's state of this CPU, which
 * becomes CPU 0, and with events its PMU (probe, placement). Call once, with interrupts
 * disabled. Returns BMPROF_X86_OK or a negative enum bmprof_x86_error; a malformed event
 * spec is not an error (info()->bad_events, bmprof_x86_event_error()). */
int bmprof_x86_init(const struct bmprof_x86_config *cfg);
/* On another CPU, after bmprof_x86_init() succeeded, with interrupts disabled: enable its
 * LAPIC in the first CPU's mode and set it up as CPU cpu (1..BMPROF_X86_MAX_CPUS-1) with
 * the same calibration, configuration and events. BMPROF_X86_OK or a negative error; on
 * error the CPU is not set up and the index may be given to another CPU. Give the
 * indexes densely from 1: HELLO announces bmprof_x86_ncpus() CPUs. */
int bmprof_x86_init_cpu(unsigned cpu);
const char *bmprof_x86_strerror(int err);
/* The calling CPU's index, or BMPROF_X86_NO_CPU if it was not set up. */
unsigned bmprof_x86_cpu_index(void);
/* CPUs set up so far. */
unsigned bmprof_x86_ncpus(void);
/* The calling CPU's (CPU 0's on a CPU not set up). */
const struct bmprof_x86_info *bmprof_x86_info(void);
struct bmprof_cpu *bmprof_x86_cpu(void);
/* The PMU layer's state after init: caps, each event's status, reason and counter. */
const struct bmprof_pmu *bmprof_x86_pmu(void);
/* Why events[i] was ignored (static text), or 0. */
const char *bmprof_x86_event_error(unsigned i);

/* Send HELLO (CPU identity, timebase, build-id, source, bmprof_x86_ncpus()), the timer's
 * EVENT frame when the timer samples, and one EVENT frame per configured event, as CPU 0
 * placed it. Set up the other CPUs first. */
int bmprof_x86_announce(const uint8_t *build_id, uint8_t build_id_len);
/* The core clock HELLO reports (0, the default: unknown), measured by the integrator in
 * the privilege level its program runs in. Call before bmprof_x86_announce. */
void bmprof_x86_set_core_hz(uint64_t hz);

/* Start this CPU's timer and counters / stop them. After bmprof_x86_stop() returns no
 * sample is recorded on this CPU and its counters are stopped. */
void bmprof_x86_start(void);
void bmprof_x86_stop(void);

/* Measuring what an interrupt costs the program, before sampling starts (this CPU; only
 * when the timer samples and is this runtime's own; -1 otherwise). bmprof_x86_probe(1)
 * starts the timer without recording; bmprof_x86_probe(0) stops it and forgets its times.
 * bmprof_x86_irq_stats reads CPU cpu's count of timer interrupts and the ticks its last
 * handler timed (memory reads only: callable from ring 3 where the image is open to it).
 * bmprof_x86_set_untimed gives the ticks each interrupt costs beyond what its handler
 * times (delivery, return), taken off TOTALS sampled_ticks per interrupt. */
int bmprof_x86_probe(int on);
void bmprof_x86_irq_stats(unsigned cpu, uint64_t *irqs, uint64_t *last_ticks);
void bmprof_x86_set_untimed(unsigned cpu, int64_t ticks);
/* The same in 1/BMPROF_UNTIMED_ONE ticks (a probe's average is finer than a tick). */
void bmprof_x86_set_untimed_fine(unsigned cpu, int64_t untimed);
/* This CPU's KVM steal-time area (the 64 bytes MSR_KVM_STEAL_TIME points to, enabled by
 * the caller): the time the hypervisor ran something else while the workload was due to
 * run is taken off TOTALS sampled_ticks too. Before bmprof_x86_start. */
void bmprof_x86_set_steal(const volatile void *kvm_steal_time);

/* From the timer vector, interrupts disabled: record rip as a sample of event 0 (when the
 * timer samples), rotate and read the counters (bmprof_pmu_tick), re-arm, EOI (neither with
 * BMPROF_X86_TIMER_EXTERNAL: the interrupt's owner does that); then handle a PMI NMI that
 * arrived meanwhile. */
void bmprof_x86_tick(uint64_t rip);

/* The same three entries with the interrupted registers (rip, rsp from the interrupt
 * frame, rbp as it was), so the sample's call chain is recorded when stacks are on. */
void bmprof_x86_tick_regs(const struct bmprof_regs *r);
int bmprof_x86_nmi_regs(const struct bmprof_regs *r);
void bmprof_x86_pmi_regs(const struct bmprof_regs *r);

/* The calling CPU's stack [lo, hi): where its frame records may be read. Call after
 * bmprof_x86_init / bmprof_x86_init_cpu on that CPU. */
void bmprof_x86_set_stack(uint64_t lo, uint64_t hi);

/* The PMI delivered as an NMI: record rip for each overflowed sampling counter, re-arm,
 * acknowledge, unmask the LVT entry. Only records: safe wherever the NMI lands (the drain,
 * the console); one that lands inside bmprof_x86_tick is handled when the tick ends.
 * Returns 0 if no overflow was pending (an NMI from another source). */
int bmprof_x86_nmi(uint64_t rip);
/* The PMI delivered as an interrupt (pmi = BMPROF_X86_PMI_IRQ): the same, then EOI. */
void bmprof_x86_pmi(uint64_t rip);

/* Interrupt exit ("bottom half"), interrupts disabled on entry and on return: if a full
 * overflow buffer of this CPU waits (or, with flush_ms, the periodic flush is due) and no
 * drain runs on it, enable interrupts, drain or flush (inside out_begin/out_end),
 * disable. */
void bmprof_x86_irq_exit(void);

/* The ready-made IDT handlers (addresses, not C functions): the timer vector, vector 2
 * (NMI), the PMI vector in IRQ delivery. */
void bmprof_x86_timer_entry(void);
void bmprof_x86_nmi_entry(void);
void bmprof_x86_pmi_entry(void);

/* For your #GP handler: if the fault is one of bmprof's probing MSR accesses, move *rip to
 * its recovery path and return 1 (return from the exception to *rip); else 0. */
int bmprof_x86_gp_fixup(uint64_t *rip);
/* RDMSR / WRMSR that return -1 instead of faulting. Only with bmprof_x86_gp_fixup() in
 * your #GP handler. */
int bmprof_x86_rdmsr_safe(uint32_t msr, uint64_t *v);
int bmprof_x86_wrmsr_safe(uint32_t msr, uint64_t v);

/* For idle loops, with interrupts enabled: send this CPU's full overflow buffers if any,
 * and with flush_ms its table and buffers when the interval is due. */
void bmprof_x86_poll(void);

/* Stop sampling and counting on this CPU, send its COUNTS (when events are on counters),
 * every remaining sample and its TOTALS. */
void bmprof_x86_flush(void);
/* The same for CPU cpu, from any CPU, once cpu is quiescent: bmprof_x86_stop() has
 * returned on it, no drain runs there, and it enters no bmprof function until this
 * returns (it may take NMIs). Nothing is lost or sent twice: what its handler recorded
 * is all in its state. */
void bmprof_x86_flush_cpu(unsigned cpu);

#ifdef __cplusplus
}
#endif

#endif
