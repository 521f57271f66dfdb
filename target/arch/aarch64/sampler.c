/* The AArch64 sampler for one CPU: setup, the generic-timer source with randomized
 * deadlines, the PMUv3 overflow source with randomized reloads, the interrupt paths, and
 * the drain at interrupt exit. */
#include "bmprof_aarch64.h"
#include "wire.h"
#include "a64.h"

#define MIN_TICKS 64    /* timer ticks; a shorter period would only measure the handler */
#define NO_EVENT 0xFF
#define SPURIOUS_FIRST 1020u
#define SPURIOUS_LAST 1023u

/* The table is rounded up to a power of two; size the static memory at compile time. */
#define SMEAR1(v) ((v) | (v) >> 1)
#define SMEAR2(v) (SMEAR1(v) | SMEAR1(v) >> 2)
#define SMEAR4(v) (SMEAR2(v) | SMEAR2(v) >> 4)
#define SMEAR8(v) (SMEAR4(v) | SMEAR4(v) >> 8)
#define SMEAR16(v) (SMEAR8(v) | SMEAR8(v) >> 16)
#define POW2_UP(x) (SMEAR16((unsigned long)(x) - 1) + 1)
#define MEM_BYTES ((POW2_UP(BMPROF_A64_TABLE_ENTRIES) + 2ul * BMPROF_A64_OVF_ENTRIES) * \
		   sizeof(struct bmprof_entry) + 4096)

static struct bmprof_cpu cpu0;
static uint8_t mem[MEM_BYTES] __attribute__((aligned(BMPROF_CACHE_LINE)));

static struct {
	struct bmprof_a64_config cfg;
	struct bmprof_a64_info info;
	struct bmprof_a64_event ev[BMPROF_A64_MAX_EVENTS];
	char names[BMPROF_A64_MAX_EVENTS][8];  /* default names */
	uint8_t counter[BMPROF_A64_MAX_EVENTS]; /* event -> counter index */
	uint8_t event_of[32];                   /* counter index -> event, or NO_EVENT */
	uint32_t mask;                          /* counters in use */
	uint64_t deadline;                      /* timer: the count the armed period ends at */
	volatile int running;
	volatile int in_bh;
} st;

static const char *const errors[] = {
	"ok",
	"bad sampler configuration: frequency above 100000 Hz or too high for the timer, a "
	"PMU period out of range, or two events with one id",
	"events were requested but the CPU has no PMUv3 (ID_AA64DFR0_EL1.PMUVer)",
	"more events than PMU counters (PMCR_EL0.N event counters plus one cycle counter)",
	"no usable GIC of the requested version at the given addresses",
	"CNTFRQ_EL0 is 0: the firmware did not set the generic timer's frequency",
	"the core rejected the table sizes: check BMPROF_A64_TABLE_ENTRIES/_OVF_ENTRIES",
};

const char *bmprof_a64_strerror(int err)
{
	if (err > 0 || -err >= (int)(sizeof errors / sizeof errors[0]))
		return "unknown error";
	return errors[-err];
}

const struct bmprof_a64_info *bmprof_a64_info(void) { return &st.info; }
struct bmprof_cpu *bmprof_a64_cpu(void) { return &cpu0; }
const struct bmprof_a64_event *bmprof_a64_events(void) { return st.ev; }

static int implemented(uint16_t number)
{
	if (number < 0x40)
		return st.info.pmceid[0] >> number & 1;
	if (number >= 0x4000 && number < 0x4040)
		return st.info.pmceid[1] >> (number - 0x4000) & 1;
	return 1;   /* implementation defined: PMCEID does not say */
}

static void default_name(char out[8], const struct bmprof_a64_event *e)
{
	static const char hex[] = "0123456789abcdef";
	unsigned n = 0, digits = e->number > 0xFF ? 4 : 2;

	out[n++] = 'r';
	while (digits--)
		out[n++] = hex[e->number >> 4 * digits & 0xF];
	out[n] = 0;
}

/* Give each event a counter: the cycle counter, or the next free event counter. */
static int assign_counters(void)
{
	uint32_t next = 0;

	for (unsigned i = 0; i < 32; i++)
		st.event_of[i] = NO_EVENT;
	for (unsigned i = 0; i < st.info.nevents; i++) {
		struct bmprof_a64_event *e = &st.ev[i];
		uint32_t idx = e->cycle_counter ? PMU_CYCLE_IDX : next++;
		if (idx != PMU_CYCLE_IDX && idx >= st.info.pmu_counters)
			return BMPROF_A64_E_COUNTERS;
		if (st.event_of[idx] != NO_EVENT)
			return BMPROF_A64_E_COUNTERS;
		if (e->period < BMPROF_A64_MIN_PERIOD ||
		    (idx != PMU_CYCLE_IDX && e->period > BMPROF_A64_MAX_PERIOD32))
			return BMPROF_A64_E_CONFIG;
		for (unsigned j = 0; j < i; j++)
			if (st.ev[j].id == e->id)
				return BMPROF_A64_E_CONFIG;
		if (!e->cycle_counter && !implemented(e->number))
			st.info.unsupported |= 1u << i;
		if (!e->name) {
			default_name(st.names[i], e);
			e->name = e->cycle_counter ? "cycles" : st.names[i];
		}
		st.counter[i] = (uint8_t)idx;
		st.event_of[idx] = (uint8_t)i;
		st.mask |= 1u << idx;
	}
	return BMPROF_A64_OK;
}

static int probe(const struct bmprof_a64_config *cfg)
{
	uint8_t v = pmu_version();

	st.info.cntfrq = a64_read(cntfrq_el0) & 0xFFFFFFFFu;
	st.info.midr = (uint32_t)a64_read(midr_el1);
	st.info.timer = cfg->timer;
	st.info.timer_intid = cfg->timer == BMPROF_A64_TIMER_PHYSICAL ? BMPROF_A64_INTID_PTIMER :
			      BMPROF_A64_INTID_VTIMER;
	st.info.pmu_intid = cfg->pmu_intid ? cfg->pmu_intid : BMPROF_A64_INTID_PMU;
	st.info.pmu_version = v;
	if (v != 0 && v != 0xF) {
		st.info.pmu_counters = (uint8_t)pmu_counters();
		pmu_events_implemented(st.info.pmceid);
	}
	if (cfg->hz > BMPROF_A64_MAX_HZ || cfg->timer > BMPROF_A64_TIMER_PHYSICAL)
		return BMPROF_A64_E_CONFIG;
	if (cfg->nevents > BMPROF_A64_MAX_EVENTS)
		return BMPROF_A64_E_COUNTERS;
	if (!st.info.cntfrq)
		return BMPROF_A64_E_TIMER;
	if (!cfg->nevents)
		return BMPROF_A64_OK;
	if (v == 0 || v == 0xF)
		return BMPROF_A64_E_NOPMU;
	st.info.source = BMPROF_SOURCE_PMU;
	st.info.nevents = cfg->nevents;
	for (unsigned i = 0; i < cfg->nevents; i++)
		st.ev[i] = cfg->events[i];
	return assign_counters();
}

static int set_rate(uint32_t hz)
{
	uint64_t p;

	st.info.hz = hz;
	if (!hz)
		return 0;
	p = st.info.cntfrq / hz;
	if (p < MIN_TICKS)
		return -1;
	st.info.period_ticks = p;
	st.info.jitter_ticks = p / 16;
	bmprof_set_period(&cpu0, p, p / 16);
	return 0;
}

int bmprof_a64_init(const struct bmprof_a64_config *cfg)
{
	int err, gic = BMPROF_A64_GIC_NONE;

	st = (__typeof__(st)){ 0 };
	st.cfg = *cfg;
	st.cfg.events = 0;
	st.info.source = BMPROF_SOURCE_TIMER;
	st.info.gic = BMPROF_A64_GIC_NONE;
	err = probe(cfg);
	if (err)
		return err;
	if (cfg->gic != BMPROF_A64_GIC_NONE) {
		gic = gic_setup(cfg->gic, cfg->gicd ? cfg->gicd : BMPROF_A64_VIRT_GICD,
				cfg->gicc ? cfg->gicc : BMPROF_A64_VIRT_GICC,
				cfg->gicr ? cfg->gicr : BMPROF_A64_VIRT_GICR);
		if (gic < 0)
			return BMPROF_A64_E_GIC;
	}
	st.info.gic = (uint8_t)gic;
	if (bmprof_cpu_init(&cpu0, 0, mem, sizeof mem, BMPROF_A64_TABLE_ENTRIES,
			    BMPROF_A64_OVF_ENTRIES, timer_now(0) ^ 0x9E3779B97F4A7C15ull))
		return BMPROF_A64_E_MEMORY;
	if (st.info.source == BMPROF_SOURCE_TIMER) {
		timer_off(st.info.timer);
		return set_rate(cfg->hz) ? BMPROF_A64_E_CONFIG : BMPROF_A64_OK;
	}
	pmu_disable(st.mask);
	for (unsigned i = 0; i < st.info.nevents; i++)
		pmu_program(st.counter[i], st.ev[i].number);
	return BMPROF_A64_OK;
}

int bmprof_a64_announce(const uint8_t *build_id, uint8_t build_id_len)
{
	struct bmprof_hello h = {
		.arch = BMPROF_ARCH_AARCH64,
		.source = st.info.source,
		.ncpus = 1,
		.timebase_hz = st.info.cntfrq,
		.build_id_len = build_id_len,
		.build_id = build_id,
	};
	struct bmprof_event_desc e = {
		.id = BMPROF_A64_TIMER_EVENT,
		.source = BMPROF_SOURCE_TIMER,
		.flags = st.info.jitter_ticks ? BMPROF_EVENT_RANDOMIZED : 0,
		.period = st.info.period_ticks,
		.jitter = st.info.jitter_ticks,
		.name = "timer",
	};
	int r;

	cpuinfo_fill(&h);
	r = bmprof_emit_hello(st.cfg.out, &h);
	if (st.info.source == BMPROF_SOURCE_TIMER)
		return r ? r : bmprof_emit_event(st.cfg.out, &e);
	for (unsigned i = 0; i < st.info.nevents && !r; i++) {
		const struct bmprof_a64_event *ev = &st.ev[i];
		e = (struct bmprof_event_desc){
			.id = ev->id,
			.source = ev->cycle_counter ? BMPROF_SOURCE_PMU_FIXED : BMPROF_SOURCE_PMU,
			.flags = BMPROF_EVENT_RANDOMIZED,
			.encoding = ev->cycle_counter ? BMPROF_A64_CPU_CYCLES : ev->number,
			.period = ev->period,
			.jitter = ev->period / 16,
			.name = ev->name,
		};
		r = bmprof_emit_event(st.cfg.out, &e);
	}
	return r;
}

/* Deadlines advance by whole randomized periods from the previous deadline, not from the
 * time the handler ran, so interrupt latency does not stretch the sampling interval. A
 * handler so late that the next deadline has passed starts afresh from now. */
static void arm_timer(void)
{
	uint64_t now = timer_now(st.info.timer);

	st.deadline += bmprof_next_period(&cpu0);
	if ((int64_t)(st.deadline - now) <= 0)
		st.deadline = now + bmprof_next_period(&cpu0);
	timer_set(st.info.timer, st.deadline);
}

/* The next period of event i, uniform in [period - period/16, period]. The core keeps one
 * period per CPU, so it is set for the event before each draw. */
static uint64_t next_period(unsigned i)
{
	bmprof_set_period(&cpu0, st.ev[i].period, st.ev[i].period / 16);
	return bmprof_next_period(&cpu0);
}

/* After an overflow the counter holds the events counted since; they count toward the
 * next period (as deadlines do for the timer) unless they already exceed it. */
static void reload(unsigned i, int fresh)
{
	uint32_t idx = st.counter[i];
	uint64_t p = next_period(i), since = fresh ? 0 : pmu_read(idx);

	pmu_write(idx, since < p ? since - p : 0 - p);
}

void bmprof_a64_start(void)
{
	uint64_t f;
	uint32_t intid;

	if (st.running || (st.info.source == BMPROF_SOURCE_TIMER && !st.info.hz))
		return;
	f = a64_irq_save();
	st.running = 1;
	if (st.info.source == BMPROF_SOURCE_TIMER) {
		intid = st.info.timer_intid;
		st.deadline = timer_now(st.info.timer);
		arm_timer();
	} else {
		intid = st.info.pmu_intid;
		for (unsigned i = 0; i < st.info.nevents; i++)
			reload(i, 1);
		pmu_enable(st.mask);
	}
	if (st.info.gic != BMPROF_A64_GIC_NONE)
		gic_ppi(intid, 1);
	a64_irq_restore(f);
}

void bmprof_a64_stop(void)
{
	uint64_t f = a64_irq_save();

	st.running = 0;
	if (st.info.source == BMPROF_SOURCE_TIMER)
		timer_off(st.info.timer);
	else
		pmu_disable(st.mask);
	if (st.info.gic != BMPROF_A64_GIC_NONE)
		gic_ppi(st.info.source == BMPROF_SOURCE_TIMER ? st.info.timer_intid :
			st.info.pmu_intid, 0);
	a64_irq_restore(f);
}

/* An interrupt already pending when sampling was stopped still arrives: the (level)
 * source is taken down and nothing is recorded. */
void bmprof_a64_tick(uint64_t elr)
{
	if (!st.running) {
		timer_off(st.info.timer);
		return;
	}
	bmprof_record(&cpu0, elr, BMPROF_A64_TIMER_EVENT);
	arm_timer();
}

void bmprof_a64_pmu_irq(uint64_t elr)
{
	uint32_t ovf = pmu_overflowed(st.mask);

	if (!st.running)
		return;
	while (ovf) {
		unsigned idx = (unsigned)__builtin_ctz(ovf), i = st.event_of[idx];
		ovf &= ovf - 1;
		bmprof_record(&cpu0, elr, st.ev[i].id);
		reload(i, 0);
	}
}

int bmprof_a64_handle(uint32_t intid, uint64_t elr)
{
	if (st.info.source == BMPROF_SOURCE_TIMER && intid == st.info.timer_intid)
		bmprof_a64_tick(elr);
	else if (st.info.source == BMPROF_SOURCE_PMU && intid == st.info.pmu_intid)
		bmprof_a64_pmu_irq(elr);
	else
		return 0;
	return 1;
}

void bmprof_a64_irq(uint64_t elr)
{
	uint32_t intid;

	if (st.info.gic == BMPROF_A64_GIC_NONE)
		return;
	intid = gic_ack();
	if (intid >= SPURIOUS_FIRST && intid <= SPURIOUS_LAST)
		return;
	if (!bmprof_a64_handle(intid, elr))
		st.info.stray++;
	gic_eoi(intid);
}

/* Runs after the EOI, so sampling interrupts nest into the drain; the nested ones see
 * in_bh and return at once, which bounds the stack at two interrupt frames. */
void bmprof_a64_irq_exit(void)
{
	if (st.in_bh || !st.cfg.out || !bmprof_drain_pending(&cpu0))
		return;
	st.in_bh = 1;
	a64_irq_enable();
	bmprof_drain(&cpu0, st.cfg.out);
	a64_irq_disable();
	st.in_bh = 0;
}

void bmprof_a64_poll(void)
{
	if (st.cfg.out && bmprof_drain_pending(&cpu0))
		bmprof_drain(&cpu0, st.cfg.out);
}

void bmprof_a64_flush(void)
{
	bmprof_a64_stop();
	if (st.cfg.out)
		bmprof_flush(&cpu0, st.cfg.out);
}
