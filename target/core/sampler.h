/* SPDX-License-Identifier: BSD-2-Clause */
/* The arch-neutral sampler (sampler.c) and the ops table an architecture implements under
 * it (target/arch/<arch>/ops.c; docs/porting.md says what each op must do).
 *
 * The sampler owns everything that is the same on every architecture: finding the
 * running CPU's state by a hardware id, each CPU's core state (struct bmprof_cpu) and PMU
 * state, the timer's randomized deadlines counted from the previous one, the timer tick
 * (record, PMU tick and rotation, re-arm), the counter-overflow interrupt (with a PMI that
 * lands inside the tick deferred to its end, for a PMI delivered as an NMI), the handler's
 * own time (struct bmprof_timing) and steal time, the interrupt-exit drain and poll
 * between out_begin/out_end, the periodic flush, HELLO and the EVENT frames, the probe
 * mode of boot/common/gapprobe.c, and the final flush with TOTALS sampled_ticks.
 *
 * An architecture gives it the hardware: the timebase, the interrupt mask, its timer, the
 * overflow interrupt's mask, the hardware id, the CPU identity for HELLO and optionally
 * steal time; it keeps its interrupt controller and dispatch (which interrupt is the
 * timer's or the PMU's) and calls the sampler's entry points below from its handlers.
 *
 * One sampler per image: the state is the global bmprof_sampler. Per CPU, everything the
 * interrupt path writes is in that CPU's struct bmprof_scpu, in cache lines of its own, so
 * the paths share nothing and take no lock. Freestanding; also built for the host, where
 * the unit tests drive it over an ops table of their own. Private to the library. */
#ifndef BMPROF_SAMPLER_H
#define BMPROF_SAMPLER_H

#include <stddef.h>
#include <stdint.h>
#include "bmprof.h"
#include "bmprof_pmu.h"

#define BMPROF_SAMPLER_MAX_CPUS 64     /* the CPU masks are 64-bit */
#define BMPROF_SAMPLER_MIN_PERIOD 64   /* timebase ticks; a shorter period only measures
					* the handler */
#define BMPROF_SAMPLER_TIMER_EVENT 0   /* the timer's event id in SAMPLES */

/* Static per-CPU memory, sized at compile time: the table rounded up to a power of two
 * entries, and the two overflow buffers. */
#define BMPROF_SMEAR1(v) ((v) | (v) >> 1)
#define BMPROF_SMEAR2(v) (BMPROF_SMEAR1(v) | BMPROF_SMEAR1(v) >> 2)
#define BMPROF_SMEAR4(v) (BMPROF_SMEAR2(v) | BMPROF_SMEAR2(v) >> 4)
#define BMPROF_SMEAR8(v) (BMPROF_SMEAR4(v) | BMPROF_SMEAR4(v) >> 8)
#define BMPROF_SMEAR16(v) (BMPROF_SMEAR8(v) | BMPROF_SMEAR8(v) >> 16)
#define BMPROF_POW2_UP(x) (BMPROF_SMEAR16((unsigned long)(x) - 1) + 1)
#define BMPROF_STATIC_MEM(table_entries, ovf_entries) \
	((BMPROF_POW2_UP(table_entries) + 2ul * (ovf_entries)) * sizeof(struct bmprof_entry))
/* bmprof_stacks_mem_size() at compile time */
/* bmprof_raw_mem_size() at compile time */
#define BMPROF_RAW_MEM(entries) ((entries) * sizeof(struct bmprof_raw))
#define BMPROF_STACKS_MEM(entries, frames) \
	((frames) * 8ul + (entries) * sizeof(struct bmprof_stack_def) + \
	 BMPROF_POW2_UP(2ul * (entries)) * sizeof(uint16_t))

struct bmprof_scpu;

/* One architecture's hardware, under the sampler. Ops marked "may be NULL" are optional;
 * every other one must be given. None allocates, waits or takes a lock. "On this CPU":
 * the op acts on the CPU it runs on, which is c's. */
struct bmprof_sampler_ops {
	const char *name;
	uint8_t arch;                              /* HELLO: enum bmprof_arch */
	/* The overflow interrupt may be an NMI, which cannot drain at its exit: the timer
	 * then runs whenever events are on counters, to drain what it records. (An overflow
	 * interrupt that lands inside the tick is deferred to its end either way.) */
	uint8_t timer_drains_pmi;
	uint64_t (*now)(void);                     /* the timebase: HELLO timebase_hz ticks */
	/* Interrupts on this CPU: mask and return the previous state / put it back /
	 * unmask / mask. */
	uint64_t (*irq_save)(void);
	void (*irq_restore)(uint64_t state);
	void (*irq_enable)(void);
	void (*irq_disable)(void);
	uint64_t (*hwid)(void);                    /* this CPU's hardware id (LAPIC ID, MPIDR) */
	void (*cpuinfo)(struct bmprof_hello *h);   /* vendor, family, model, stepping, signature */
	/* The timer, on this CPU. timer_arm NULL: the timer is not the sampler's (another's
	 * periodic interrupt calls the tick): no deadline, no re-arm, no handler timing, and
	 * the other timer ops are not called. timer_start makes the timer interrupt deliverable
	 * (before the first timer_arm); timer_arm fires it at deadline (an absolute timebase
	 * value, maybe already past: then at once); timer_stop disarms it and takes its
	 * interrupt down; timer_ack ends a tick (the EOI; may be NULL: the caller's). */
	void (*timer_start)(struct bmprof_scpu *c);
	void (*timer_arm)(struct bmprof_scpu *c, uint64_t deadline);
	void (*timer_stop)(struct bmprof_scpu *c);
	void (*timer_ack)(void);
	/* The counter-overflow interrupt on this CPU: deliverable or not (start, stop), and
	 * made deliverable again after each one while sampling runs (may be NULL: it stays
	 * so). */
	void (*pmi_enable)(struct bmprof_scpu *c, int on);
	void (*pmi_rearm)(void);
	/* Nanoseconds a hypervisor ran something else instead of this CPU so far, for a CPU
	 * whose steal is set (bmprof_sampler_set_steal); may be NULL. */
	uint64_t (*steal_ns)(const struct bmprof_scpu *c);
	/* The unwind's first step, where the frame-pointer chain alone would miss the leaf's
	 * caller: the interrupted pc in a prologue or an epilogue (the frame record not yet
	 * made, or already taken down) or in a leaf that keeps its return address in the link
	 * register (AArch64, RISC-V). Reads instructions only inside e->code and the stack
	 * only inside e->stack or e->ram. Returns 0 (the chain from *fp is complete), or 1
	 * with the caller's return address in *caller, or 2 with a caller that may be stale
	 * (BMPROF_STACKF_LR_MAYBE). *fp is r->fp on entry; the op may set it to the caller's
	 * frame pointer where the function saved that alone (a RISC-V leaf). May be NULL: the
	 * frame-pointer chain from r->fp alone. */
	int (*leaf_caller)(const struct bmprof_regs *r, const struct bmprof_unwind_env *e,
			   uint64_t *caller, uint64_t *fp);
	/* The whole call chain, where frame records do not chain (Cortex-M): return addresses
	 * of r into out (max at most), *more set where it went on. Reads as leaf_caller does.
	 * May be NULL: leaf_caller and the frame-pointer walk. */
	unsigned (*unwind)(const struct bmprof_regs *r, const struct bmprof_unwind_env *e,
			   uint64_t *out, unsigned max, int *more);
	/* Where a frame record { caller's fp, return address } lies from the frame pointer:
	 * 0 (x86-64, AArch64) or -16 (RISC-V, just below s0). */
	int8_t fp_record;
	/* Raw samples: the interrupted general registers of r into s->r in DWARF order, and
	 * the mask of those it could fill into s->valid (from r->frame when the entry saved
	 * one, else at least sp, fp, lr where r has them). May be NULL: raw mode has the pc
	 * alone. raw_nregs: the architecture's register slots. */
	void (*raw_regs)(const struct bmprof_regs *r, struct bmprof_raw *s);
	uint8_t raw_nregs;
};

/* One CPU's state, in cache lines of its own. */
struct bmprof_scpu {
	struct bmprof_cpu core;
	struct bmprof_pmu pmu;
	struct bmprof_timing tm;     /* the workload's time while the timer samples */
	uint64_t deadline;           /* the timebase value the armed period ends at */
	uint64_t t0;                 /* where the open handler's time started */
	uint64_t period, jitter;     /* the timer's, in timebase ticks (period 0: hz 0) */
	uint64_t hwid;
	uint16_t idx;
	uint8_t open;                /* an outermost timer handler is being timed */
	uint8_t pmu_on;              /* events are on counters */
	uint8_t pmi_on;              /* some of them interrupt on overflow */
	uint8_t timer_samples;       /* the timer records samples (event 0) */
	uint8_t timer_runs;          /* the timer interrupts: it samples, rotates, reads, drains */
	volatile int running;
	volatile int in_bh;          /* the interrupt-exit drain runs */
	volatile int in_timer;       /* the timer's tick runs */
	volatile int deferred;       /* a PMI came during it */
	volatile int quiet;          /* probe mode: the timer runs, nothing is recorded */
	/* Steal time (ns): the area the op reads, the steal at the last handler's exit or the
	 * start, and what was stolen outside the handler since the start. */
	const volatile void *steal;
	uint64_t steal_mark, steal_outside;
	uint64_t pmis;               /* overflow interrupts that found an overflow */
	uint64_t pmis_deferred;      /* of them, the ones that came during the tick */
	uint64_t pmis_other;         /* overflow interrupts (or NMIs) with no overflow */
	struct bmprof_range stack;   /* this CPU's stack, for the unwind (bmprof_sampler_set_stack) */
	struct bmprof_regs deferred_regs;   /* a deferred PMI's registers */
	struct bmprof_raw deferred_raw;     /* and its raw sample, captured where it came */
} __attribute__((aligned(BMPROF_CACHE_LINE)));

/* What an architecture's init hands the sampler. */
struct bmprof_sampler_config {
	const struct bmprof_sampler_ops *ops;
	struct bmprof_scpu *cpus;          /* max_cpus of them, static */
	unsigned max_cpus;                 /* 1 .. BMPROF_SAMPLER_MAX_CPUS */
	uint8_t *mem;                      /* max_cpus * mem_per_cpu bytes, 64-byte aligned */
	size_t mem_per_cpu;                /* a multiple of 64 */
	uint32_t table_entries, ovf_entries;
	uint64_t timebase_hz;
	uint32_t hz;                       /* timer interrupts per second; 0: none */
	uint32_t flush_ms;                 /* the periodic flush; 0: off */
	uint8_t mode;                      /* enum bmprof_pmu_mode */
	const struct bmprof_out *out;
	int (*out_begin)(void);            /* around each drain the sampler starts; may be NULL */
	void (*out_end)(void);
	uint64_t load_bias;                /* HELLO */
	/* Call stacks: stack_depth frames at most (0: off), in stack_mem_per_cpu bytes per CPU
	 * at stack_mem (8-byte aligned) for stack_entries chains of stack_frames frames in
	 * all; frame records may also lie in ram, instructions are read only in code. */
	uint32_t stack_depth, stack_entries, stack_frames;
	uint8_t *stack_mem;
	size_t stack_mem_per_cpu;
	struct bmprof_range ram, code;
	/* Raw samples: on (raw non-zero) with a ring of raw_entries records per CPU in
	 * raw_mem_per_cpu bytes per CPU at raw_mem (8-byte aligned). */
	uint8_t raw;
	uint32_t raw_entries;
	uint8_t *raw_mem;
	size_t raw_mem_per_cpu;
};

struct bmprof_sampler {
	/* a copy of cfg.ops: an op is one indirect call, with no pointer to load first */
	struct bmprof_sampler_ops ops;
	volatile uint64_t known;           /* bit i: cpus[i].hwid is valid */
	volatile uint64_t up;              /* bit i: CPU i is set up */
	struct bmprof_scpu *cpus;          /* cfg.cpus */
	uint8_t own_timer;                 /* ops.timer_arm is set */
	uint64_t core_hz;                  /* HELLO; 0: unknown */
	struct bmprof_sampler_config cfg;
};

extern struct bmprof_sampler bmprof_sampler;

static inline const struct bmprof_sampler_ops *bmprof_sampler_ops(void)
{
	return &bmprof_sampler.ops;
}

/* The timer is the sampler's own (not another's periodic interrupt). */
static inline int bmprof_sampler_own_timer(void) { return bmprof_sampler.own_timer; }

/* The timer interrupts on c. */
static inline int bmprof_sampler_timer_on(const struct bmprof_scpu *c)
{
	return c->timer_runs && c->period;
}

/* ---- set-up, with interrupts masked ---- */

/* Forget every CPU and take cfg (copied). */
void bmprof_sampler_init(const struct bmprof_sampler_config *cfg);
/* CPU idx on this CPU: claims idx with this CPU's hardware id and clears its state.
 * NULL if idx is out of range or set up, or this CPU has an index already. */
struct bmprof_scpu *bmprof_sampler_claim(unsigned idx);
/* The claimed CPU's core state (its table and buffers) and, when events were parsed into
 * c->pmu beforehand, its PMU: pmu_ops probed (NULL: no PMU) and the events placed (with
 * none the PMU is never touched). Then which source samples and the timer's period. 0, or
 * -1 if the core refused the sizes, -2 if the timer's period is below
 * BMPROF_SAMPLER_MIN_PERIOD. */
int bmprof_sampler_setup(struct bmprof_scpu *c, const struct bmprof_pmu_ops *pmu_ops);
/* Publish c as set up / give its index back after a failed set-up. */
void bmprof_sampler_publish(struct bmprof_scpu *c);
void bmprof_sampler_forget(struct bmprof_scpu *c);

/* ---- look-ups ---- */

struct bmprof_scpu *bmprof_sampler_by_hwid(uint64_t known);

/* The running CPU's state, or NULL if it was not set up. While only CPU 0 is known it is
 * the only one the sampler's interrupts come to: no hardware id is read. */
static inline struct bmprof_scpu *bmprof_sampler_cur(void)
{
	uint64_t known = __atomic_load_n(&bmprof_sampler.known, __ATOMIC_ACQUIRE);

	if (__builtin_expect(known <= 1, 1))
		return known ? bmprof_sampler.cpus : 0;
	return bmprof_sampler_by_hwid(known);
}
/* The same, always by the hardware id. */
struct bmprof_scpu *bmprof_sampler_self(void);
/* CPU idx if it is set up, else NULL. */
struct bmprof_scpu *bmprof_sampler_at(unsigned idx);
unsigned bmprof_sampler_ncpus(void);

/* ---- per CPU, on the running CPU ---- */

int bmprof_sampler_announce(const uint8_t *build_id, uint8_t build_id_len);
void bmprof_sampler_start(void);
void bmprof_sampler_stop(void);
int bmprof_sampler_probe(int on);
void bmprof_sampler_poll(void);
void bmprof_sampler_flush(void);
void bmprof_sampler_set_steal(const volatile void *area);
/* The running CPU's stack [lo, hi), where the unwind may read frame records. */
void bmprof_sampler_set_stack(uint64_t lo, uint64_t hi);

/* ---- the interrupt paths, interrupts masked ---- */

/* The timer's tick on c: record (when the timer samples), PMU tick, re-arm, ack; then a
 * PMI deferred meanwhile. */
void bmprof_sampler_tick(struct bmprof_scpu *c, uint64_t pc);
/* The overflow interrupt on c: record and re-arm the overflowed counters, or, inside the
 * tick, note pc for its end. 0 if no counter had overflowed. */
int bmprof_sampler_overflow(struct bmprof_scpu *c, uint64_t pc);
/* The same with the interrupted registers, from which a call chain is recorded when
 * stacks are on (the pc-only forms record no chain). */
void bmprof_sampler_tick_regs(struct bmprof_scpu *c, const struct bmprof_regs *r);
int bmprof_sampler_overflow_regs(struct bmprof_scpu *c, const struct bmprof_regs *r);
/* The call chain of r into frames (BMPROF_STACK_DEPTH_MAX of them): how many, and the
 * chain's flags in *flags. */
unsigned bmprof_sampler_unwind(const struct bmprof_scpu *c, const struct bmprof_regs *r,
			       uint64_t *frames, uint8_t *flags);
/* After an interrupt's acknowledge and EOI: its time ends here unless a drain is due. */
void bmprof_sampler_handled(struct bmprof_scpu *c);
/* Interrupt exit: drain or flush (interrupts unmasked, inside out_begin/out_end) when
 * due and no drain runs on c; the handler's time ends. */
void bmprof_sampler_exit(struct bmprof_scpu *c);
/* The timer's whole interrupt, for a ready-made entry: tick and exit on this CPU, or only
 * the ack on a CPU not set up. */
void bmprof_sampler_timer_irq(uint64_t pc);
void bmprof_sampler_timer_irq_regs(const struct bmprof_regs *r);

/* ---- by index, from any CPU ---- */

/* Send CPU idx's COUNTS, samples and TOTALS, once it is quiescent (stopped, no drain). */
void bmprof_sampler_flush_cpu(unsigned idx);
void bmprof_sampler_irq_stats(unsigned idx, uint64_t *irqs, uint64_t *last_ticks);
/* untimed in 1/BMPROF_UNTIMED_ONE ticks (struct bmprof_timing) */
void bmprof_sampler_set_untimed(unsigned idx, int64_t untimed);

#endif
