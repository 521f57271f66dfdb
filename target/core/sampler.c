/* SPDX-License-Identifier: BSD-2-Clause */
/* The arch-neutral sampler over an architecture's ops table (sampler.h).
 *
 * Nesting, per CPU. The timer's tick and the overflow interrupt both enter the core
 * (bmprof_record) and the PMU layer, and neither is re-entrant. Delivered as interrupts
 * they cannot nest (both run with interrupts masked). An NMI can land anywhere, so the
 * tick marks itself (in_timer) and an overflow interrupt that finds the mark only notes
 * its pc; the tick handles it before it returns (the counters stay frozen or the
 * interrupt masked until then, so no sample is lost). Outside the tick it records at once:
 * the drain and the rest of the program are safe to interrupt with bmprof_record.
 *
 * The handler's own time: an outermost timer interrupt is timed from the deadline it
 * answers (its delivery is not the workload's time either) or, if that is not within a
 * period before, from its entry, to the end of its interrupt-exit drain, or to its EOI
 * when nothing drains. A tick nested in the drain is inside that time already. With steal
 * time, what was stolen since the last exit is the workload's loss, and when there was
 * some, the time since the deadline may be it: the handler then times from entry. */
#include "sampler.h"
#include "wire.h"

struct bmprof_sampler bmprof_sampler;

#define S bmprof_sampler
#define OPS (&S.ops)
#define INLINE static inline __attribute__((always_inline))

static inline void barrier(void) { __asm__ volatile("" : : : "memory"); }

/* ---- look-ups ---- */

static struct bmprof_scpu *by_hwid(uint64_t known, uint64_t id)
{
	for (uint64_t m = known; m; m &= m - 1) {
		unsigned i = (unsigned)__builtin_ctzll(m);
		if (S.cpus[i].hwid == id)
			return &S.cpus[i];
	}
	return 0;
}

struct bmprof_scpu *bmprof_sampler_by_hwid(uint64_t known)
{
	return by_hwid(known, OPS->hwid());
}

struct bmprof_scpu *bmprof_sampler_self(void)
{
	uint64_t known = __atomic_load_n(&S.known, __ATOMIC_ACQUIRE);

	return known ? by_hwid(known, OPS->hwid()) : 0;
}

struct bmprof_scpu *bmprof_sampler_at(unsigned idx)
{
	if (idx >= S.cfg.max_cpus || !(__atomic_load_n(&S.up, __ATOMIC_ACQUIRE) >> idx & 1))
		return 0;
	return &S.cpus[idx];
}

/* Bits set in v. Not __builtin_popcountll: without -mpopcnt that is a call into libgcc,
 * which the library does not need otherwise. */
static unsigned bits_set(uint64_t v)
{
	v -= (v >> 1) & 0x5555555555555555ull;
	v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
	v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0Full;
	return (unsigned)((v * 0x0101010101010101ull) >> 56);
}

unsigned bmprof_sampler_ncpus(void)
{
	return bits_set(__atomic_load_n(&S.up, __ATOMIC_ACQUIRE));
}

/* ---- set-up ---- */

void bmprof_sampler_init(const struct bmprof_sampler_config *cfg)
{
	S = (struct bmprof_sampler){ .ops = *cfg->ops, .cpus = cfg->cpus,
				     .own_timer = cfg->ops->timer_arm != 0, .cfg = *cfg };
	if (S.cfg.max_cpus > BMPROF_SAMPLER_MAX_CPUS)
		S.cfg.max_cpus = BMPROF_SAMPLER_MAX_CPUS;
}

struct bmprof_scpu *bmprof_sampler_claim(unsigned idx)
{
	uint64_t id = OPS->hwid();
	struct bmprof_scpu *c;

	if (idx >= S.cfg.max_cpus || (S.known >> idx & 1) || by_hwid(S.known, id))
		return 0;
	c = &S.cpus[idx];
	*c = (struct bmprof_scpu){ .hwid = id, .idx = (uint16_t)idx };
	__atomic_or_fetch(&S.known, 1ull << idx, __ATOMIC_RELEASE);
	return c;
}

/* Which source samples, and the timer's period: randomized only when it samples (then no
 * PMU event draws from the same random state). */
static int set_rate(struct bmprof_scpu *c)
{
	uint64_t p;

	c->pmi_on = (uint8_t)bmprof_pmu_sampling(&c->pmu);
	c->timer_samples = S.cfg.mode == BMPROF_PMU_SAMPLE && !c->pmi_on;
	/* with events on counters the timer also rotates groups and reads counting counters
	 * before they wrap, and where the overflow interrupt cannot drain, drains */
	c->timer_runs = c->timer_samples || bmprof_pmu_needs_tick(&c->pmu) ||
			(OPS->timer_drains_pmi && c->pmu_on);
	if (!S.cfg.hz)
		return 0;
	p = S.cfg.timebase_hz / S.cfg.hz;
	c->period = p;
	c->jitter = c->timer_samples && bmprof_sampler_own_timer() ? p / 16 : 0;
	if (c->timer_runs && p < BMPROF_SAMPLER_MIN_PERIOD)
		return -2;
	bmprof_set_period(&c->core, p, c->jitter);
	return 0;
}

int bmprof_sampler_setup(struct bmprof_scpu *c, const struct bmprof_pmu_ops *pmu_ops)
{
	unsigned i = c->idx;

	if (bmprof_cpu_init(&c->core, c->idx, S.cfg.mem + i * S.cfg.mem_per_cpu,
			    S.cfg.mem_per_cpu, S.cfg.table_entries, S.cfg.ovf_entries,
			    OPS->now() ^ 0x9E3779B97F4A7C15ull))
		return -1;
	if (S.cfg.stack_depth &&
	    bmprof_stacks_init(&c->core, S.cfg.stack_mem + i * S.cfg.stack_mem_per_cpu,
			       S.cfg.stack_mem_per_cpu, S.cfg.stack_entries, S.cfg.stack_frames,
			       S.cfg.stack_depth))
		return -1;
	if (S.cfg.raw &&
	    bmprof_raw_init(&c->core, S.cfg.raw_mem + i * S.cfg.raw_mem_per_cpu,
			    S.cfg.raw_mem_per_cpu, S.cfg.raw_entries, OPS->arch,
			    OPS->raw_nregs ? OPS->raw_nregs : 1))
		return -1;
	if (c->pmu.nevents)
		c->pmu_on = bmprof_pmu_setup(&c->pmu, pmu_ops, &c->core, S.cfg.mode) > 0;
	return set_rate(c);
}

void bmprof_sampler_publish(struct bmprof_scpu *c)
{
	__atomic_or_fetch(&S.up, 1ull << c->idx, __ATOMIC_RELEASE);
}

void bmprof_sampler_forget(struct bmprof_scpu *c)
{
	__atomic_and_fetch(&S.up, ~(1ull << c->idx), __ATOMIC_RELEASE);
	__atomic_and_fetch(&S.known, ~(1ull << c->idx), __ATOMIC_RELEASE);
}

/* The timer's EVENT frame, when the timer samples: periods uniform in
 * [period - jitter, period] timebase ticks. */
static int emit_timer_event(const struct bmprof_scpu *c)
{
	struct bmprof_event_desc e = {
		.id = BMPROF_SAMPLER_TIMER_EVENT,
		.source = BMPROF_SOURCE_TIMER,
		.flags = c->jitter ? BMPROF_EVENT_RANDOMIZED : 0,
		.period = c->period,
		.jitter = c->jitter,
		.name = "timer",
		.counter_kind = BMPROF_CTR_TIMER,
	};

	return bmprof_emit_event(S.cfg.out, &e);
}

/* HELLO and the EVENT frames describe CPU 0. */
int bmprof_sampler_announce(const uint8_t *build_id, uint8_t build_id_len)
{
	const struct bmprof_scpu *c = &S.cpus[0];
	struct bmprof_hello h = {
		.arch = OPS->arch,
		.source = c->pmi_on ? BMPROF_SOURCE_PMU : BMPROF_SOURCE_TIMER,
		.ncpus = (uint16_t)bmprof_sampler_ncpus(),
		.timebase_hz = S.cfg.timebase_hz,
		.load_bias = S.cfg.load_bias,
		.build_id_len = build_id_len,
		.build_id = build_id,
		.core_hz = S.core_hz,
	};
	int r;

	OPS->cpuinfo(&h);
	r = bmprof_emit_hello(S.cfg.out, &h);
	if (!r && c->timer_samples && c->period)
		r = emit_timer_event(c);
	return r ? r : bmprof_pmu_announce(&c->pmu, S.cfg.out);
}

/* ---- start and stop ---- */

static uint64_t steal_ns(const struct bmprof_scpu *c)
{
	return c->steal && OPS->steal_ns ? OPS->steal_ns(c) : 0;
}

/* Deadlines advance by whole periods from the previous deadline, not from the time the
 * handler ran, so interrupt latency does not stretch the interval. A handler so late that
 * the next deadline has passed starts afresh from now. */
INLINE void arm(struct bmprof_scpu *c, uint64_t now)
{
	c->deadline += bmprof_next_period(&c->core);
	if ((int64_t)(c->deadline - now) <= 0)
		c->deadline = now + bmprof_next_period(&c->core);
	OPS->timer_arm(c, c->deadline);
}

void bmprof_sampler_start(void)
{
	struct bmprof_scpu *c = bmprof_sampler_cur();
	uint64_t f, now;

	if (!c || c->running || (!bmprof_sampler_timer_on(c) && !c->pmu_on))
		return;
	f = OPS->irq_save();
	c->running = 1;
	if (c->pmi_on)
		OPS->pmi_enable(c, 1);
	now = OPS->now();
	if (c->pmu_on)
		bmprof_pmu_start(&c->pmu, now);
	c->steal_mark = steal_ns(c);
	c->steal_outside = 0;
	bmprof_timing_start(&c->tm, now);
	bmprof_set_flush_interval(&c->core, S.cfg.timebase_hz / 1000 * S.cfg.flush_ms, now);
	if (bmprof_sampler_timer_on(c) && bmprof_sampler_own_timer()) {
		OPS->timer_start(c);
		c->deadline = OPS->now();
		arm(c, c->deadline);
	}
	OPS->irq_restore(f);
}

void bmprof_sampler_stop(void)
{
	struct bmprof_scpu *c = bmprof_sampler_cur();
	uint64_t f;

	if (!c)
		return;
	f = OPS->irq_save();
	if (c->running) {
		c->steal_outside += steal_ns(c) - c->steal_mark;
		bmprof_timing_stop(&c->tm, OPS->now());
		c->running = 0;
		barrier();
		if (bmprof_sampler_own_timer())
			OPS->timer_stop(c);
		if (c->pmi_on)
			OPS->pmi_enable(c, 0);
		if (c->pmu_on)
			bmprof_pmu_stop(&c->pmu, OPS->now());
	}
	OPS->irq_restore(f);
}

/* The interrupt probe: the timer runs as it will while sampling, its handler times itself
 * and counts, and nothing is recorded. Only when the timer samples alone and is the
 * sampler's own. Stopping it forgets the times, so sampling starts from zero. */
int bmprof_sampler_probe(int on)
{
	struct bmprof_scpu *c = bmprof_sampler_cur();

	if (!c || !c->timer_samples || c->pmu_on || !bmprof_sampler_own_timer() ||
	    !bmprof_sampler_timer_on(c))
		return -1;
	if (on) {
		if (c->running)
			return -1;
		c->quiet = 1;
		bmprof_sampler_start();
		return 0;
	}
	bmprof_sampler_stop();
	c->quiet = 0;
	bmprof_timing_reset(&c->tm);
	return 0;
}

void bmprof_sampler_set_stack(uint64_t lo, uint64_t hi)
{
	struct bmprof_scpu *c = bmprof_sampler_cur();

	if (c && lo <= hi)
		c->stack = (struct bmprof_range){ lo, hi };
}

void bmprof_sampler_set_steal(const volatile void *area)
{
	struct bmprof_scpu *c = bmprof_sampler_cur();

	if (c)
		c->steal = area;
}

/* ---- the interrupt paths ---- */

static unsigned fp_unwind(const struct bmprof_scpu *c, const struct bmprof_regs *r,
			  uint64_t *frames, uint8_t *flags)
{
	const struct bmprof_unwind_env env = { .stack = c->stack, .ram = S.cfg.ram,
					       .code = S.cfg.code };
	struct bmprof_range ranges[2] = { c->stack, S.cfg.ram };
	unsigned max = c->core.stacks.depth, n = 0;
	uint64_t caller, fp = r->fp;
	int more, k = OPS->leaf_caller ? OPS->leaf_caller(r, &env, &caller, &fp) : 0;

	/* the live frames are at or above the interrupted sp */
	if (r->sp > ranges[0].lo && r->sp < ranges[0].hi)
		ranges[0].lo = r->sp;
	*flags = 0;
	if (k) {
		frames[n++] = caller;
		if (k == 2)
			*flags = BMPROF_STACKF_LR_MAYBE;
	}
	n += bmprof_walk_fp(fp, OPS->fp_record, ranges, 2, frames + n, max - n, &more);
	/* a link register that only repeats the first frame record's return address */
	if (k == 2 && n > 1 && frames[1] == caller) {
		for (unsigned i = 1; i < n; i++)
			frames[i - 1] = frames[i];
		n--;
		*flags = 0;
	}
	if (more)
		*flags |= BMPROF_STACKF_CUT;
	return n;
}

/* An architecture's own unwind (ops.unwind), over the same ranges as the walk. */
static unsigned arch_unwind(const struct bmprof_scpu *c, const struct bmprof_regs *r,
			    uint64_t *frames, uint8_t *flags)
{
	struct bmprof_unwind_env env = { .stack = c->stack, .ram = S.cfg.ram, .code = S.cfg.code };
	unsigned n;
	int more;

	if (r->sp > env.stack.lo && r->sp < env.stack.hi)
		env.stack.lo = r->sp;
	n = OPS->unwind(r, &env, frames, c->core.stacks.depth, &more);
	*flags = more ? BMPROF_STACKF_CUT : 0;
	return n;
}

unsigned bmprof_sampler_unwind(const struct bmprof_scpu *c, const struct bmprof_regs *r,
			       uint64_t *frames, uint8_t *flags)
{
	if (OPS->unwind)
		return arch_unwind(c, r, frames, flags);
	return fp_unwind(c, r, frames, flags);
}

/* The chain's id for a sample at r, 0 with stacks off. */
static uint16_t stack_of(struct bmprof_scpu *c, const struct bmprof_regs *r)
{
	uint64_t frames[BMPROF_STACK_DEPTH_MAX];
	uint8_t flags;
	unsigned n;

	if (!c->core.stacks.depth)
		return 0;
	n = bmprof_sampler_unwind(c, r, frames, &flags);
	return bmprof_stack_id(&c->core, frames, n, flags);
}

INLINE void open_timing(struct bmprof_scpu *c, uint64_t now)
{
	uint64_t due = c->deadline;

	if (c->steal) {
		uint64_t s = steal_ns(c);
		/* stolen since the last exit: the time since the deadline may be that */
		if (s != c->steal_mark) {
			c->steal_outside += s - c->steal_mark;
			due = now;
		}
	}
	c->t0 = bmprof_timing_from(due, now, c->period);
	c->open = 1;
}

INLINE void close_timing(struct bmprof_scpu *c)
{
	if (!c->open)
		return;
	c->open = 0;
	bmprof_timing_handled(&c->tm, OPS->now() - c->t0);
	if (c->steal)
		c->steal_mark = steal_ns(c);
}

/* The raw sample of r (event set by the caller). */
static void raw_of(const struct bmprof_regs *r, struct bmprof_raw *s)
{
	s->pc = r->pc;
	s->flags = 0;
	s->valid = 0;
	if (OPS->raw_regs)
		OPS->raw_regs(r, s);
}

/* Record the overflowed counters' samples, re-arm, acknowledge. After stop this only
 * acknowledges. raw: the sample's raw form, in raw mode. */
static int handle_pmi(struct bmprof_scpu *c, const struct bmprof_regs *r,
		      const struct bmprof_raw *raw)
{
	uint64_t m = bmprof_pmu_overflow_raw(&c->pmu, r->pc, c->running ? stack_of(c, r) : 0,
					     c->running ? raw : 0);

	if (c->running && OPS->pmi_rearm)
		OPS->pmi_rearm();
	if (m)
		c->pmis++;
	else
		c->pmis_other++;
	return m != 0;
}

int bmprof_sampler_overflow_regs(struct bmprof_scpu *c, const struct bmprof_regs *r)
{
	struct bmprof_raw raw;

	if (c->in_timer) {
		c->deferred_regs = *r;
		/* the entry's frame is gone once this returns */
		c->deferred_regs.frame = 0;
		if (c->core.raw.cap)
			raw_of(r, &c->deferred_raw);
		barrier();
		c->deferred = 1;
		c->pmis_deferred++;
		return 1;
	}
	if (!c->core.raw.cap)
		return handle_pmi(c, r, 0);
	raw_of(r, &raw);
	return handle_pmi(c, r, &raw);
}

int bmprof_sampler_overflow(struct bmprof_scpu *c, uint64_t pc)
{
	const struct bmprof_regs r = { .pc = pc };

	return bmprof_sampler_overflow_regs(c, &r);
}

/* An interrupt already pending when the timer was stopped still arrives: its source is
 * taken down and nothing is recorded. A PMI that came while this ran (it found in_timer
 * set) is handled before returning; one that comes after in_timer is cleared handles
 * itself. */
INLINE void tick(struct bmprof_scpu *c, const struct bmprof_regs *r)
{
	int own = bmprof_sampler_own_timer();

	c->in_timer = 1;
	barrier();
	if (c->running) {
		uint64_t now = OPS->now();
		if (own && !c->in_bh && !c->open)
			open_timing(c, now);
		if (c->timer_samples && !c->quiet) {
			bmprof_record_stack(&c->core, r->pc, BMPROF_SAMPLER_TIMER_EVENT,
					    stack_of(c, r));
			if (c->core.raw.cap) {
				struct bmprof_raw raw;
				raw_of(r, &raw);
				raw.event = BMPROF_SAMPLER_TIMER_EVENT;
				bmprof_record_raw(&c->core, &raw);
			}
		}
		if (c->pmu_on)
			bmprof_pmu_tick(&c->pmu, now);
		if (own)
			arm(c, now);
	} else if (own) {
		OPS->timer_stop(c);
	}
	if (OPS->timer_ack)
		OPS->timer_ack();
	for (;;) {
		barrier();
		c->in_timer = 0;
		barrier();
		if (!c->deferred)
			break;
		c->in_timer = 1;
		c->deferred = 0;
		barrier();
		handle_pmi(c, (const struct bmprof_regs *)&c->deferred_regs,
			   c->core.raw.cap ? &c->deferred_raw : 0);
	}
}

void bmprof_sampler_tick_regs(struct bmprof_scpu *c, const struct bmprof_regs *r) { tick(c, r); }

void bmprof_sampler_tick(struct bmprof_scpu *c, uint64_t pc)
{
	const struct bmprof_regs r = { .pc = pc };

	tick(c, &r);
}

/* Full buffers to drain, or the periodic flush due. */
INLINE int work(const struct bmprof_scpu *c)
{
	return bmprof_drain_pending(&c->core) ||
	       (c->core.flush_every && bmprof_flush_due(&c->core, OPS->now()));
}

/* A drain of c's full buffers, or its periodic flush, inside out_begin/out_end. */
static void service(struct bmprof_scpu *c)
{
	if (S.cfg.out_begin && S.cfg.out_begin())
		return;
	bmprof_service(&c->core, S.cfg.out, OPS->now());
	if (S.cfg.out_end)
		S.cfg.out_end();
}

/* With nothing to drain an interrupt ends when it is handled (the exit may not be called
 * at all); a drain keeps it open until the drain is done. */
void bmprof_sampler_handled(struct bmprof_scpu *c)
{
	if (c->open && !c->in_bh && (!S.cfg.out || !work(c)))
		close_timing(c);
}

/* Runs after the EOI, so interrupts nest into the drain; the nested ones see in_bh and
 * return at once, which bounds the stack at two interrupt frames. */
INLINE void irq_exit(struct bmprof_scpu *c)
{
	if (c->in_bh)
		return;
	if (S.cfg.out && work(c)) {
		c->in_bh = 1;
		OPS->irq_enable();
		service(c);
		OPS->irq_disable();
		c->in_bh = 0;
	}
	close_timing(c);
}

void bmprof_sampler_exit(struct bmprof_scpu *c) { irq_exit(c); }

void bmprof_sampler_timer_irq_regs(const struct bmprof_regs *r)
{
	struct bmprof_scpu *c = bmprof_sampler_cur();

	if (!c) {
		if (OPS->timer_ack)
			OPS->timer_ack();
		return;
	}
	tick(c, r);
	irq_exit(c);
}

void bmprof_sampler_timer_irq(uint64_t pc)
{
	const struct bmprof_regs r = { .pc = pc };

	bmprof_sampler_timer_irq_regs(&r);
}

void bmprof_sampler_poll(void)
{
	struct bmprof_scpu *c = bmprof_sampler_cur();

	if (c && S.cfg.out && work(c))
		service(c);
}

/* ---- the end ---- */

/* ns to timebase ticks without a 128-bit division (no libgcc) */
static uint64_t ns_to_ticks(uint64_t ns)
{
	uint64_t hz = S.cfg.timebase_hz;

	return ns / 1000000000 * hz + ns % 1000000000 * hz / 1000000000;
}

void bmprof_sampler_flush_cpu(unsigned idx)
{
	struct bmprof_scpu *c = bmprof_sampler_at(idx);

	if (!c || !S.cfg.out)
		return;
	/* known only when the sampler's own timer sampled: it timed its handler */
	if (c->timer_samples && bmprof_sampler_own_timer()) {
		c->core.sampled_ticks = bmprof_timing_sampled(&c->tm, ns_to_ticks(c->steal_outside));
		c->core.enabled_ticks = c->tm.enabled;
	}
	if (c->pmu_on)
		bmprof_pmu_emit_counts(&c->pmu, S.cfg.out);
	bmprof_flush(&c->core, S.cfg.out);
}

void bmprof_sampler_flush(void)
{
	struct bmprof_scpu *c = bmprof_sampler_cur();

	if (!c)
		return;
	bmprof_sampler_stop();
	bmprof_sampler_flush_cpu(c->idx);
}

static struct bmprof_scpu *at_or_first(unsigned idx)
{
	return &S.cpus[idx < S.cfg.max_cpus ? idx : 0];
}

/* Memory reads only: callable where the image is open to a less privileged program. */
void bmprof_sampler_irq_stats(unsigned idx, uint64_t *irqs, uint64_t *last_ticks)
{
	const struct bmprof_scpu *c = at_or_first(idx);

	*irqs = c->tm.irqs;
	barrier();
	*last_ticks = c->tm.last_handler;
}

void bmprof_sampler_set_untimed(unsigned idx, int64_t untimed)
{
	if (idx < S.cfg.max_cpus)
		S.cpus[idx].tm.untimed = untimed;
}
