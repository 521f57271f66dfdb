/* SPDX-License-Identifier: BSD-2-Clause */
/* The x86-64 sampler's API (bmprof_x86_64.h) over the arch-neutral sampler
 * (target/core/sampler.h) and this architecture's ops (ops.c): the configuration, the
 * calibration, each CPU's set-up (its LAPIC, its PMU's probe and the events placed on it)
 * and the per-CPU information; everything else is the neutral sampler's.
 *
 * CPUs. The CPU that calls bmprof_x86_init() is CPU 0; each other CPU calls
 * bmprof_x86_init_cpu() with its index. The PMU is probed and the event specs are parsed
 * on each CPU for its own vendor. The calibration and the configuration are the first
 * CPU's, read-only afterwards. */
#include "bmprof_x86_64.h"
#include "../../core/sampler.h"
#include "wire.h"
#include "pmu_x86.h"
#include "x86.h"

#if BMPROF_X86_MAX_CPUS < 1 || BMPROF_X86_MAX_CPUS > BMPROF_SAMPLER_MAX_CPUS
#error "BMPROF_X86_MAX_CPUS must be 1..64"
#endif

/* The static memory of one CPU, a whole number of cache lines. */
#define MEM_USED BMPROF_STATIC_MEM(BMPROF_X86_TABLE_ENTRIES, BMPROF_X86_OVF_ENTRIES)
#define MEM_BYTES ((MEM_USED + BMPROF_CACHE_LINE - 1) & ~(BMPROF_CACHE_LINE - 1ul))

#if BMPROF_X86_STACK_ENTRIES
#define STACK_BYTES ((BMPROF_STACKS_MEM(BMPROF_X86_STACK_ENTRIES, BMPROF_X86_STACK_FRAMES) + 7) & ~7ul)
static uint8_t stack_mem[BMPROF_X86_MAX_CPUS][STACK_BYTES] __attribute__((aligned(8)));
#define STACK_MEM (&stack_mem[0][0])
#else
#define STACK_BYTES 0
#define STACK_MEM 0
#endif

#if BMPROF_X86_RAW_ENTRIES
#define RAW_BYTES ((BMPROF_RAW_MEM(BMPROF_X86_RAW_ENTRIES) + 7) & ~7ul)
static uint8_t raw_mem[BMPROF_X86_MAX_CPUS][RAW_BYTES] __attribute__((aligned(8)));
#define RAW_MEM (&raw_mem[0][0])
#else
#define RAW_BYTES 0
#define RAW_MEM 0
#endif

static struct bmprof_scpu cpus[BMPROF_X86_MAX_CPUS];
static uint8_t mem[BMPROF_X86_MAX_CPUS][MEM_BYTES] __attribute__((aligned(BMPROF_CACHE_LINE)));
static struct bmprof_x86_info info[BMPROF_X86_MAX_CPUS];

/* Set by bmprof_x86_init, read-only afterwards. */
static struct {
	struct bmprof_x86_config cfg;
	uint64_t tsc_hz, lapic_hz;
	uint8_t tsc_from_cpuid, x2apic, timer;
	const char *event_error[BMPROF_X86_MAX_EVENTS];
	uint32_t bad_events[BMPROF_X86_MAX_CPUS];
} sh;

static const char *const errors[] = {
	"ok",
	"the CPU has no local APIC (CPUID.1:EDX[9] is clear)",
	"timer calibration failed: PIT channel 2 or the LAPIC timer does not count",
	"bad sampler configuration: frequency above 100000 Hz or too high for the timer, a "
	"vector outside 32..254, more than 32 events, or an unknown mode",
	"the core rejected the table sizes: check BMPROF_X86_TABLE_ENTRIES/_OVF_ENTRIES",
	"bad CPU: bmprof_x86_init_cpu wants an index 1..BMPROF_X86_MAX_CPUS-1 not yet set up, "
	"after bmprof_x86_init, on a CPU with an APIC ID of its own",
};

const char *bmprof_x86_strerror(int err)
{
	if (err > 0 || -err >= (int)(sizeof errors / sizeof errors[0]))
		return "unknown error";
	return errors[-err];
}

static struct bmprof_scpu *cur_or_first(void)
{
	struct bmprof_scpu *c = bmprof_sampler_cur();

	return c ? c : &cpus[0];
}

unsigned bmprof_x86_cpu_index(void)
{
	struct bmprof_scpu *c = bmprof_sampler_self();

	return c ? c->idx : BMPROF_X86_NO_CPU;
}

unsigned bmprof_x86_ncpus(void) { return bmprof_sampler_ncpus(); }

/* The PMU drivers' per-CPU state is indexed by this. */
unsigned pmu_x86_cpu(void) { return cur_or_first()->idx; }

struct bmprof_cpu *bmprof_x86_cpu(void) { return &cur_or_first()->core; }
const struct bmprof_pmu *bmprof_x86_pmu(void) { return &cur_or_first()->pmu; }

/* The calling CPU's, filled from its sampler state. */
const struct bmprof_x86_info *bmprof_x86_info(void)
{
	const struct bmprof_scpu *c = cur_or_first();
	struct bmprof_x86_info *in = &info[c->idx];

	*in = (struct bmprof_x86_info){
		.tsc_hz = sh.tsc_hz, .lapic_hz = sh.lapic_hz, .period_tsc = c->period,
		.jitter_tsc = c->jitter, .hz = bmprof_sampler.cfg.hz, .timer = sh.timer,
		.x2apic = sh.x2apic, .tsc_from_cpuid = sh.tsc_from_cpuid,
		.source = c->pmi_on ? BMPROF_SOURCE_PMU : BMPROF_SOURCE_TIMER,
		.timer_samples = c->timer_samples, .timer_runs = c->timer_runs,
		.pmi = sh.cfg.pmi, .bad_events = sh.bad_events[c->idx], .pmis = c->pmis,
		.pmis_deferred = c->pmis_deferred, .nmis_other = c->pmis_other,
	};
	return in;
}

const char *bmprof_x86_event_error(unsigned i)
{
	return i < BMPROF_X86_MAX_EVENTS ? sh.event_error[i] : 0;
}

/* Parse the specs for this CPU's vendor; the PMU's ops for it. */
static const struct bmprof_pmu_ops *parse_events(struct bmprof_scpu *c)
{
	uint8_t vendor = pmu_x86_vendor();

	for (unsigned i = 0; i < sh.cfg.nevents; i++) {
		const char *t = sh.cfg.events[i];
		if (bmprof_pmu_parse_spec(&c->pmu, t, vendor)) {
			sh.bad_events[c->idx] |= 1u << i;
			if (c->idx == 0)
				sh.event_error[i] = c->pmu.error ? c->pmu.error : "malformed";
		}
	}
	return vendor == BMPROF_VENDOR_INTEL ? &bmprof_pmu_intel :
	       vendor == BMPROF_VENDOR_AMD ? &bmprof_pmu_amd : 0;
}

static int check_config(const struct bmprof_x86_config *cfg)
{
	if (cfg->hz > BMPROF_X86_MAX_HZ || cfg->vector < 32 || cfg->vector == 255)
		return -1;
	if (cfg->stack_depth > BMPROF_STACK_DEPTH_MAX || (cfg->stack_depth && !STACK_BYTES) ||
	    (cfg->raw && !RAW_BYTES))
		return -1;
	if (cfg->nevents > BMPROF_X86_MAX_EVENTS || cfg->mode > BMPROF_PMU_COUNT ||
	    cfg->pmi > BMPROF_X86_PMI_IRQ)
		return -1;
	if (cfg->pmi == BMPROF_X86_PMI_IRQ &&
	    (cfg->pmi_vector < 32 || cfg->pmi_vector == 255 || cfg->pmi_vector == cfg->vector))
		return -1;
	return 0;
}

/* Everything of CPU `index` that is its own, on that CPU; its APIC is enabled. The PMU is
 * never touched without events. */
static int setup_cpu(unsigned index)
{
	struct bmprof_scpu *c = bmprof_sampler_claim(index);
	const struct bmprof_pmu_ops *pmu_ops = 0;
	int err;

	if (!c)
		return BMPROF_X86_E_CPU;
	sh.bad_events[index] = 0;
	if (bmprof_sampler_own_timer())
		x86_timer_mask();
	if (sh.cfg.nevents)
		pmu_ops = parse_events(c);
	err = bmprof_sampler_setup(c, pmu_ops);
	if (c->pmi_on)
		bmprof_sampler_ops()->pmi_enable(c, 0);
	if (err) {
		bmprof_sampler_forget(c);
		return err == -1 ? BMPROF_X86_E_MEMORY : BMPROF_X86_E_CONFIG;
	}
	bmprof_sampler_publish(c);
	return BMPROF_X86_OK;
}

/* What the neutral sampler runs on. */
static int sampler_init(const struct bmprof_x86_config *cfg)
{
	uint32_t lvtpc = cfg->pmi == BMPROF_X86_PMI_IRQ ? cfg->pmi_vector : LAPIC_LVT_NMI;
	struct bmprof_sampler_config sc = {
		.ops = x86_ops(sh.timer, cfg->vector, lvtpc, sh.tsc_hz, sh.lapic_hz, cfg->hz),
		.cpus = cpus, .max_cpus = BMPROF_X86_MAX_CPUS, .mem = &mem[0][0],
		.mem_per_cpu = MEM_BYTES, .table_entries = BMPROF_X86_TABLE_ENTRIES,
		.ovf_entries = BMPROF_X86_OVF_ENTRIES, .timebase_hz = sh.tsc_hz, .hz = cfg->hz,
		.flush_ms = cfg->flush_ms, .mode = cfg->mode, .out = cfg->out,
		.out_begin = cfg->out_begin, .out_end = cfg->out_end, .load_bias = cfg->load_bias,
		.stack_depth = cfg->stack_depth, .stack_entries = BMPROF_X86_STACK_ENTRIES,
		.stack_frames = BMPROF_X86_STACK_FRAMES, .stack_mem = STACK_MEM,
		.stack_mem_per_cpu = STACK_BYTES, .ram = cfg->ram, .code = cfg->code,
		.raw = cfg->raw, .raw_entries = BMPROF_X86_RAW_ENTRIES, .raw_mem = RAW_MEM,
		.raw_mem_per_cpu = RAW_BYTES,
	};

	if (!sc.ops)
		return BMPROF_X86_E_CONFIG;
	bmprof_sampler_init(&sc);
	return BMPROF_X86_OK;
}

int bmprof_x86_init(const struct bmprof_x86_config *cfg)
{
	int from_cpuid = 0, err;

	if (bmprof_sampler.up)
		return BMPROF_X86_E_CPU;
	sh.cfg = *cfg;
	if (sh.cfg.pmi == BMPROF_X86_PMI_IRQ && !sh.cfg.pmi_vector)
		sh.cfg.pmi_vector = BMPROF_X86_DEFAULT_PMI_VECTOR;
	if (check_config(&sh.cfg))
		return BMPROF_X86_E_CONFIG;
	cfg = &sh.cfg;
	if (!cpu_has_apic())
		return BMPROF_X86_E_NOAPIC;
	sh.x2apic = (uint8_t)lapic_setup_at(cfg->lapic_va);
	if (calibrate(&sh.tsc_hz, &sh.lapic_hz, &from_cpuid,
		      cfg->timer != BMPROF_X86_TIMER_EXTERNAL))
		return BMPROF_X86_E_CALIBRATE;
	sh.tsc_from_cpuid = (uint8_t)from_cpuid;
	if (cfg->timer == BMPROF_X86_TIMER_EXTERNAL)
		sh.timer = BMPROF_X86_TIMER_EXTERNAL;
	else
		sh.timer = cfg->timer != BMPROF_X86_TIMER_ONESHOT && cpu_has_tsc_deadline() ?
			BMPROF_X86_TIMER_DEADLINE : BMPROF_X86_TIMER_ONESHOT;
	pmu_access_init(cfg->msr_fixup);
	err = sampler_init(cfg);
	return err ? err : setup_cpu(0);
}

int bmprof_x86_init_cpu(unsigned cpu)
{
	if (cpu == 0 || cpu >= BMPROF_X86_MAX_CPUS || !bmprof_sampler_at(0) ||
	    bmprof_sampler_at(cpu))
		return BMPROF_X86_E_CPU;
	lapic_enable_local();
	return setup_cpu(cpu);
}

void bmprof_x86_set_core_hz(uint64_t hz) { bmprof_sampler.core_hz = hz; }

int bmprof_x86_announce(const uint8_t *build_id, uint8_t build_id_len)
{
	return bmprof_sampler_announce(build_id, build_id_len);
}

void bmprof_x86_set_steal(const volatile void *kvm_steal_time)
{
	bmprof_sampler_set_steal(kvm_steal_time);
}

void bmprof_x86_start(void) { bmprof_sampler_start(); }
void bmprof_x86_stop(void) { bmprof_sampler_stop(); }
int bmprof_x86_probe(int on) { return bmprof_sampler_probe(on); }

void bmprof_x86_irq_stats(unsigned cpu, uint64_t *irqs, uint64_t *last_ticks)
{
	bmprof_sampler_irq_stats(cpu, irqs, last_ticks);
}

void bmprof_x86_set_untimed(unsigned cpu, int64_t ticks)
{
	bmprof_sampler_set_untimed(cpu, ticks * BMPROF_UNTIMED_ONE);
}

void bmprof_x86_set_untimed_fine(unsigned cpu, int64_t untimed)
{
	bmprof_sampler_set_untimed(cpu, untimed);
}

/* Another's interrupt, or an integrator's handler: the tick, then its time ends unless a
 * drain is due (bmprof_x86_irq_exit ends it then). */
void bmprof_x86_tick(uint64_t rip)
{
	const struct bmprof_regs r = { .pc = rip };

	bmprof_x86_tick_regs(&r);
}

void bmprof_x86_tick_regs(const struct bmprof_regs *r)
{
	struct bmprof_scpu *c = bmprof_sampler_cur();

	if (!c) {
		if (bmprof_sampler_ops()->timer_ack)
			bmprof_sampler_ops()->timer_ack();
		return;
	}
	bmprof_sampler_tick_regs(c, r);
	bmprof_sampler_handled(c);
}

int bmprof_x86_nmi_regs(const struct bmprof_regs *r)
{
	struct bmprof_scpu *c = bmprof_sampler_cur();

	if (!c)
		return 0;
	if (!c->pmi_on || sh.cfg.pmi != BMPROF_X86_PMI_NMI) {
		c->pmis_other++;
		return 0;
	}
	return bmprof_sampler_overflow_regs(c, r);
}

int bmprof_x86_nmi(uint64_t rip)
{
	const struct bmprof_regs r = { .pc = rip };

	return bmprof_x86_nmi_regs(&r);
}

void bmprof_x86_pmi_regs(const struct bmprof_regs *r)
{
	struct bmprof_scpu *c = bmprof_sampler_cur();

	if (c && c->pmi_on)
		bmprof_sampler_overflow_regs(c, r);
	lapic_eoi();
}

void bmprof_x86_pmi(uint64_t rip)
{
	const struct bmprof_regs r = { .pc = rip };

	bmprof_x86_pmi_regs(&r);
}

void bmprof_x86_set_stack(uint64_t lo, uint64_t hi) { bmprof_sampler_set_stack(lo, hi); }

/* The registers of an interrupt frame (RIP, CS, RFLAGS, RSP, SS), the interrupted rbp and
 * the general registers the entry saved (irq_save.inc), as the ready-made entries pass
 * them. */
static struct bmprof_regs frame_regs(const uint64_t *iret, uint64_t rbp, const uint64_t *gpr)
{
	return (struct bmprof_regs){ .pc = iret[0], .sp = iret[3], .fp = rbp, .frame = gpr };
}

void bmprof_x86_timer_frame(const uint64_t *iret, uint64_t rbp, const uint64_t *gpr)
{
	const struct bmprof_regs r = frame_regs(iret, rbp, gpr);

	bmprof_sampler_timer_irq_regs(&r);
}

void bmprof_x86_tick_frame(const uint64_t *iret, uint64_t rbp, const uint64_t *gpr)
{
	const struct bmprof_regs r = frame_regs(iret, rbp, gpr);

	bmprof_x86_tick_regs(&r);
}

void bmprof_x86_nmi_frame(const uint64_t *iret, uint64_t rbp, const uint64_t *gpr)
{
	const struct bmprof_regs r = frame_regs(iret, rbp, gpr);

	bmprof_x86_nmi_regs(&r);
}

/* bmprof_x86_pmi_entry: the PMI and the interrupt-exit drain with one look-up. */
void bmprof_x86_pmi_frame(const uint64_t *iret, uint64_t rbp, const uint64_t *gpr)
{
	const struct bmprof_regs r = frame_regs(iret, rbp, gpr);
	struct bmprof_scpu *c = bmprof_sampler_cur();

	if (c && c->pmi_on)
		bmprof_sampler_overflow_regs(c, &r);
	lapic_eoi();
	if (c)
		bmprof_sampler_exit(c);
}

void bmprof_x86_irq_exit(void)
{
	struct bmprof_scpu *c = bmprof_sampler_cur();

	if (c)
		bmprof_sampler_exit(c);
}

void bmprof_x86_poll(void) { bmprof_sampler_poll(); }
void bmprof_x86_flush_cpu(unsigned cpu) { bmprof_sampler_flush_cpu(cpu); }
void bmprof_x86_flush(void) { bmprof_sampler_flush(); }
