/* SPDX-License-Identifier: BSD-2-Clause */
/* The PMU layer: arch-neutral event scheduling over a small per-architecture driver.
 *
 * A driver (Intel, AMD, Arm PMUv3) is an ops table that knows its counters and registers;
 * the neutral part (target/core/pmu_*.c) parses the requested events, places them on
 * counters, multiplexes groups on the timer tick, extends counts to 64 bits, re-arms
 * sampling counters with randomized periods, and emits EVENT and COUNTS frames.
 *
 * Counter numbering seen by the neutral layer: indexes 0 .. ngp-1 are general-purpose
 * counters, BMPROF_PMU_FIXED_BASE + i are fixed-function counters (x86 fixed counter i;
 * on AArch64 fixed 0 is PMCCNTR_EL0). Masks use bit i for GP counter i and bit
 * BMPROF_PMU_FIXED_BASE + i for fixed counter i.
 *
 * Life of one CPU's PMU:
 *
 *   bmprof_pmu_parse_event() per event=  ─►  bmprof_pmu_setup()  ─►  bmprof_pmu_announce()
 *   bmprof_pmu_start()  ─►  PMI: bmprof_pmu_overflow()   timer: bmprof_pmu_tick()
 *   bmprof_pmu_stop()   ─►  bmprof_pmu_emit_counts()
 *
 * Placement: a word (cycles, instructions, ref-cycles) goes to the fixed counter of that
 * kind when the CPU has a free one, else to a GP counter with the vendor's encoding; other
 * events go to GP counters. Events are packed first-fit, in the order given, into groups
 * that each fit the PMU; events with the same GROUP are placed as one unit. With more than
 * one group, bmprof_pmu_tick() rotates: one group is on the PMU at a time, beside the
 * events whose counters no other group uses, which stay on ("pinned").
 *
 * Counts: each placed event keeps a 64-bit count, extended from the counter's width by
 * reading it at least on every tick (counting events), on every overflow (sampling events)
 * and whenever its group leaves the PMU. enabled is the time since start; running is the
 * time its group was on the PMU; both in the timebase of the `now` arguments.
 *
 * Concurrency, per CPU (struct bmprof_pmu is never shared between CPUs):
 *   - setup, announce, start, stop and emit_counts run with interrupts masked (x86: the
 *     PMI may still arrive as an NMI during start and stop);
 *   - bmprof_pmu_tick() runs in the timer interrupt; bmprof_pmu_overflow() in the PMI,
 *     which on x86 is an NMI and so may interrupt the tick (never the other way round).
 *   The PMI touches only the sampling events on the PMU (their count, last, next, samples)
 *   and their counters, and only while `running` is set. tick sets busy to BUSY_GROUP
 *   (compiler-ordered) before it stops the rotating group and touches its counters or
 *   events, and clears it before it enables the next group; start and stop do the same
 *   with BUSY_ALL around every counter. A PMI that finds an event's counter busy
 *   acknowledges its overflow without a sample; the code it interrupted counts the wrap
 *   and re-arms the counter. Counting events and the times are touched only by
 *   tick/start/stop, which never interrupt one another. So no lock and no wait on either
 *   path. The core's random state (one 64-bit word) is shared by the re-arms and the
 *   timer's randomized deadlines. A sampler randomizes its timer only when no event
 *   samples on the PMU; a PMI for a pinned event may interrupt tick re-arming a rotating
 *   one, which at worst draws the same period twice.
 */
#ifndef BMPROF_PMU_H
#define BMPROF_PMU_H

#include <stdint.h>
#include "bmprof.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BMPROF_PMU_MAX_GP 16
#define BMPROF_PMU_MAX_FIXED 16   /* x86: 8 fixed counters, then the PERF_METRICS fields */
#define BMPROF_PMU_FIXED_BASE 32
#define BMPROF_PMU_MAX_EVENTS 16
#define BMPROF_PMU_NAME_MAX 32
#define BMPROF_PMU_MIN_PERIOD 10000u   /* events; shorter periods mostly sample the handler */
#define BMPROF_PMU_NONE 0xffu          /* counter, group, user_group: none */

/* What a fixed counter counts; an event spec's word (cycles, instructions, ref-cycles)
 * goes to the fixed counter of that kind when the CPU has one. */
enum bmprof_fixed_kind {
	BMPROF_FIXED_NONE = 0,
	BMPROF_FIXED_INSTRUCTIONS,
	BMPROF_FIXED_CYCLES,
	BMPROF_FIXED_REF_CYCLES,
	BMPROF_FIXED_SLOTS,
	/* Intel PERF_METRICS fields (SLOTS x fraction), counted on pseudo fixed counters */
	BMPROF_FIXED_TD_RETIRING,
	BMPROF_FIXED_TD_BAD_SPEC,
	BMPROF_FIXED_TD_FE_BOUND,
	BMPROF_FIXED_TD_BE_BOUND,
	BMPROF_FIXED_TD_HEAVY_OPS,
	BMPROF_FIXED_TD_BR_MISPREDICT,
	BMPROF_FIXED_TD_FETCH_LAT,
	BMPROF_FIXED_TD_MEM_BOUND,
};

enum bmprof_pmu_vendor { BMPROF_VENDOR_ANY = 0, BMPROF_VENDOR_INTEL, BMPROF_VENDOR_AMD,
			 BMPROF_VENDOR_ARM, BMPROF_VENDOR_RISCV };

struct bmprof_pmu_caps {
	uint8_t vendor;                 /* enum bmprof_pmu_vendor */
	uint8_t version;                /* Intel arch perfmon version, AMD PerfMonV2 = 2, PMUv3 minor */
	uint8_t ngp;                    /* general-purpose counters */
	uint8_t nfixed;                 /* fixed-function counters */
	uint8_t gp_width;               /* bits */
	uint8_t fixed_width;
	uint8_t fixed_kind[BMPROF_PMU_MAX_FIXED];   /* enum bmprof_fixed_kind per fixed counter */
	uint8_t can_interrupt;          /* overflow interrupts work */
	uint32_t gp_mask_for_event;     /* GP counters events may use; 0: all ngp of them */
	/* Counters (mask as above) whose overflow does not interrupt although can_interrupt
	 * is set; a sampling event placed on one is counted only (reason NO_OVERFLOW). */
	uint64_t no_irq_mask;
	/* Longest sampling period a counter can be armed with (e.g. 2^31 - 1 where writes
	 * are sign-extended from 32 bits); 0: 2^width - 1. Longer periods are cut to it. */
	uint64_t max_period;
};

/* bmprof_pmu_event.flags */
#define BMPROF_PMUEV_NO_GP 0x01u       /* a word with no GP encoding for this vendor */
#define BMPROF_PMUEV_WRAPPED 0x02u     /* a counting counter wrapped (COUNTS flag bit 0) */
#define BMPROF_PMUEV_SAMPLES 0x04u     /* set by setup: armed to interrupt on overflow */
#define BMPROF_PMUEV_PEBS 0x08u        /* set by setup: sampled by PEBS records */

/* overflow() sets this bit when PEBS records wait in the buffer (x86: the OvfBuffer bit
 * of IA32_PERF_GLOBAL_STATUS); ack() with it clears it. */
#define BMPROF_PMU_PEBS_BIT 62
/* program()'s irq for a PEBS counter: no overflow interrupt, a PEBS record per overflow */
#define BMPROF_PMU_IRQ_PEBS 2
/* PEBS records bmprof_pmu_overflow*() takes from the driver per call of pebs_drain */
#define BMPROF_PMU_PEBS_BATCH 8

/* One requested event, as the neutral layer keeps it. An event placed on a counter that
 * no other group uses stays on the PMU all the time: its group is then 0xff ("pinned";
 * the members of a GROUP are pinned all together or not at all). */
struct bmprof_pmu_event {
	uint16_t id;
	uint8_t status;                 /* enum bmprof_event_status (wire.h) */
	uint8_t reason;                 /* enum bmprof_event_reason */
	uint8_t group;                  /* multiplexing group (0xff: pinned, or not placed) */
	uint8_t user_group;             /* GROUP from the spec (0xff: none) */
	uint8_t fixed;                  /* enum bmprof_fixed_kind if a word was given */
	uint8_t counter;                /* 0xff: none; else a counter index as above */
	uint64_t encoding;              /* the chosen vendor alternative's code */
	uint64_t period;                /* 0: counting only */
	uint64_t jitter;
	uint64_t next;                  /* period the counter was last armed with */
	uint64_t count;                 /* 64-bit total while running */
	uint64_t enabled, running;      /* timebase ticks */
	uint64_t last;                  /* raw counter value at the last read */
	char name[BMPROF_PMU_NAME_MAX];
	uint8_t flags;                  /* BMPROF_PMUEV_* */
	uint64_t samples;               /* overflow interrupts that recorded a sample */
	uint8_t precise;                /* enum bmprof_precise (wire.h), set by setup */
};

/* A driver. Every function is called with interrupts (and the PMI) disabled on this CPU,
 * except overflow/ack/write, which the PMI handler calls. No function allocates or waits. */
struct bmprof_pmu_ops {
	const char *name;
	/* Fill caps; return 0, or -1 if this driver's PMU is absent. */
	int (*probe)(struct bmprof_pmu_caps *caps);
	/* Program counter ctr for encoding (GP) or enable fixed counter ctr; irq: raise the
	 * overflow interrupt. The counter stays stopped until enable(). */
	void (*program)(unsigned ctr, uint64_t encoding, int irq);
	/* Stop counter ctr and clear its configuration. */
	void (*clear)(unsigned ctr);
	uint64_t (*read)(unsigned ctr);
	void (*write)(unsigned ctr, uint64_t value);   /* value within the counter's width */
	void (*enable)(uint64_t mask);                 /* start counters in mask */
	void (*disable)(uint64_t mask);                /* stop counters in mask */
	uint64_t (*overflow)(void);                    /* counters whose overflow is pending */
	void (*ack)(uint64_t mask);                    /* clear those overflow bits, re-arm PMI */
	/* Optional (NULL: every encoding is implemented): 0 if this CPU does not implement the
	 * GP event encoding (the event is then UNAVAILABLE, reason UNSUPPORTED). */
	int (*event_ok)(uint64_t encoding);
	/* Optional, Intel PEBS. pebs_ok: whether GP counter ctr can sample encoding by PEBS
	 * here: 0 yes, -1 not an event (or a counter) PEBS samples, else the enum
	 * bmprof_precise reason an event that could cannot. A counter programmed with irq
	 * BMPROF_PMU_IRQ_PEBS is reloaded by the hardware with pebs_reload's value (within
	 * its width) after each record. pebs_drain (the PMI) moves at most max records into
	 * out, oldest first, each with the GP counter it applies to in event; it returns how
	 * many, and the records it could not take wait for the next call. */
	int (*pebs_ok)(unsigned ctr, uint64_t encoding);
	void (*pebs_reload)(unsigned ctr, uint64_t value);
	unsigned (*pebs_drain)(struct bmprof_raw *out, unsigned max);
};

enum bmprof_pmu_mode { BMPROF_PMU_SAMPLE = 0, BMPROF_PMU_COUNT = 1 };

/* One CPU's PMU state. */
struct bmprof_pmu {
	const struct bmprof_pmu_ops *ops;   /* NULL: no PMU */
	struct bmprof_pmu_caps caps;
	struct bmprof_cpu *cpu;             /* where samples go */
	uint8_t mode;
	uint8_t nevents;
	uint8_t ngroups;
	uint8_t cur;                        /* group on the PMU now */
	uint8_t running;
	uint64_t last_tick;                 /* timebase at the last rotation/read */
	struct bmprof_pmu_event ev[BMPROF_PMU_MAX_EVENTS];
	volatile uint8_t busy;              /* enum bmprof_pmu_busy: what the PMI must not touch */
	const char *error;                  /* why the last parse failed (static text) */
	uint64_t group_mask[BMPROF_PMU_MAX_EVENTS];   /* counters each group rotates through */
	uint64_t pinned_mask;               /* counters that stay on the PMU in every group */
};

enum bmprof_pmu_busy { BMPROF_PMU_IDLE = 0, BMPROF_PMU_BUSY_GROUP = 1, BMPROF_PMU_BUSY_ALL = 2 };

/* Parse one `event=` value (ID:ENC:PERIOD[:NAME[:GROUP]], see docs/image.md) into p,
 * choosing the alternative for vendor. Returns 0, or -1 with nothing added if the text is
 * malformed or the table is full (p->error says which part is wrong). An encoding with no
 * alternative for vendor is added with status UNAVAILABLE, reason BAD_ENCODING.
 *   ID      1..65535, unique (0 is the timer's)
 *   ENC     alternatives separated by '/', each [intel.|amd.|arm.|riscv.]CODE, CODE hex (0x
 *           optional) or a word: cycles, instructions, ref-cycles; the first alternative
 *           whose vendor is `vendor` or absent is taken
 *   PERIOD  decimal; 0: count only, else at least BMPROF_PMU_MIN_PERIOD
 *   NAME    1..31 characters (default: the word, or r<hex code>)
 *   GROUP   decimal 0..254: events with the same GROUP are on the PMU together */
int bmprof_pmu_parse_event(struct bmprof_pmu *p, const char *text, unsigned len, uint8_t vendor);
/* The same for a NUL-terminated spec (NULL: empty). */
int bmprof_pmu_parse_spec(struct bmprof_pmu *p, const char *spec, uint8_t vendor);

/* Probe ops (may be NULL), then place the parsed events on counters and into groups.
 * Events that cannot be placed get status UNAVAILABLE with a reason; with no PMU every
 * event is UNAVAILABLE (NO_PMU). In sampling mode, when no event can sample on the PMU,
 * the events that asked to sample get status FALLBACK (the timer samples instead). cpu
 * gives the random periods and receives the samples (may be NULL in counting mode).
 * Returns the number of events that will count. */
int bmprof_pmu_setup(struct bmprof_pmu *p, const struct bmprof_pmu_ops *ops,
		     struct bmprof_cpu *cpu, uint8_t mode);

/* Non-zero if any event samples on overflow (HELLO source PMU). */
int bmprof_pmu_sampling(const struct bmprof_pmu *p);

/* Non-zero if the PMU needs bmprof_pmu_tick(): more than one group to rotate, or
 * counting events whose counters must be read before they wrap. */
int bmprof_pmu_needs_tick(const struct bmprof_pmu *p);

/* Start / stop counting; now is the timebase. */
void bmprof_pmu_start(struct bmprof_pmu *p, uint64_t now);
void bmprof_pmu_stop(struct bmprof_pmu *p, uint64_t now);

/* The PMI: read the overflow mask and ack it, then for each overflowed sampling counter on
 * the PMU re-arm it with the next randomized period and record pc as a sample of its
 * event. Returns the overflow mask. */
uint64_t bmprof_pmu_overflow(struct bmprof_pmu *p, uint64_t pc);
/* The same, recording each sample under the call chain's id stack (bmprof_stack_id). */
uint64_t bmprof_pmu_overflow_stack(struct bmprof_pmu *p, uint64_t pc, uint16_t stack);
/* The same, and in raw mode (raw non-NULL) a copy of raw with each overflowed event's id
 * into the CPU's raw ring (bmprof_record_raw). */
uint64_t bmprof_pmu_overflow_raw(struct bmprof_pmu *p, uint64_t pc, uint16_t stack,
				 const struct bmprof_raw *raw);

/* The timer tick: fold counts and, with more than one group, rotate to the next. */
void bmprof_pmu_tick(struct bmprof_pmu *p, uint64_t now);

/* Frames: one EVENT frame per event, COUNTS for this CPU (every event placed on a
 * counter; nothing if none is). */
int bmprof_pmu_announce(const struct bmprof_pmu *p, const struct bmprof_out *out);
int bmprof_pmu_emit_counts(const struct bmprof_pmu *p, const struct bmprof_out *out);

#ifdef __cplusplus
}
#endif

#endif
