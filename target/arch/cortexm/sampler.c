/* SPDX-License-Identifier: BSD-2-Clause */
/* The Cortex-M sampler's API (bmprof_cortexm.h) over the arch-neutral sampler
 * (target/core/sampler.h) and this architecture's ops (ops.c): the configuration, the one
 * CPU's set-up, and the SysTick and PMU-overflow handlers, which take the interrupted pc
 * and lr from the exception frame. Everything else is the neutral sampler's. */
#include "bmprof_cortexm.h"
#include "../../core/sampler.h"
#include "wire.h"
#include "cm.h"
#include "cm_unwind.h"

#define MEM_BYTES ((BMPROF_STATIC_MEM(BMPROF_CM_TABLE_ENTRIES, BMPROF_CM_OVF_ENTRIES) + \
		    BMPROF_CACHE_LINE - 1) & ~(BMPROF_CACHE_LINE - 1ul))

#if BMPROF_CM_STACK_ENTRIES
#define STACK_BYTES ((BMPROF_STACKS_MEM(BMPROF_CM_STACK_ENTRIES, BMPROF_CM_STACK_FRAMES) + 7) & ~7ul)
static uint8_t stack_mem[STACK_BYTES] __attribute__((aligned(8)));
#define STACK_MEM stack_mem
#else
#define STACK_BYTES 0
#define STACK_MEM 0
#endif

static struct bmprof_scpu cpu;
static uint8_t mem[MEM_BYTES] __attribute__((aligned(BMPROF_CACHE_LINE)));

static struct {
	struct bmprof_cm_config cfg;
	struct bmprof_cm_info info;
} st;

const char *bmprof_cm_strerror(int err)
{
	switch (err) {
	case BMPROF_CM_OK: return "ok";
	case BMPROF_CM_E_CONFIG:
		return "bad sampler configuration: a frequency above 100000 Hz or too high for "
		       "SysTick's clock, an unknown mode, a bad event spec, raw samples (not on "
		       "Cortex-M), or call stacks deeper than 64, without stack memory (build the "
		       "library with -DBMPROF_CM_STACK_ENTRIES=N) or without the .ARM.exidx table";
	case BMPROF_CM_E_TIMER: return "SysTick's clock rate (sysclk_hz) is 0";
	case BMPROF_CM_E_MEMORY:
		return "the core rejected the table sizes: check BMPROF_CM_TABLE_ENTRIES/_OVF_ENTRIES";
	}
	return "unknown error";
}

const struct bmprof_cm_info *bmprof_cm_info(void) { return &st.info; }
const struct bmprof_pmu *bmprof_cm_pmu(void) { return &cpu.pmu; }
struct bmprof_cpu *bmprof_cm_cpu(void) { return &cpu.core; }

static int check(const struct bmprof_cm_config *cfg)
{
	if (cfg->hz > BMPROF_CM_MAX_HZ || cfg->mode > BMPROF_CM_COUNT ||
	    cfg->nevents > BMPROF_CM_MAX_EVENTS || cfg->raw ||
	    cfg->stack_depth > BMPROF_STACK_DEPTH_MAX ||
	    (cfg->stack_depth && (!STACK_BYTES || cfg->exidx.hi - cfg->exidx.lo < 8)))
		return BMPROF_CM_E_CONFIG;
	return cfg->sysclk_hz ? BMPROF_CM_OK : BMPROF_CM_E_TIMER;
}

/* The event specs straight into the claimed CPU's PMU state (no second copy in RAM). */
static int parse_events(struct bmprof_scpu *c, const struct bmprof_cm_config *cfg)
{
	for (unsigned i = 0; i < cfg->nevents; i++)
		if (bmprof_pmu_parse_spec(&c->pmu, cfg->events[i], BMPROF_VENDOR_ARM)) {
			st.info.bad_event = (uint8_t)i;
			return BMPROF_CM_E_CONFIG;
		}
	return BMPROF_CM_OK;
}

int bmprof_cm_init(const struct bmprof_cm_config *cfg)
{
	struct bmprof_sampler_config sc = {
		.ops = cm_ops(), .cpus = &cpu, .max_cpus = 1, .mem = mem, .mem_per_cpu = MEM_BYTES,
		.table_entries = BMPROF_CM_TABLE_ENTRIES, .ovf_entries = BMPROF_CM_OVF_ENTRIES,
		.timebase_hz = cfg->sysclk_hz, .hz = cfg->hz, .flush_ms = cfg->flush_ms,
		.mode = cfg->mode, .out = cfg->out, .out_begin = cfg->out_begin,
		.out_end = cfg->out_end, .ram = cfg->ram, .code = cfg->code,
		.stack_depth = cfg->stack_depth, .stack_entries = BMPROF_CM_STACK_ENTRIES,
		.stack_frames = BMPROF_CM_STACK_FRAMES, .stack_mem = STACK_MEM,
		.stack_mem_per_cpu = STACK_BYTES,
	};
	struct bmprof_scpu *c;
	int err;

	st = (__typeof__(st)){ 0 };
	cpu = (struct bmprof_scpu){ 0 };
	st.cfg = *cfg;
	st.cfg.events = 0;
	st.info.source = BMPROF_SOURCE_TIMER;
	st.info.bad_event = 0xFF;
	st.info.timebase_hz = cfg->sysclk_hz;
	st.info.cpuid = cm_read(CM_CPUID);
	st.info.mode = cfg->mode;
	bmprof_sampler_init(&sc);
	err = check(cfg);
	if (err)
		return err;
	cm_timebase_start();
	c = bmprof_sampler_claim(0);
	if (!c)
		return BMPROF_CM_E_CONFIG;
	err = parse_events(c, cfg);
	if (err) {
		bmprof_sampler_forget(c);
		return err;
	}
	err = bmprof_sampler_setup(c, cfg->pmu);
	if (err) {
		bmprof_sampler_forget(c);
		return err == -1 ? BMPROF_CM_E_MEMORY : BMPROF_CM_E_CONFIG;
	}
	bmprof_sampler_publish(c);
	st.info.source = c->pmi_on ? BMPROF_SOURCE_PMU : BMPROF_SOURCE_TIMER;
	st.info.timer_samples = c->timer_samples;
	st.info.timer_runs = c->timer_runs;
	st.info.hz = cfg->hz;
	st.info.period_ticks = c->timer_runs ? c->period : 0;
	st.info.jitter_ticks = c->timer_runs ? c->jitter : 0;
	return BMPROF_CM_OK;
}

int bmprof_cm_announce(const uint8_t *build_id, uint8_t build_id_len)
{
	return bmprof_sampler_announce(build_id, build_id_len);
}

void bmprof_cm_start(void) { bmprof_sampler_start(); }
void bmprof_cm_stop(void) { bmprof_sampler_stop(); }
void bmprof_cm_flush(void) { bmprof_sampler_flush(); }
void bmprof_cm_poll(void) { bmprof_sampler_poll(); }
int bmprof_cm_probe(int on) { return bmprof_sampler_probe(on); }

void bmprof_cm_irq_stats(uint64_t *irqs, uint64_t *last_ticks)
{
	bmprof_sampler_irq_stats(0, irqs, last_ticks);
}

void bmprof_cm_set_untimed_fine(int64_t untimed) { bmprof_sampler_set_untimed(0, untimed); }

/* The call chain (the ops' unwind) over the configured .ARM.exidx table. */
unsigned cm_stack_unwind(const struct bmprof_regs *r, const struct bmprof_unwind_env *e,
			 uint64_t *out, unsigned max, int *more)
{
	const struct bmprof_range *x = &st.cfg.exidx;
	const uint32_t *f = (const uint32_t *)(const void *)r->frame;

	/* inside an IT block what the instructions ahead do depends on the flags; a push or
	 * pop interrupted part way (ICI) has moved some registers and not sp */
	*more = 0;
	if (f && (f[BMPROF_CM_FRAME_XPSR] & BMPROF_CM_XPSR_IT))
		return 0;
	return cm_unwind(e, (const uint32_t *)(uintptr_t)x->lo, (unsigned)((x->hi - x->lo) / 8),
			 r, out, max, more);
}

/* The interrupted registers from the exception frame: the sp above it (the basic or the
 * extended frame, and the alignment word), r7 as the entry found it; the frame itself (its
 * xPSR) for the unwind. */
static void frame_regs(struct bmprof_regs *r, const uint32_t *f, uint32_t exc_return,
		       uint32_t r7)
{
	unsigned words = exc_return & BMPROF_CM_EXC_RETURN_NOFP ? BMPROF_CM_FRAME_WORDS :
			 BMPROF_CM_FRAME_FP_WORDS;

	if (f[BMPROF_CM_FRAME_XPSR] & BMPROF_CM_XPSR_ALIGN)
		words++;
	r->pc = f[BMPROF_CM_FRAME_PC];
	r->lr = f[BMPROF_CM_FRAME_LR];
	r->sp = (uintptr_t)(f + words);
	r->fp = r7;
	r->frame = (const uint64_t *)(const void *)f;
}

/* SysTick: every wrap is counted (the timebase); with no deadline armed that is all; a
 * deadline further than one SysTick period is re-armed; the armed one runs the sampler's
 * tick. */
void bmprof_cm_systick(const uint32_t *frame, uint32_t exc_return, uint32_t r7)
{
	struct bmprof_scpu *c;
	struct bmprof_regs r;

	cm_irq_disable();
	cm_now_masked();
	c = bmprof_sampler_cur();
	if (!c || !cm_armed() || !bmprof_sampler_timer_on(c)) {
		cm_irq_enable();
		return;
	}
	if (cm_short_of_deadline()) {
		cm_rearm();
		cm_irq_enable();
		return;
	}
	frame_regs(&r, frame, exc_return, r7);
	bmprof_sampler_tick_regs(c, &r);
	bmprof_sampler_handled(c);
	bmprof_sampler_exit(c);
	cm_irq_enable();
}

void bmprof_cm_overflow(const uint32_t *frame, uint32_t exc_return, uint32_t r7)
{
	struct bmprof_scpu *c;
	struct bmprof_regs r;

	cm_irq_disable();
	c = bmprof_sampler_cur();
	if (c) {
		frame_regs(&r, frame, exc_return, r7);
		bmprof_sampler_overflow_regs(c, &r);
		bmprof_sampler_handled(c);
		bmprof_sampler_exit(c);
	}
	cm_irq_enable();
}
