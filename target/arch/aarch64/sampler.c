/* SPDX-License-Identifier: BSD-2-Clause */
/* The AArch64 sampler's API (bmprof_aarch64.h) over the arch-neutral sampler
 * (target/core/sampler.h) and this architecture's ops (ops.c): the configuration, the
 * probe of the timer, the PMU and the GIC, each CPU's set-up (its GIC CPU interface or
 * redistributor, the event specs placed on its PMU), the IRQ dispatch (which interrupt is
 * the timer's or the PMU's, acknowledge and EOI) and the SGIs; everything else is the
 * neutral sampler's.
 *
 * The configuration, what the probe found and the parsed event specs are shared and
 * written only by bmprof_a64_init(); everything the interrupt path writes is in the
 * interrupted CPU's state. A CPU finds its own by MPIDR_EL1. */
#include "bmprof_aarch64.h"
#include "../../core/sampler.h"
#include "wire.h"
#include "a64.h"

#if BMPROF_A64_MAX_CPUS < 1 || BMPROF_A64_MAX_CPUS > BMPROF_SAMPLER_MAX_CPUS
#error "BMPROF_A64_MAX_CPUS must be 1..64"
#endif

#define SPURIOUS_FIRST 1020u
#define SPURIOUS_LAST 1023u

/* The static memory of one CPU, with a page to spare, a whole number of cache lines. */
#define MEM_BYTES ((BMPROF_STATIC_MEM(BMPROF_A64_TABLE_ENTRIES, BMPROF_A64_OVF_ENTRIES) + \
		    4096 + BMPROF_CACHE_LINE - 1) & ~(BMPROF_CACHE_LINE - 1ul))

#if BMPROF_A64_STACK_ENTRIES
#define STACK_BYTES ((BMPROF_STACKS_MEM(BMPROF_A64_STACK_ENTRIES, BMPROF_A64_STACK_FRAMES) + 7) & ~7ul)
static uint8_t stack_mem[BMPROF_A64_MAX_CPUS][STACK_BYTES] __attribute__((aligned(8)));
#define STACK_MEM (&stack_mem[0][0])
#else
#define STACK_BYTES 0
#define STACK_MEM 0
#endif

#if BMPROF_A64_RAW_ENTRIES
#define RAW_BYTES ((BMPROF_RAW_MEM(BMPROF_A64_RAW_ENTRIES) + 7) & ~7ul)
static uint8_t raw_mem[BMPROF_A64_MAX_CPUS][RAW_BYTES] __attribute__((aligned(8)));
#define RAW_MEM (&raw_mem[0][0])
#else
#define RAW_BYTES 0
#define RAW_MEM 0
#endif

static struct bmprof_scpu cpus[BMPROF_A64_MAX_CPUS];
static uint8_t mem[BMPROF_A64_MAX_CPUS][MEM_BYTES] __attribute__((aligned(BMPROF_CACHE_LINE)));

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

const struct bmprof_a64_info *bmprof_a64_info(void) { return &st.info; }
unsigned bmprof_a64_ncpus(void) { return bmprof_sampler_ncpus(); }

int bmprof_a64_cpu_index(void)
{
	struct bmprof_scpu *c = bmprof_sampler_self();

	return c && bmprof_sampler_at(c->idx) ? (int)c->idx : -1;
}

struct bmprof_cpu *bmprof_a64_cpu(void)
{
	int i = bmprof_a64_cpu_index();

	return i < 0 ? 0 : &cpus[i].core;
}

const struct bmprof_pmu *bmprof_a64_pmu(void)
{
	int i = bmprof_a64_cpu_index();

	return &cpus[i < 0 ? 0 : i].pmu;
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
	    cfg->mode > BMPROF_A64_COUNT || cfg->nevents > BMPROF_A64_MAX_EVENTS ||
	    cfg->stack_depth > BMPROF_STACK_DEPTH_MAX || (cfg->stack_depth && !STACK_BYTES) ||
	    (cfg->raw && !RAW_BYTES))
		return BMPROF_A64_E_CONFIG;
	if (!st.info.cntfrq)
		return BMPROF_A64_E_TIMER;
	for (unsigned i = 0; i < cfg->nevents; i++)
		if (bmprof_pmu_parse_spec(&st.spec, cfg->events[i], BMPROF_VENDOR_ARM)) {
			st.info.bad_event = (uint8_t)i;
			cpus[0].pmu.error = st.spec.error;
			return BMPROF_A64_E_CONFIG;
		}
	return BMPROF_A64_OK;
}

/* Which counters interrupt on overflow, when it matters: the PMU's PPI can be enabled
 * here and an event wants to sample (pmu_v3_probe_irq: a few microseconds where
 * interrupts work; 2 x 2 ms of virtual time under QEMU -icount shift=0). */
static void probe_overflow_irq(void)
{
	int samples = 0;

	for (unsigned i = 0; i < st.spec.nevents; i++)
		samples |= st.spec.ev[i].period != 0;
	if (st.cfg.mode != BMPROF_A64_SAMPLE || !samples || !a64_ppi(0, st.info.pmu_intid, 1))
		return;
	st.info.no_irq = pmu_v3_probe_irq(st.info.cntfrq);
	a64_ppi(0, st.info.pmu_intid, 0);
}

/* What the neutral sampler runs on (also to forget every CPU before a new init). */
static void sampler_init(void)
{
	struct bmprof_sampler_config sc = {
		.ops = a64_ops(st.cfg.timer, st.info.timer_intid, st.info.pmu_intid, st.info.gic,
			       st.cfg.irq_enable),
		.cpus = cpus, .max_cpus = BMPROF_A64_MAX_CPUS, .mem = &mem[0][0],
		.mem_per_cpu = MEM_BYTES, .table_entries = BMPROF_A64_TABLE_ENTRIES,
		.ovf_entries = BMPROF_A64_OVF_ENTRIES, .timebase_hz = st.info.cntfrq,
		.hz = st.cfg.hz, .flush_ms = st.cfg.flush_ms, .mode = st.cfg.mode,
		.out = st.cfg.out, .out_begin = st.cfg.out_begin, .out_end = st.cfg.out_end,
		.load_bias = st.cfg.load_bias, .stack_depth = st.cfg.stack_depth,
		.stack_entries = BMPROF_A64_STACK_ENTRIES, .stack_frames = BMPROF_A64_STACK_FRAMES,
		.stack_mem = STACK_MEM, .stack_mem_per_cpu = STACK_BYTES, .ram = st.cfg.ram,
		.code = st.cfg.code, .raw = st.cfg.raw, .raw_entries = BMPROF_A64_RAW_ENTRIES,
		.raw_mem = RAW_MEM, .raw_mem_per_cpu = RAW_BYTES,
	};

	bmprof_sampler_init(&sc);
}

/* The part of a CPU's set-up that is the same on every CPU, run on that CPU. */
static int setup_cpu(unsigned idx)
{
	struct bmprof_scpu *c = bmprof_sampler_claim(idx);
	int err;

	if (!c)
		return BMPROF_A64_E_CPU;
	if (st.info.gic != BMPROF_A64_GIC_NONE &&
	    gic_cpu_setup(&a64_gic[idx], st.cfg.gicr ? st.cfg.gicr : BMPROF_A64_VIRT_GICR)) {
		bmprof_sampler_forget(c);
		return BMPROF_A64_E_GIC;
	}
	a64_timer_off(st.info.timer);
	if (idx == 0 && st.spec.nevents && pmu_present())
		probe_overflow_irq();
	c->pmu = st.spec;
	err = bmprof_sampler_setup(c, pmu_present() ? &bmprof_pmu_v3 : 0);
	if (err) {
		bmprof_sampler_forget(c);
		return err == -1 ? BMPROF_A64_E_MEMORY : BMPROF_A64_E_CONFIG;
	}
	bmprof_sampler_publish(c);
	return BMPROF_A64_OK;
}

/* The timer's and the sampling source's description, CPU 0's. */
static void describe(const struct bmprof_scpu *c)
{
	st.info.source = c->pmi_on ? BMPROF_SOURCE_PMU : BMPROF_SOURCE_TIMER;
	st.info.timer_samples = c->timer_samples;
	st.info.timer_runs = c->timer_runs;
	st.info.hz = st.cfg.hz;
	st.info.period_ticks = c->timer_runs ? c->period : 0;
	st.info.jitter_ticks = c->timer_runs ? c->jitter : 0;
}

int bmprof_a64_init(const struct bmprof_a64_config *cfg)
{
	int err, gic = BMPROF_A64_GIC_NONE;

	st = (__typeof__(st)){ 0 };
	cpus[0] = (struct bmprof_scpu){ 0 };
	st.cfg = *cfg;
	st.cfg.events = 0;
	st.info.source = BMPROF_SOURCE_TIMER;
	st.info.gic = BMPROF_A64_GIC_NONE;
	st.info.bad_event = 0xFF;
	sampler_init();
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
	sampler_init();
	err = setup_cpu(0);
	if (err)
		return err;
	describe(&cpus[0]);
	st.ready = 1;
	return BMPROF_A64_OK;
}

int bmprof_a64_cpu_init(unsigned idx)
{
	if (!st.ready || idx == 0 || idx >= BMPROF_A64_MAX_CPUS || bmprof_sampler_at(idx))
		return BMPROF_A64_E_CPU;
	return setup_cpu(idx);
}

int bmprof_a64_announce(const uint8_t *build_id, uint8_t build_id_len)
{
	return bmprof_sampler_announce(build_id, build_id_len);
}

void bmprof_a64_start(void) { bmprof_sampler_start(); }
void bmprof_a64_stop(void) { bmprof_sampler_stop(); }

static int handle(struct bmprof_scpu *c, uint32_t intid, const struct bmprof_regs *r)
{
	if (bmprof_sampler_timer_on(c) && intid == st.info.timer_intid)
		bmprof_sampler_tick_regs(c, r);
	else if (c->pmi_on && intid == st.info.pmu_intid)
		bmprof_sampler_overflow_regs(c, r);   /* after stop it only acknowledges */
	else
		return 0;
	return 1;
}

void bmprof_a64_tick_regs(const struct bmprof_regs *r)
{
	struct bmprof_scpu *c = bmprof_sampler_cur();

	if (c) {
		bmprof_sampler_tick_regs(c, r);
		bmprof_sampler_handled(c);
	}
}

void bmprof_a64_tick(uint64_t elr)
{
	const struct bmprof_regs r = { .pc = elr };

	bmprof_a64_tick_regs(&r);
}

void bmprof_a64_pmu_irq_regs(const struct bmprof_regs *r)
{
	struct bmprof_scpu *c = bmprof_sampler_cur();

	if (c)
		bmprof_sampler_overflow_regs(c, r);
}

void bmprof_a64_pmu_irq(uint64_t elr)
{
	const struct bmprof_regs r = { .pc = elr };

	bmprof_a64_pmu_irq_regs(&r);
}

int bmprof_a64_handle_regs(uint32_t intid, const struct bmprof_regs *r)
{
	struct bmprof_scpu *c = bmprof_sampler_cur();
	int mine = c ? handle(c, intid, r) : 0;

	if (mine)
		bmprof_sampler_handled(c);
	return mine;
}

int bmprof_a64_handle(uint32_t intid, uint64_t elr)
{
	const struct bmprof_regs r = { .pc = elr };

	return bmprof_a64_handle_regs(intid, &r);
}

void bmprof_a64_irq_regs(const struct bmprof_regs *r)
{
	struct bmprof_scpu *c;
	uint32_t ack, intid;

	if (st.info.gic == BMPROF_A64_GIC_NONE)
		return;
	ack = gic_ack();
	intid = gic_intid(ack);
	if (intid >= SPURIOUS_FIRST && intid <= SPURIOUS_LAST)
		return;
	c = bmprof_sampler_cur();
	if (!c || !handle(c, intid, r)) {
		if (st.cfg.other_irq)
			st.cfg.other_irq(intid);
		else
			__atomic_fetch_add(&st.info.stray, 1, __ATOMIC_RELAXED);
	}
	gic_eoi(ack);
	if (c)
		bmprof_sampler_handled(c);
}

void bmprof_a64_irq(uint64_t elr)
{
	const struct bmprof_regs r = { .pc = elr };

	bmprof_a64_irq_regs(&r);
}

/* The ready-made entry's frame: the interrupted x29, x30 at 0 and 8, ELR_EL1 at 168 (sp is
 * not needed: the AArch64 unwind reads no stack slot beside the frame records). */
void bmprof_a64_irq_frame(const uint64_t *frame)
{
	const struct bmprof_regs r = { .pc = frame[21], .fp = frame[0], .lr = frame[1],
				       .frame = frame };

	bmprof_a64_irq_regs(&r);
}

void bmprof_a64_set_stack(uint64_t lo, uint64_t hi) { bmprof_sampler_set_stack(lo, hi); }

void bmprof_a64_irq_exit(void)
{
	struct bmprof_scpu *c = bmprof_sampler_cur();

	if (c)
		bmprof_sampler_exit(c);
}

void bmprof_a64_poll(void) { bmprof_sampler_poll(); }
void bmprof_a64_flush_cpu(unsigned idx) { bmprof_sampler_flush_cpu(idx); }
void bmprof_a64_flush(void) { bmprof_sampler_flush(); }
int bmprof_a64_probe(int on) { return bmprof_sampler_probe(on); }

void bmprof_a64_irq_stats(unsigned idx, uint64_t *irqs, uint64_t *last_ticks)
{
	bmprof_sampler_irq_stats(idx, irqs, last_ticks);
}

void bmprof_a64_set_untimed(unsigned idx, int64_t ticks)
{
	bmprof_sampler_set_untimed(idx, ticks * BMPROF_UNTIMED_ONE);
}

void bmprof_a64_set_untimed_fine(unsigned idx, int64_t untimed)
{
	bmprof_sampler_set_untimed(idx, untimed);
}

void bmprof_a64_sgi_enable(uint32_t intid, int enable)
{
	struct bmprof_scpu *c = bmprof_sampler_self();

	if (c && intid < 16 && st.info.gic != BMPROF_A64_GIC_NONE)
		gic_private(&a64_gic[c->idx], intid, enable);
}

int bmprof_a64_sgi_send(unsigned idx, uint32_t intid)
{
	if (!bmprof_sampler_at(idx) || intid >= 16 || st.info.gic == BMPROF_A64_GIC_NONE)
		return -1;
	gic_sgi(&a64_gic[idx], intid);
	return 0;
}
