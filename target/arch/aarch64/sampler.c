/* The AArch64 sampler, per CPU: setup, the generic timer (sampling source, group
 * rotation, counter reads) with randomized deadlines, the PMUv3 overflow source through
 * the neutral PMU layer, the interrupt paths, and the drain at interrupt exit.
 *
 * The configuration, what the probe found and the parsed event specs are shared and
 * written only by bmprof_a64_init(); everything the interrupt path writes is in the
 * interrupted CPU's struct a64_cpu. A CPU finds its own by MPIDR_EL1 in cpu_key[], which
 * bmprof_a64_init() and bmprof_a64_cpu_init() fill in last (release) once the CPU's state
 * is complete. */
#include "bmprof_aarch64.h"
#include "wire.h"
#include "a64.h"
#include "../common/sampler_common.h"

#define MIN_TICKS 64    /* timer ticks; a shorter period would only measure the handler */
#define SPURIOUS_FIRST 1020u
#define SPURIOUS_LAST 1023u
#define AFFINITY_MASK 0xFF00FFFFFFull   /* MPIDR_EL1 Aff3, Aff2, Aff1, Aff0 */
#define KEY_VALID (1ull << 63)           /* RES0 in MPIDR_EL1: marks a used cpu_key */

/* The static memory of one CPU, with a page to spare, a whole number of cache lines. */
#define MEM_BYTES ((BMPROF_STATIC_MEM(BMPROF_A64_TABLE_ENTRIES, BMPROF_A64_OVF_ENTRIES) + \
		    4096 + BMPROF_CACHE_LINE - 1) & ~(BMPROF_CACHE_LINE - 1ul))

struct a64_cpu {
	struct bmprof_cpu cpu;
	struct bmprof_pmu pmu;
	struct gic_cpu gic;
	uint64_t deadline;                      /* timer: the count the armed period ends at */
	/* What the workload ran while the timer sampled (TOTALS sampled_ticks): the outermost
	 * timer interrupt is timed from its deadline (t0, open) to the end of its interrupt-
	 * exit drain, or of bmprof_a64_irq when nothing drains */
	struct bmprof_timing tm;
	uint64_t t0;
	uint8_t open;
	uint8_t pmu_irq;                        /* an event samples on this CPU's PMU */
	volatile int running;
	volatile int in_bh;
	volatile int quiet;                     /* bmprof_a64_probe: the timer runs, nothing
						 * is recorded */
} __attribute__((aligned(BMPROF_CACHE_LINE)));

static struct a64_cpu cpus[BMPROF_A64_MAX_CPUS];
static uint8_t mem[BMPROF_A64_MAX_CPUS][MEM_BYTES] __attribute__((aligned(BMPROF_CACHE_LINE)));
static volatile uint64_t cpu_key[BMPROF_A64_MAX_CPUS];   /* KEY_VALID | affinity, or 0 */

static struct {
	struct bmprof_a64_config cfg;
	struct bmprof_a64_info info;
	struct bmprof_pmu spec;                 /* the parsed events, before placement */
	int ready;                              /* bmprof_a64_init() succeeded */
} st;

const char *bmprof_a64_strerror(int err)
{
	switch (err) {
	case BMPROF_A64_OK: return "ok";
	case BMPROF_A64_E_CONFIG:
		return "bad sampler configuration: frequency above 100000 Hz or too high for the "
		       "timer, an unknown timer or mode, or a bad event spec";
	case BMPROF_A64_E_GIC: return "no usable GIC of the requested version at the given addresses";
	case BMPROF_A64_E_TIMER:
		return "CNTFRQ_EL0 is 0: the firmware did not set the generic timer's frequency";
	case BMPROF_A64_E_MEMORY:
		return "the core rejected the table sizes: check BMPROF_A64_TABLE_ENTRIES/_OVF_ENTRIES";
	case BMPROF_A64_E_CPU:
		return "bad CPU index: 1 .. BMPROF_A64_MAX_CPUS-1, not yet set up, after "
		       "bmprof_a64_init";
	}
	return "unknown error";
}

static uint64_t my_key(void) { return (a64_read(mpidr_el1) & AFFINITY_MASK) | KEY_VALID; }

/* This CPU's state, or NULL if it was not set up. */
static struct a64_cpu *self(void)
{
	uint64_t k = my_key();

	for (unsigned i = 0; i < BMPROF_A64_MAX_CPUS; i++)
		if (__atomic_load_n(&cpu_key[i], __ATOMIC_ACQUIRE) == k)
			return &cpus[i];
	return 0;
}

static void publish(unsigned idx) { __atomic_store_n(&cpu_key[idx], my_key(), __ATOMIC_RELEASE); }

static struct a64_cpu *cpu_at(unsigned idx)
{
	if (idx >= BMPROF_A64_MAX_CPUS || !__atomic_load_n(&cpu_key[idx], __ATOMIC_ACQUIRE))
		return 0;
	return &cpus[idx];
}

const struct bmprof_a64_info *bmprof_a64_info(void) { return &st.info; }

unsigned bmprof_a64_ncpus(void)
{
	unsigned n = 0;

	for (unsigned i = 0; i < BMPROF_A64_MAX_CPUS; i++)
		n += cpu_at(i) != 0;
	return n;
}

int bmprof_a64_cpu_index(void)
{
	struct a64_cpu *c = self();
	return c ? (int)(c - cpus) : -1;
}

struct bmprof_cpu *bmprof_a64_cpu(void)
{
	struct a64_cpu *c = self();
	return c ? &c->cpu : 0;
}

const struct bmprof_pmu *bmprof_a64_pmu(void)
{
	struct a64_cpu *c = self();
	return c ? &c->pmu : &cpus[0].pmu;
}

static unsigned length(const char *s)
{
	unsigned n = 0;
	while (s && s[n])
		n++;
	return n;
}

static int probe(const struct bmprof_a64_config *cfg)
{
	st.info.cntfrq = a64_read(cntfrq_el0) & 0xFFFFFFFFu;
	st.info.midr = (uint32_t)a64_read(midr_el1);
	st.info.timer = cfg->timer;
	st.info.mode = cfg->mode;
	st.info.timer_intid = cfg->timer == BMPROF_A64_TIMER_PHYSICAL ? BMPROF_A64_INTID_PTIMER :
			      BMPROF_A64_INTID_VTIMER;
	st.info.pmu_intid = cfg->pmu_intid ? cfg->pmu_intid : BMPROF_A64_INTID_PMU;
	st.info.pmu_version = pmu_version();
	if (pmu_present()) {
		st.info.pmu_counters = (uint8_t)pmu_counters();
		pmu_events_implemented(st.info.pmceid);
	}
	if (cfg->hz > BMPROF_A64_MAX_HZ || cfg->timer > BMPROF_A64_TIMER_PHYSICAL ||
	    cfg->mode > BMPROF_A64_COUNT || cfg->nevents > BMPROF_A64_MAX_EVENTS)
		return BMPROF_A64_E_CONFIG;
	if (!st.info.cntfrq)
		return BMPROF_A64_E_TIMER;
	for (unsigned i = 0; i < cfg->nevents; i++)
		if (bmprof_pmu_parse_event(&st.spec, cfg->events[i], length(cfg->events[i]),
					   BMPROF_VENDOR_ARM)) {
			st.info.bad_event = (uint8_t)i;
			cpus[0].pmu.error = st.spec.error;
			return BMPROF_A64_E_CONFIG;
		}
	return BMPROF_A64_OK;
}

/* The timer's period; randomized only when it samples (then the PMU does not draw). */
static int set_rate(uint32_t hz)
{
	uint64_t p;

	st.info.hz = hz;
	if (!hz || !st.info.timer_runs)
		return 0;
	p = st.info.cntfrq / hz;
	if (p < MIN_TICKS)
		return -1;
	st.info.period_ticks = p;
	st.info.jitter_ticks = st.info.timer_samples ? p / 16 : 0;
	return 0;
}

/* Enable or disable one of bmprof's PPIs on this CPU: in bmprof's GIC, or through the
 * caller's irq_enable with gic NONE. Returns 0 if nobody can. */
static int ppi(const struct a64_cpu *c, uint32_t intid, int enable)
{
	if (st.info.gic != BMPROF_A64_GIC_NONE)
		gic_private(&c->gic, intid, enable);
	else if (st.cfg.irq_enable)
		st.cfg.irq_enable(intid, enable);
	else
		return 0;
	return 1;
}

/* Which counters interrupt on overflow, when it matters: the PMU's PPI can be enabled
 * here and an event wants to sample (pmu_v3_probe_irq: a few microseconds where
 * interrupts work; 2 x 2 ms of virtual time under QEMU -icount shift=0). */
static void probe_overflow_irq(const struct a64_cpu *c)
{
	int samples = 0;

	for (unsigned i = 0; i < st.spec.nevents; i++)
		samples |= st.spec.ev[i].period != 0;
	if (st.cfg.mode != BMPROF_A64_SAMPLE || !samples || !ppi(c, st.info.pmu_intid, 1))
		return;
	st.info.no_irq = pmu_v3_probe_irq(st.info.cntfrq);
	ppi(c, st.info.pmu_intid, 0);
}

/* The part of a CPU's set-up that is the same on every CPU, run on that CPU. */
static int setup_cpu(unsigned idx)
{
	struct a64_cpu *c = &cpus[idx];

	if (st.info.gic != BMPROF_A64_GIC_NONE &&
	    gic_cpu_setup(&c->gic, st.cfg.gicr ? st.cfg.gicr : BMPROF_A64_VIRT_GICR))
		return BMPROF_A64_E_GIC;
	if (bmprof_cpu_init(&c->cpu, (uint16_t)idx, mem[idx], sizeof mem[idx],
			    BMPROF_A64_TABLE_ENTRIES, BMPROF_A64_OVF_ENTRIES,
			    timer_now(0) ^ 0x9E3779B97F4A7C15ull))
		return BMPROF_A64_E_MEMORY;
	timer_off(st.info.timer);
	if (idx == 0 && st.spec.nevents && pmu_present())
		probe_overflow_irq(c);
	c->pmu = st.spec;
	bmprof_pmu_setup(&c->pmu, pmu_present() ? &bmprof_pmu_v3 : 0, &c->cpu, st.cfg.mode);
	c->pmu_irq = (uint8_t)bmprof_pmu_sampling(&c->pmu);
	return BMPROF_A64_OK;
}

int bmprof_a64_init(const struct bmprof_a64_config *cfg)
{
	int err, gic = BMPROF_A64_GIC_NONE;

	for (unsigned i = 0; i < BMPROF_A64_MAX_CPUS; i++)
		cpu_key[i] = 0;
	st = (__typeof__(st)){ 0 };
	cpus[0] = (struct a64_cpu){ 0 };
	st.cfg = *cfg;
	st.cfg.events = 0;
	st.info.source = BMPROF_SOURCE_TIMER;
	st.info.gic = BMPROF_A64_GIC_NONE;
	st.info.bad_event = 0xFF;
	pmu_v3_forget_irq();
	err = probe(cfg);
	if (err)
		return err;
	if (cfg->gic != BMPROF_A64_GIC_NONE) {
		gic = gic_setup(cfg->gic, cfg->gicd ? cfg->gicd : BMPROF_A64_VIRT_GICD,
				cfg->gicc ? cfg->gicc : BMPROF_A64_VIRT_GICC);
		if (gic < 0)
			return BMPROF_A64_E_GIC;
	}
	st.info.gic = (uint8_t)gic;
	err = setup_cpu(0);
	if (err)
		return err;
	st.info.source = cpus[0].pmu_irq ? BMPROF_SOURCE_PMU : BMPROF_SOURCE_TIMER;
	st.info.timer_samples = cfg->mode == BMPROF_A64_SAMPLE && !cpus[0].pmu_irq;
	st.info.timer_runs = st.info.timer_samples || bmprof_pmu_needs_tick(&cpus[0].pmu);
	if (set_rate(cfg->hz))
		return BMPROF_A64_E_CONFIG;
	bmprof_set_period(&cpus[0].cpu, st.info.period_ticks, st.info.jitter_ticks);
	st.ready = 1;
	publish(0);
	return BMPROF_A64_OK;
}

int bmprof_a64_cpu_init(unsigned idx)
{
	int err;

	if (!st.ready || idx == 0 || idx >= BMPROF_A64_MAX_CPUS || cpu_at(idx) || self())
		return BMPROF_A64_E_CPU;
	cpus[idx] = (struct a64_cpu){ 0 };
	err = setup_cpu(idx);
	if (err)
		return err;
	bmprof_set_period(&cpus[idx].cpu, st.info.period_ticks, st.info.jitter_ticks);
	publish(idx);
	return BMPROF_A64_OK;
}

int bmprof_a64_announce(const uint8_t *build_id, uint8_t build_id_len)
{
	struct bmprof_hello h = {
		.arch = BMPROF_ARCH_AARCH64,
		.source = st.info.source,
		.ncpus = (uint16_t)bmprof_a64_ncpus(),
		.timebase_hz = st.info.cntfrq,
		.build_id_len = build_id_len,
		.build_id = build_id,
		.load_bias = st.cfg.load_bias,
	};
	int r;

	cpuinfo_fill(&h);
	r = bmprof_emit_hello(st.cfg.out, &h);
	if (!r && st.info.timer_samples && st.info.hz)
		r = bmprof_emit_timer_event(st.cfg.out, BMPROF_A64_TIMER_EVENT,
					    st.info.period_ticks, st.info.jitter_ticks);
	return r ? r : bmprof_pmu_announce(&cpus[0].pmu, st.cfg.out);
}

/* Deadlines advance by whole periods from the previous deadline, not from the time the
 * handler ran, so interrupt latency does not stretch the interval. A handler so late that
 * the next deadline has passed starts afresh from now. */
static void arm_timer(struct a64_cpu *c)
{
	uint64_t now = timer_now(st.info.timer);

	c->deadline += bmprof_next_period(&c->cpu);
	if ((int64_t)(c->deadline - now) <= 0)
		c->deadline = now + bmprof_next_period(&c->cpu);
	timer_set(st.info.timer, c->deadline);
}

static int timer_on(void) { return st.info.timer_runs && st.info.hz; }

void bmprof_a64_start(void)
{
	struct a64_cpu *c = self();
	uint64_t f;

	if (!c || c->running || (!timer_on() && !c->pmu.ngroups))
		return;
	f = a64_irq_save();
	c->running = 1;
	c->deadline = timer_now(st.info.timer);
	bmprof_timing_start(&c->tm, c->deadline);
	bmprof_set_flush_interval(&c->cpu, st.info.cntfrq / 1000 * st.cfg.flush_ms, c->deadline);
	bmprof_pmu_start(&c->pmu, c->deadline);
	if (timer_on()) {
		arm_timer(c);
		ppi(c, st.info.timer_intid, 1);
	}
	if (c->pmu_irq)
		ppi(c, st.info.pmu_intid, 1);
	a64_irq_restore(f);
}

void bmprof_a64_stop(void)
{
	struct a64_cpu *c = self();
	uint64_t f;

	if (!c)
		return;
	f = a64_irq_save();
	if (c->running) {
		c->running = 0;
		bmprof_timing_stop(&c->tm, timer_now(st.info.timer));
		timer_off(st.info.timer);
		bmprof_pmu_stop(&c->pmu, timer_now(st.info.timer));
		ppi(c, st.info.timer_intid, 0);
		ppi(c, st.info.pmu_intid, 0);
	}
	a64_irq_restore(f);
}

/* Full buffers to drain, or the periodic flush due. */
static int work(const struct a64_cpu *c)
{
	return bmprof_drain_pending(&c->cpu) ||
	       (c->cpu.flush_every && bmprof_flush_due(&c->cpu, timer_now(st.info.timer)));
}

/* The end of an outermost timer interrupt's own time. */
static void close_timing(struct a64_cpu *c)
{
	if (!c->open)
		return;
	c->open = 0;
	bmprof_timing_handled(&c->tm, timer_now(st.info.timer) - c->t0);
}

/* With nothing to drain an interrupt ends when it is handled (bmprof_a64_irq_exit may
 * not be called at all); a drain keeps it open until the drain is done. */
static void handled(struct a64_cpu *c)
{
	if (!c->in_bh && (!st.cfg.out || !work(c)))
		close_timing(c);
}

/* An interrupt already pending when sampling was stopped still arrives: the (level)
 * source is taken down and nothing is recorded. */
static void tick(struct a64_cpu *c, uint64_t elr)
{
	if (!c->running) {
		timer_off(st.info.timer);
		return;
	}
	if (!c->in_bh && !c->open) {
		c->t0 = bmprof_timing_from(c->deadline, timer_now(st.info.timer),
					   st.info.period_ticks);
		c->open = 1;
	}
	if (st.info.timer_samples && !c->quiet)
		bmprof_record(&c->cpu, elr, BMPROF_A64_TIMER_EVENT);
	bmprof_pmu_tick(&c->pmu, timer_now(st.info.timer));
	arm_timer(c);
}

static int handle(struct a64_cpu *c, uint32_t intid, uint64_t elr)
{
	if (timer_on() && intid == st.info.timer_intid)
		tick(c, elr);
	else if (c->pmu_irq && intid == st.info.pmu_intid)
		bmprof_pmu_overflow(&c->pmu, elr);   /* after stop it only acknowledges */
	else
		return 0;
	return 1;
}

void bmprof_a64_tick(uint64_t elr)
{
	struct a64_cpu *c = self();

	if (c) {
		tick(c, elr);
		handled(c);
	}
}

void bmprof_a64_pmu_irq(uint64_t elr)
{
	struct a64_cpu *c = self();

	if (c)
		bmprof_pmu_overflow(&c->pmu, elr);
}

int bmprof_a64_handle(uint32_t intid, uint64_t elr)
{
	struct a64_cpu *c = self();
	int mine = c ? handle(c, intid, elr) : 0;

	if (mine)
		handled(c);
	return mine;
}

void bmprof_a64_irq(uint64_t elr)
{
	struct a64_cpu *c;
	uint32_t ack, intid;

	if (st.info.gic == BMPROF_A64_GIC_NONE)
		return;
	ack = gic_ack();
	intid = gic_intid(ack);
	if (intid >= SPURIOUS_FIRST && intid <= SPURIOUS_LAST)
		return;
	c = self();
	if (!c || !handle(c, intid, elr)) {
		if (st.cfg.other_irq)
			st.cfg.other_irq(intid);
		else
			__atomic_fetch_add(&st.info.stray, 1, __ATOMIC_RELAXED);
	}
	gic_eoi(ack);
	if (c)
		handled(c);
}

/* A drain of this CPU's full buffers, or its periodic flush, inside the integrator's
 * out_begin/out_end. */
static void service(struct a64_cpu *c)
{
	if (st.cfg.out_begin && st.cfg.out_begin())
		return;
	bmprof_service(&c->cpu, st.cfg.out, timer_now(st.info.timer));
	if (st.cfg.out_end)
		st.cfg.out_end();
}

/* Runs after the EOI, so sampling interrupts nest into the drain; the nested ones see
 * in_bh and return at once, which bounds the stack at two interrupt frames. */
void bmprof_a64_irq_exit(void)
{
	struct a64_cpu *c = self();

	if (!c || c->in_bh)
		return;
	if (st.cfg.out && work(c)) {
		c->in_bh = 1;
		a64_irq_enable();
		service(c);
		a64_irq_disable();
		c->in_bh = 0;
	}
	close_timing(c);
}

void bmprof_a64_poll(void)
{
	struct a64_cpu *c = self();

	if (c && st.cfg.out && work(c))
		service(c);
}

void bmprof_a64_flush_cpu(unsigned idx)
{
	struct a64_cpu *c = cpu_at(idx);

	if (!c || !st.cfg.out)
		return;
	if (st.info.timer_samples) {
		c->cpu.sampled_ticks = bmprof_timing_sampled(&c->tm, 0);
		c->cpu.enabled_ticks = c->tm.enabled;
	}
	bmprof_pmu_emit_counts(&c->pmu, st.cfg.out);
	bmprof_flush(&c->cpu, st.cfg.out);
}

void bmprof_a64_flush(void)
{
	int idx = bmprof_a64_cpu_index();

	if (idx < 0)
		return;
	bmprof_a64_stop();
	bmprof_a64_flush_cpu((unsigned)idx);
}

int bmprof_a64_probe(int on)
{
	struct a64_cpu *c = self();

	if (!c || !st.info.timer_samples || c->pmu.ngroups || !timer_on())
		return -1;
	if (on) {
		if (c->running)
			return -1;
		c->quiet = 1;
		bmprof_a64_start();
		return 0;
	}
	bmprof_a64_stop();
	c->quiet = 0;
	bmprof_timing_reset(&c->tm);
	return 0;
}

void bmprof_a64_irq_stats(unsigned idx, uint64_t *irqs, uint64_t *last_ticks)
{
	const struct a64_cpu *c = &cpus[idx < BMPROF_A64_MAX_CPUS ? idx : 0];

	*irqs = c->tm.irqs;
	__asm__ volatile("" : : : "memory");
	*last_ticks = c->tm.last_handler;
}

void bmprof_a64_set_untimed(unsigned idx, int64_t ticks)
{
	if (idx < BMPROF_A64_MAX_CPUS)
		cpus[idx].tm.untimed = ticks;
}

void bmprof_a64_sgi_enable(uint32_t intid, int enable)
{
	struct a64_cpu *c = self();

	if (c && intid < 16 && st.info.gic != BMPROF_A64_GIC_NONE)
		gic_private(&c->gic, intid, enable);
}

int bmprof_a64_sgi_send(unsigned idx, uint32_t intid)
{
	struct a64_cpu *c = cpu_at(idx);

	if (!c || intid >= 16 || st.info.gic == BMPROF_A64_GIC_NONE)
		return -1;
	gic_sgi(&c->gic, intid);
	return 0;
}
