/* The sampler, per CPU: setup, the LAPIC timer with randomized periods, the PMU through
 * the PMU layer (bmprof_pmu.h) with its interrupt as an NMI or a vector, the interrupt
 * paths, and the drain at interrupt exit.
 *
 * CPUs. The CPU that calls bmprof_x86_init() is CPU 0; each other CPU calls
 * bmprof_x86_init_cpu() with its index. Every CPU has its own state (struct pcpu: the
 * core's table and overflow buffers, the PMU layer's state, the timer's deadline and the
 * nesting flags below), its own LAPIC timer and its own counters, and only ever touches
 * its own, so the interrupt paths share nothing and take no lock. An interrupt finds its
 * CPU's state by the LAPIC ID (with one CPU set up, without reading it). The calibration
 * and the configuration are the first CPU's, read-only afterwards.
 *
 * Nesting, per CPU. The timer handler and the PMI handler both enter the core
 * (bmprof_record) and the PMU layer, and neither is re-entrant. In IRQ delivery they
 * cannot nest (both run with interrupts disabled). An NMI can land anywhere, so the timer
 * handler marks itself (in_timer) and a PMI NMI that finds the mark only notes its RIP;
 * the timer handler handles it before it returns, and its counters stay frozen or its
 * LVT entry masked until then, so no sample is lost. Outside the timer handler the NMI
 * records at once: the drain, the console and the rest of the program are safe to
 * interrupt with bmprof_record (the core's overflow buffers are handed over without
 * locks).
 */
#include "bmprof_x86_64.h"
#include "wire.h"
#include "pmu_x86.h"
#include "x86.h"
#include "../common/sampler_common.h"

#define MSR_TSC_DEADLINE 0x6E0
#define MIN_PERIOD 64   /* timer ticks; a shorter period would only measure the handler */

#if BMPROF_X86_MAX_CPUS < 1 || BMPROF_X86_MAX_CPUS > 64
#error "BMPROF_X86_MAX_CPUS must be 1..64"
#endif

/* The static memory of one CPU, a whole number of cache lines. */
#define MEM_USED BMPROF_STATIC_MEM(BMPROF_X86_TABLE_ENTRIES, BMPROF_X86_OVF_ENTRIES)
#define MEM_BYTES ((MEM_USED + BMPROF_CACHE_LINE - 1) & ~(BMPROF_CACHE_LINE - 1ul))

/* One CPU's state, in cache lines of its own. */
struct pcpu {
	struct bmprof_cpu core;
	struct bmprof_pmu pmu;
	struct bmprof_x86_info info;
	uint64_t deadline;       /* TSC value the armed period ends at */
	uint64_t tsc_to_lapic;   /* LAPIC ticks per TSC tick, 32.32 fixed point (one-shot) */
	uint32_t div;            /* divide configuration (one-shot) */
	uint32_t apic_id;
	uint8_t pmu_on;          /* events are on counters */
	uint8_t pmi_on;          /* some of them interrupt */
	volatile int running;
	volatile int in_bh;
	volatile int in_timer;   /* bmprof_x86_tick is running */
	volatile int deferred;   /* a PMI NMI came during it */
	volatile uint64_t deferred_rip;
	/* What the workload ran while the timer sampled (TOTALS sampled_ticks), in TSC
	 * ticks; untimed is measured by the integrator */
	struct bmprof_timing tm;
	/* Time the hypervisor gave to others while the workload ran (KVM steal time, ns):
	 * the steal at the last handler's exit or the start, and what was stolen outside
	 * the handler since the start. */
	const volatile uint8_t *steal;
	uint64_t steal_mark, steal_outside;
	volatile int quiet;      /* bmprof_x86_probe: the timer runs, nothing is recorded */
} __attribute__((aligned(BMPROF_CACHE_LINE)));

static struct pcpu pcpu[BMPROF_X86_MAX_CPUS];
static uint8_t mem[BMPROF_X86_MAX_CPUS][MEM_BYTES] __attribute__((aligned(BMPROF_CACHE_LINE)));

/* Set by bmprof_x86_init, read-only afterwards (but for the CPU masks). */
static struct {
	struct bmprof_x86_config cfg;
	uint64_t tsc_hz, lapic_hz;
	uint64_t core_hz;        /* for HELLO: bmprof_x86_set_core_hz */
	uint8_t tsc_from_cpuid, x2apic, timer;
	uint32_t lvt;            /* LVT timer value when armed: mode | vector */
	uint32_t lvtpc;          /* LVT performance counter value when armed */
	const char *event_error[BMPROF_X86_MAX_EVENTS];
	volatile uint64_t known; /* bit i: pcpu[i].apic_id is valid */
	volatile uint64_t up;    /* bit i: CPU i is set up */
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

static inline void barrier(void) { __asm__ volatile("" : : : "memory"); }

/* Another's periodic interrupt calls the tick: the LAPIC timer is not bmprof's. */
static inline int external(void) { return sh.timer == BMPROF_X86_TIMER_EXTERNAL; }

const char *bmprof_x86_strerror(int err)
{
	if (err > 0 || -err >= (int)(sizeof errors / sizeof errors[0]))
		return "unknown error";
	return errors[-err];
}

/* The index of the CPU with this APIC ID, or -1. */
static int index_of(uint64_t known, uint32_t id)
{
	for (unsigned i = 0; i < BMPROF_X86_MAX_CPUS; i++)
		if ((known >> i & 1) && pcpu[i].apic_id == id)
			return (int)i;
	return -1;
}

/* The running CPU's state, or 0 if it was never set up. While only the first CPU is, it
 * is the only one interrupts can come to: no APIC read. */
static struct pcpu *cur(void)
{
	uint64_t known = __atomic_load_n(&sh.known, __ATOMIC_ACQUIRE);
	int i;

	if (known <= 1)
		return known ? &pcpu[0] : 0;
	i = index_of(known, lapic_id());
	return i < 0 ? 0 : &pcpu[i];
}

static struct pcpu *cur_or_first(void)
{
	struct pcpu *p = cur();

	return p ? p : &pcpu[0];
}

unsigned bmprof_x86_cpu_index(void)
{
	uint64_t known = __atomic_load_n(&sh.known, __ATOMIC_ACQUIRE);
	int i = known ? index_of(known, lapic_id()) : -1;

	return i < 0 ? BMPROF_X86_NO_CPU : (unsigned)i;
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

unsigned bmprof_x86_ncpus(void)
{
	return bits_set(__atomic_load_n(&sh.up, __ATOMIC_ACQUIRE));
}

/* The PMU drivers' per-CPU state is indexed by this. */
unsigned pmu_x86_cpu(void) { return (unsigned)(cur_or_first() - pcpu); }

const struct bmprof_x86_info *bmprof_x86_info(void) { return &cur_or_first()->info; }
struct bmprof_cpu *bmprof_x86_cpu(void) { return &cur_or_first()->core; }
const struct bmprof_pmu *bmprof_x86_pmu(void) { return &cur_or_first()->pmu; }

const char *bmprof_x86_event_error(unsigned i)
{
	return i < BMPROF_X86_MAX_EVENTS ? sh.event_error[i] : 0;
}

/* (a << 32) / b, modulo 2^64, by long division: a 128-bit division would be a call into
 * libgcc. */
static uint64_t div_shl32(uint64_t a, uint64_t b)
{
	uint64_t q = a / b, r = a % b;

	for (int i = 0; i < 32; i++) {
		q <<= 1;
		if (r >= b - r) {       /* 2r >= b, without overflowing 2r */
			r -= b - r;
			q |= 1;
		} else {
			r <<= 1;
		}
	}
	return q;
}

/* Periods are drawn in TSC ticks. One-shot mode converts each to LAPIC ticks with a 32.32
 * fixed-point ratio, after picking the smallest divider that keeps a period within the
 * 32-bit initial count. */
static int set_rate(struct pcpu *c, uint32_t hz)
{
	static const uint8_t code[8] = { 0xB, 0x0, 0x1, 0x2, 0x3, 0x8, 0x9, 0xA };
	uint64_t p, lapic = sh.lapic_hz;
	unsigned shift = 0;

	c->info.hz = hz;
	if (!hz)
		return 0;
	p = sh.tsc_hz / hz;
	c->info.period_tsc = p;
	/* only a sampling timer is randomized: the PMU's re-arms draw from the same state */
	c->info.jitter_tsc = c->info.timer_samples && !external() ? p / 16 : 0;
	if (p < MIN_PERIOD)
		return -1;
	if (sh.timer == BMPROF_X86_TIMER_ONESHOT) {
		while (shift < 7 && (lapic >> shift) / hz > 0xFFFFFFFFull)
			shift++;
		if ((lapic >> shift) / hz > 0xFFFFFFFFull || (lapic >> shift) / hz < MIN_PERIOD)
			return -1;
		c->div = code[shift];
		c->tsc_to_lapic = div_shl32(lapic >> shift, sh.tsc_hz);
	}
	bmprof_set_period(&c->core, p, c->info.jitter_tsc);
	return 0;
}

static unsigned length(const char *s)
{
	unsigned n = 0;

	while (s && s[n])
		n++;
	return n;
}

/* Parse the specs for this CPU's vendor, probe this CPU's PMU and place the events. */
static void setup_pmu(struct pcpu *c, const struct bmprof_x86_config *cfg)
{
	uint8_t vendor = pmu_x86_vendor();
	const struct bmprof_pmu_ops *ops = vendor == BMPROF_VENDOR_INTEL ? &bmprof_pmu_intel :
					   vendor == BMPROF_VENDOR_AMD ? &bmprof_pmu_amd : 0;

	for (unsigned i = 0; i < cfg->nevents; i++) {
		const char *t = cfg->events[i];
		if (bmprof_pmu_parse_event(&c->pmu, t, length(t), vendor)) {
			c->info.bad_events |= 1u << i;
			if (c == pcpu)
				sh.event_error[i] = c->pmu.error ? c->pmu.error : "malformed";
		}
	}
	c->pmu_on = bmprof_pmu_setup(&c->pmu, ops, &c->core, cfg->mode) > 0;
	c->pmi_on = (uint8_t)bmprof_pmu_sampling(&c->pmu);
	if (c->pmi_on)
		lapic_write(LAPIC_LVT_PERF, LAPIC_LVT_MASKED | sh.lvtpc);
}

static int check_config(const struct bmprof_x86_config *cfg)
{
	if (cfg->hz > BMPROF_X86_MAX_HZ || cfg->vector < 32 || cfg->vector == 255)
		return -1;
	if (cfg->nevents > BMPROF_X86_MAX_EVENTS || cfg->mode > BMPROF_PMU_COUNT ||
	    cfg->pmi > BMPROF_X86_PMI_IRQ)
		return -1;
	if (cfg->pmi == BMPROF_X86_PMI_IRQ &&
	    (cfg->pmi_vector < 32 || cfg->pmi_vector == 255 || cfg->pmi_vector == cfg->vector))
		return -1;
	return 0;
}

/* Everything of CPU `index` that is its own, on that CPU; its APIC is enabled. */
static int setup_cpu(unsigned index)
{
	struct pcpu *c = &pcpu[index];
	const struct bmprof_x86_config *cfg = &sh.cfg;

	*c = (struct pcpu){ .apic_id = lapic_id() };
	if (index_of(sh.known, c->apic_id) >= 0)
		return BMPROF_X86_E_CPU;
	__atomic_or_fetch(&sh.known, 1ull << index, __ATOMIC_RELEASE);
	c->info.tsc_hz = sh.tsc_hz;
	c->info.lapic_hz = sh.lapic_hz;
	c->info.tsc_from_cpuid = sh.tsc_from_cpuid;
	c->info.x2apic = sh.x2apic;
	c->info.timer = sh.timer;
	c->info.pmi = cfg->pmi;
	if (!external())
		lapic_write(LAPIC_LVT_TIMER, LAPIC_LVT_MASKED | sh.lvt);
	if (bmprof_cpu_init(&c->core, (uint16_t)index, mem[index], sizeof mem[index],
			    BMPROF_X86_TABLE_ENTRIES, BMPROF_X86_OVF_ENTRIES,
			    x86_rdtsc() ^ 0x9E3779B97F4A7C15ull))
		return BMPROF_X86_E_MEMORY;
	if (cfg->nevents)
		setup_pmu(c, cfg);
	c->info.source = c->pmi_on ? BMPROF_SOURCE_PMU : BMPROF_SOURCE_TIMER;
	c->info.timer_samples = cfg->mode == BMPROF_PMU_SAMPLE && !c->pmi_on;
	/* with events on counters the timer also rotates groups, reads counting counters
	 * before they wrap, and drains the samples PMIs recorded (an NMI never drains) */
	c->info.timer_runs = c->info.timer_samples || c->pmu_on;
	if (set_rate(c, cfg->hz))
		return BMPROF_X86_E_CONFIG;
	__atomic_or_fetch(&sh.up, 1ull << index, __ATOMIC_RELEASE);
	return BMPROF_X86_OK;
}

static int setup_or_forget(unsigned index)
{
	int err = setup_cpu(index);

	if (err)
		__atomic_and_fetch(&sh.known, ~(1ull << index), __ATOMIC_RELEASE);
	return err;
}

int bmprof_x86_init(const struct bmprof_x86_config *cfg)
{
	int from_cpuid = 0;

	if (sh.up)
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
	sh.lvt = cfg->vector | (sh.timer == BMPROF_X86_TIMER_DEADLINE ?
				LAPIC_LVT_DEADLINE : LAPIC_LVT_ONESHOT);
	sh.lvtpc = cfg->pmi == BMPROF_X86_PMI_IRQ ? cfg->pmi_vector : LAPIC_LVT_NMI;
	pmu_access_init(cfg->msr_fixup);
	return setup_or_forget(0);
}

int bmprof_x86_init_cpu(unsigned cpu)
{
	if (cpu == 0 || cpu >= BMPROF_X86_MAX_CPUS || !(sh.up & 1) || (sh.up >> cpu & 1))
		return BMPROF_X86_E_CPU;
	lapic_enable_local();
	return setup_or_forget(cpu);
}

void bmprof_x86_set_core_hz(uint64_t hz) { sh.core_hz = hz; }

int bmprof_x86_announce(const uint8_t *build_id, uint8_t build_id_len)
{
	const struct pcpu *c = &pcpu[0];
	struct bmprof_hello h = {
		.arch = BMPROF_ARCH_X86_64,
		.source = c->info.source,
		.ncpus = (uint16_t)bmprof_x86_ncpus(),
		.timebase_hz = sh.tsc_hz,
		.load_bias = sh.cfg.load_bias,
		.build_id_len = build_id_len,
		.build_id = build_id,
		.core_hz = sh.core_hz,
	};
	int r;

	cpuinfo_fill(&h);
	r = bmprof_emit_hello(sh.cfg.out, &h);
	if (!r && c->info.timer_samples && c->info.hz)
		r = bmprof_emit_timer_event(sh.cfg.out, BMPROF_X86_TIMER_EVENT,
					    c->info.period_tsc, c->info.jitter_tsc);
	if (!r && sh.cfg.nevents)
		r = bmprof_pmu_announce(&c->pmu, sh.cfg.out);
	return r;
}

static int timer_on(const struct pcpu *c) { return c->info.timer_runs && c->info.hz; }

/* Deadlines advance by whole periods from the previous deadline, not from the time the
 * handler ran, so interrupt latency does not stretch the sampling interval (one-shot mode
 * gets TSC-deadline behaviour by converting the time left). A handler so late that the
 * next deadline has passed starts afresh from now. A timer that only ticks for the PMU
 * is not randomized. */
static void arm(struct pcpu *c)
{
	uint64_t now = x86_rdtsc(), n;
	int rnd = c->info.timer_samples;

	c->deadline += rnd ? bmprof_next_period(&c->core) : c->info.period_tsc;
	if ((int64_t)(c->deadline - now) <= 0)
		c->deadline = now + (rnd ? bmprof_next_period(&c->core) : c->info.period_tsc);
	if (sh.timer == BMPROF_X86_TIMER_DEADLINE) {
		x86_wrmsr(MSR_TSC_DEADLINE, c->deadline);
		return;
	}
	n = (uint64_t)(((unsigned __int128)(c->deadline - now) * c->tsc_to_lapic) >> 32);
	lapic_write(LAPIC_TIMER_INIT, n > 0xFFFFFFFFull ? 0xFFFFFFFFu : n ? (uint32_t)n : 1);
}

/* KVM's steal-time area: u64 steal (ns) at 0, u32 version at 8, odd while the
 * hypervisor writes (it writes while the vCPU does not run, so a retry is rare) */
static uint64_t steal_ns(const struct pcpu *c)
{
	const volatile uint32_t *version = (const volatile uint32_t *)(c->steal + 8);
	uint64_t ns = 0;

	if (!c->steal)
		return 0;
	for (int i = 0; i < 100; i++) {
		uint32_t v = *version;
		barrier();
		ns = *(const volatile uint64_t *)c->steal;
		barrier();
		if (!(v & 1) && v == *version)
			break;
	}
	return ns;
}

void bmprof_x86_set_steal(const volatile void *kvm_steal_time)
{
	struct pcpu *c = cur();

	if (c)
		c->steal = kvm_steal_time;
}

void bmprof_x86_start(void)
{
	struct pcpu *c = cur();
	uint64_t f;

	if (!c || c->running || (!timer_on(c) && !c->pmu_on))
		return;
	f = x86_save_flags_cli();
	c->running = 1;
	if (c->pmi_on)
		lapic_write(LAPIC_LVT_PERF, sh.lvtpc);
	if (c->pmu_on)
		bmprof_pmu_start(&c->pmu, x86_rdtsc());
	c->steal_mark = steal_ns(c);
	c->steal_outside = 0;
	bmprof_timing_start(&c->tm, x86_rdtsc());
	bmprof_set_flush_interval(&c->core, sh.tsc_hz / 1000 * sh.cfg.flush_ms, c->tm.started);
	if (timer_on(c) && !external()) {
		lapic_write(LAPIC_TIMER_DIV, c->div);
		lapic_write(LAPIC_LVT_TIMER, sh.lvt);
		/* The SDM orders an xAPIC LVT write before a TSC_DEADLINE write with MFENCE. */
		__asm__ volatile("mfence" : : : "memory");
		c->deadline = x86_rdtsc();
		arm(c);
	}
	x86_restore_flags(f);
}

void bmprof_x86_stop(void)
{
	struct pcpu *c = cur();
	uint64_t f;

	if (!c)
		return;
	f = x86_save_flags_cli();
	if (c->running)
		c->steal_outside += steal_ns(c) - c->steal_mark;
	bmprof_timing_stop(&c->tm, x86_rdtsc());
	c->running = 0;
	barrier();
	if (!external()) {
		lapic_write(LAPIC_LVT_TIMER, LAPIC_LVT_MASKED | sh.lvt);
		if (sh.timer == BMPROF_X86_TIMER_DEADLINE)
			x86_wrmsr(MSR_TSC_DEADLINE, 0);
		else
			lapic_write(LAPIC_TIMER_INIT, 0);
	}
	if (c->pmi_on)
		lapic_write(LAPIC_LVT_PERF, LAPIC_LVT_MASKED | sh.lvtpc);
	if (c->pmu_on)
		bmprof_pmu_stop(&c->pmu, x86_rdtsc());
	x86_restore_flags(f);
}

/* Record the overflowed counters' samples, re-arm, acknowledge; the CPU masked the LVT
 * entry when it delivered the PMI. After bmprof_x86_stop() this only acknowledges. */
static int handle_pmi(struct pcpu *c, uint64_t rip)
{
	uint64_t m = bmprof_pmu_overflow(&c->pmu, rip);

	if (c->running)
		lapic_write(LAPIC_LVT_PERF, sh.lvtpc);
	if (m)
		c->info.pmis++;
	else
		c->info.nmis_other++;
	return m != 0;
}

int bmprof_x86_nmi(uint64_t rip)
{
	struct pcpu *c = cur();

	if (!c)
		return 0;
	if (!c->pmi_on || sh.cfg.pmi != BMPROF_X86_PMI_NMI) {
		c->info.nmis_other++;
		return 0;
	}
	if (c->in_timer) {
		c->deferred_rip = rip;
		barrier();
		c->deferred = 1;
		c->info.pmis_deferred++;
		return 1;
	}
	return handle_pmi(c, rip);
}

void bmprof_x86_pmi(uint64_t rip)
{
	struct pcpu *c = cur();

	if (c && c->pmi_on)
		handle_pmi(c, rip);
	lapic_eoi();
}

/* An interrupt already pending when the timer was stopped still arrives: it is only
 * acknowledged. A PMI NMI that came while this ran (it found in_timer set) is handled
 * before returning; one that comes after in_timer is cleared handles itself. */
static void tick(struct pcpu *c, uint64_t rip)
{
	c->in_timer = 1;
	barrier();
	if (c->running) {
		if (c->info.timer_samples && !c->quiet)
			bmprof_record(&c->core, rip, BMPROF_X86_TIMER_EVENT);
		if (c->pmu_on)
			bmprof_pmu_tick(&c->pmu, x86_rdtsc());
		if (!external())
			arm(c);
	}
	if (!external())
		lapic_eoi();   /* an external tick's owner sends its own */
	for (;;) {
		barrier();
		c->in_timer = 0;
		barrier();
		if (!c->deferred)
			break;
		c->in_timer = 1;
		c->deferred = 0;
		barrier();
		handle_pmi(c, c->deferred_rip);
	}
}

void bmprof_x86_tick(uint64_t rip)
{
	struct pcpu *c = cur();

	if (c)
		tick(c, rip);
	else if (!external())
		lapic_eoi();
}

/* Full buffers to drain, or the periodic flush due. */
static int work(const struct pcpu *c)
{
	return bmprof_drain_pending(&c->core) ||
	       (c->core.flush_every && bmprof_flush_due(&c->core, x86_rdtsc()));
}

/* A drain of this CPU's full buffers, or its periodic flush, inside the integrator's
 * out_begin/out_end. */
static void drain(struct pcpu *c)
{
	if (sh.cfg.out_begin && sh.cfg.out_begin())
		return;
	bmprof_service(&c->core, sh.cfg.out, x86_rdtsc());
	if (sh.cfg.out_end)
		sh.cfg.out_end();
}

/* Runs after the EOI, so timer interrupts nest into the drain; the nested ones see in_bh
 * and return at once, which bounds the stack at two interrupt frames. */
static void irq_exit(struct pcpu *c)
{
	if (c->in_bh || !sh.cfg.out || !work(c))
		return;
	c->in_bh = 1;
	x86_sti();
	drain(c);
	x86_cli();
	c->in_bh = 0;
}

void bmprof_x86_irq_exit(void)
{
	struct pcpu *c = cur();

	if (c)
		irq_exit(c);
}

/* bmprof_x86_timer_entry and bmprof_x86_pmi_entry: the handler and the interrupt-exit
 * drain with one look-up of the CPU.
 *
 * The timer's handler times itself, from the deadline it answers (the interrupt's
 * delivery is not the workload's time either: under a hypervisor it can cost more than
 * the handler) or, if that is not within a period before, from its entry, to its exit.
 * Only the outermost one: a tick nested in its drain is inside that time already. With
 * steal time, what was stolen since the last exit is the workload's loss, and when there
 * was some, the time since the deadline may be it: the handler then times from entry. */
void bmprof_x86_timer_irq(uint64_t rip)
{
	struct pcpu *c = cur();
	uint64_t t0 = x86_rdtsc(), due;
	int outer;

	if (!c) {
		lapic_eoi();
		return;
	}
	due = c->deadline;
	outer = !c->in_bh;
	if (outer && c->steal) {
		uint64_t s = steal_ns(c);
		/* stolen since the last exit: the time since the deadline may be that */
		if (s != c->steal_mark) {
			c->steal_outside += s - c->steal_mark;
			due = t0;
		}
	}
	t0 = bmprof_timing_from(due, t0, c->info.period_tsc);
	tick(c, rip);
	irq_exit(c);
	if (outer) {
		uint64_t t = x86_rdtsc() - t0;
		c->steal_mark = steal_ns(c);
		bmprof_timing_handled(&c->tm, t);
	}
}

/* The interrupt probe: the timer runs as it will while sampling, its handler times itself
 * and counts, and nothing is recorded. Only when the timer samples alone and is this
 * runtime's own. Stopping it forgets the times, so sampling starts from zero. */
int bmprof_x86_probe(int on)
{
	struct pcpu *c = cur();

	if (!c || !c->info.timer_samples || c->pmu_on || external() || !timer_on(c))
		return -1;
	if (on) {
		if (c->running)
			return -1;
		c->quiet = 1;
		bmprof_x86_start();
		return 0;
	}
	bmprof_x86_stop();
	c->quiet = 0;
	bmprof_timing_reset(&c->tm);
	return 0;
}

void bmprof_x86_irq_stats(unsigned cpu, uint64_t *irqs, uint64_t *last_ticks)
{
	const struct pcpu *c = &pcpu[cpu < BMPROF_X86_MAX_CPUS ? cpu : 0];

	*irqs = c->tm.irqs;
	barrier();
	*last_ticks = c->tm.last_handler;
}

void bmprof_x86_set_untimed(unsigned cpu, int64_t ticks)
{
	if (cpu < BMPROF_X86_MAX_CPUS)
		pcpu[cpu].tm.untimed = ticks;
}

void bmprof_x86_pmi_irq(uint64_t rip)
{
	struct pcpu *c = cur();

	if (c && c->pmi_on)
		handle_pmi(c, rip);
	lapic_eoi();
	if (c)
		irq_exit(c);
}

void bmprof_x86_poll(void)
{
	struct pcpu *c = cur();

	if (c && sh.cfg.out && work(c))
		drain(c);
}


void bmprof_x86_flush_cpu(unsigned cpu)
{
	struct pcpu *c;

	if (cpu >= BMPROF_X86_MAX_CPUS || !(sh.up >> cpu & 1) || !sh.cfg.out)
		return;
	c = &pcpu[cpu];
	/* known only when this runtime's timer entry sampled: it timed its handler */
	if (c->info.timer_samples && !external()) {
		/* ns to ticks without a 128-bit division (no libgcc) */
		uint64_t ns = c->steal_outside, stolen = ns / 1000000000 * sh.tsc_hz +
			ns % 1000000000 * sh.tsc_hz / 1000000000;
		c->core.sampled_ticks = bmprof_timing_sampled(&c->tm, stolen);
		c->core.enabled_ticks = c->tm.enabled;
	}
	if (c->pmu_on)
		bmprof_pmu_emit_counts(&c->pmu, sh.cfg.out);
	bmprof_flush(&c->core, sh.cfg.out);
}

void bmprof_x86_flush(void)
{
	struct pcpu *c = cur();

	if (!c)
		return;
	bmprof_x86_stop();
	bmprof_x86_flush_cpu((unsigned)(c - pcpu));
}
