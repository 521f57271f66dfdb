/* SPDX-License-Identifier: BSD-2-Clause */
/* The RISC-V sampler's API (bmprof_riscv64.h) over the arch-neutral sampler
 * (target/core/sampler.h) and this architecture's ops (ops.c): the configuration, each
 * hart's set-up (the event specs placed on its hpm counters) and the interrupt dispatch
 * by mcause; everything else is the neutral sampler's. */
#include "bmprof_riscv64.h"
#include "../../core/sampler.h"
#include "wire.h"
#include "rv.h"

#if BMPROF_RV_MAX_CPUS < 1 || BMPROF_RV_MAX_CPUS > BMPROF_SAMPLER_MAX_CPUS
#error "BMPROF_RV_MAX_CPUS must be 1..64"
#endif

#define MEM_BYTES ((BMPROF_STATIC_MEM(BMPROF_RV_TABLE_ENTRIES, BMPROF_RV_OVF_ENTRIES) + \
		    4096 + BMPROF_CACHE_LINE - 1) & ~(BMPROF_CACHE_LINE - 1ul))

#ifndef BMPROF_RV_RAW_ENTRIES
#define BMPROF_RV_RAW_ENTRIES 64
#endif
#if BMPROF_RV_RAW_ENTRIES
#define RAW_BYTES ((BMPROF_RAW_MEM(BMPROF_RV_RAW_ENTRIES) + 7) & ~7ul)
static uint8_t raw_mem[BMPROF_RV_MAX_CPUS][RAW_BYTES] __attribute__((aligned(8)));
#define RAW_MEM (&raw_mem[0][0])
#else
#define RAW_BYTES 0
#define RAW_MEM 0
#endif

#if BMPROF_RV_STACK_ENTRIES
#define STACK_BYTES ((BMPROF_STACKS_MEM(BMPROF_RV_STACK_ENTRIES, BMPROF_RV_STACK_FRAMES) + 7) & ~7ul)
static uint8_t stack_mem[BMPROF_RV_MAX_CPUS][STACK_BYTES] __attribute__((aligned(8)));
#define STACK_MEM (&stack_mem[0][0])
#else
#define STACK_BYTES 0
#define STACK_MEM 0
#endif

static struct bmprof_scpu cpus[BMPROF_RV_MAX_CPUS];
static uint8_t mem[BMPROF_RV_MAX_CPUS][MEM_BYTES] __attribute__((aligned(BMPROF_CACHE_LINE)));

static struct {
	struct bmprof_rv_config cfg;
	struct bmprof_rv_info info;
	struct bmprof_pmu spec;
	int ready;
} st;

const char *bmprof_rv_strerror(int err)
{
	switch (err) {
	case BMPROF_RV_OK: return "ok";
	case BMPROF_RV_E_CONFIG:
		return "bad sampler configuration: frequency above 100000 Hz or too high for the "
		       "timer, an unknown mode, a call-stack depth above 64 or without stack "
		       "memory (BMPROF_RV_STACK_ENTRIES 0), or a bad event spec";
	case BMPROF_RV_E_MEMORY:
		return "the core rejected the table sizes: check BMPROF_RV_TABLE_ENTRIES/_OVF_ENTRIES";
	case BMPROF_RV_E_CPU:
		return "bad CPU index: 1 .. BMPROF_RV_MAX_CPUS-1, not yet set up, after bmprof_rv_init";
	}
	return "unknown error";
}

const struct bmprof_rv_info *bmprof_rv_info(void) { return &st.info; }
unsigned bmprof_rv_ncpus(void) { return bmprof_sampler_ncpus(); }

struct bmprof_cpu *bmprof_rv_cpu(void)
{
	struct bmprof_scpu *c = bmprof_sampler_self();

	return c && bmprof_sampler_at(c->idx) ? &c->core : 0;
}

const struct bmprof_pmu *bmprof_rv_pmu(void)
{
	struct bmprof_scpu *c = bmprof_sampler_self();

	return &cpus[c && bmprof_sampler_at(c->idx) ? c->idx : 0].pmu;
}

static int check(const struct bmprof_rv_config *cfg)
{
	if (cfg->hz > BMPROF_RV_MAX_HZ || cfg->mode > BMPROF_RV_COUNT ||
	    cfg->nevents > BMPROF_RV_MAX_EVENTS || cfg->stack_depth > BMPROF_STACK_DEPTH_MAX ||
	    (cfg->stack_depth && !STACK_BYTES) || (cfg->raw && !RAW_BYTES))
		return BMPROF_RV_E_CONFIG;
	for (unsigned i = 0; i < cfg->nevents; i++)
		if (bmprof_pmu_parse_spec(&st.spec, cfg->events[i], BMPROF_VENDOR_RISCV)) {
			st.info.bad_event = (uint8_t)i;
			cpus[0].pmu.error = st.spec.error;
			return BMPROF_RV_E_CONFIG;
		}
	return BMPROF_RV_OK;
}

static void sampler_init(void)
{
	struct bmprof_sampler_config sc = {
		.ops = &rv_ops, .cpus = cpus, .max_cpus = BMPROF_RV_MAX_CPUS, .mem = &mem[0][0],
		.mem_per_cpu = MEM_BYTES, .table_entries = BMPROF_RV_TABLE_ENTRIES,
		.ovf_entries = BMPROF_RV_OVF_ENTRIES, .timebase_hz = st.info.timebase_hz,
		.hz = st.cfg.hz, .flush_ms = st.cfg.flush_ms, .mode = st.cfg.mode,
		.out = st.cfg.out, .out_begin = st.cfg.out_begin, .out_end = st.cfg.out_end,
		.load_bias = st.cfg.load_bias, .stack_depth = st.cfg.stack_depth,
		.stack_entries = BMPROF_RV_STACK_ENTRIES, .stack_frames = BMPROF_RV_STACK_FRAMES,
		.stack_mem = STACK_MEM, .stack_mem_per_cpu = STACK_BYTES, .ram = st.cfg.ram,
		.code = st.cfg.code, .raw = st.cfg.raw,
		.raw_entries = BMPROF_RV_RAW_ENTRIES, .raw_mem = RAW_MEM,
		.raw_mem_per_cpu = RAW_BYTES,
	};

	bmprof_sampler_init(&sc);
}

static int setup_cpu(unsigned idx)
{
	struct bmprof_scpu *c = bmprof_sampler_claim(idx);
	int err;

	if (!c)
		return BMPROF_RV_E_CPU;
	rv_csr_clear(mie, RV_MIE_MTIE | RV_MIE_LCOFIE);
	c->pmu = st.spec;
	err = bmprof_sampler_setup(c, &bmprof_pmu_sscof);
	if (err) {
		bmprof_sampler_forget(c);
		return err == -1 ? BMPROF_RV_E_MEMORY : BMPROF_RV_E_CONFIG;
	}
	bmprof_sampler_publish(c);
	return BMPROF_RV_OK;
}

int bmprof_rv_init(const struct bmprof_rv_config *cfg)
{
	const struct bmprof_scpu *c = &cpus[0];
	int err;

	st = (__typeof__(st)){ 0 };
	cpus[0] = (struct bmprof_scpu){ 0 };
	st.cfg = *cfg;
	st.cfg.events = 0;
	st.info.source = BMPROF_SOURCE_TIMER;
	st.info.bad_event = 0xFF;
	st.info.timebase_hz = cfg->timebase_hz ? cfg->timebase_hz : BMPROF_RV_VIRT_TIMEBASE;
	st.info.mode = cfg->mode;
	rv_clint_setup(cfg->clint);
	rv_pmu_set(cfg->hpm_counters, cfg->sscofpmf);
	sampler_init();
	err = check(cfg);
	if (err)
		return err;
	err = setup_cpu(0);
	if (err)
		return err;
	st.info.source = c->pmi_on ? BMPROF_SOURCE_PMU : BMPROF_SOURCE_TIMER;
	st.info.timer_samples = c->timer_samples;
	st.info.timer_runs = c->timer_runs;
	st.info.hz = cfg->hz;
	st.info.period_ticks = c->timer_runs ? c->period : 0;
	st.info.jitter_ticks = c->timer_runs ? c->jitter : 0;
	st.info.hpm_counters = c->pmu.caps.ngp;
	st.info.sscofpmf = c->pmu.caps.can_interrupt;
	st.ready = 1;
	return BMPROF_RV_OK;
}

int bmprof_rv_cpu_init(unsigned idx)
{
	if (!st.ready || idx == 0 || idx >= BMPROF_RV_MAX_CPUS || bmprof_sampler_at(idx))
		return BMPROF_RV_E_CPU;
	return setup_cpu(idx);
}

int bmprof_rv_announce(const uint8_t *build_id, uint8_t build_id_len)
{
	return bmprof_sampler_announce(build_id, build_id_len);
}

void bmprof_rv_start(void) { bmprof_sampler_start(); }
void bmprof_rv_stop(void) { bmprof_sampler_stop(); }
int bmprof_rv_probe(int on) { return bmprof_sampler_probe(on); }

int bmprof_rv_irq(uint64_t cause, uint64_t pc, const uint64_t *frame)
{
	struct bmprof_scpu *c = bmprof_sampler_cur();
	const struct bmprof_regs r = { .pc = pc, .sp = frame ? frame[2] : 0,
				       .fp = frame ? frame[8] : 0, .lr = frame ? frame[1] : 0,
				       .frame = frame };

	if (cause == BMPROF_RV_IRQ_MTIMER) {
		if (c && bmprof_sampler_timer_on(c))
			bmprof_sampler_tick_regs(c, &r);
		else
			rv_csr_clear(mie, RV_MIE_MTIE);   /* not ours to run: keep it quiet */
	} else if (cause == BMPROF_RV_IRQ_LCOF) {
		if (!c || !bmprof_sampler_overflow_regs(c, &r))
			bmprof_pmu_sscof.ack(~0ull);       /* after stop: only acknowledge */
	} else {
		return 0;
	}
	if (c)
		bmprof_sampler_handled(c);
	return 1;
}

void bmprof_rv_set_stack(uint64_t lo, uint64_t hi) { bmprof_sampler_set_stack(lo, hi); }

void bmprof_rv_irq_exit(void)
{
	struct bmprof_scpu *c = bmprof_sampler_cur();

	if (c)
		bmprof_sampler_exit(c);
}

void bmprof_rv_poll(void) { bmprof_sampler_poll(); }
void bmprof_rv_flush(void) { bmprof_sampler_flush(); }
void bmprof_rv_flush_cpu(unsigned idx) { bmprof_sampler_flush_cpu(idx); }

void bmprof_rv_irq_stats(unsigned idx, uint64_t *irqs, uint64_t *last_ticks)
{
	bmprof_sampler_irq_stats(idx, irqs, last_ticks);
}

void bmprof_rv_set_untimed_fine(unsigned idx, int64_t untimed)
{
	bmprof_sampler_set_untimed(idx, untimed);
}
