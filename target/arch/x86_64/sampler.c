/* The LAPIC-timer sampler for one CPU: setup, arming with randomized periods, the
 * interrupt path, and the drain at interrupt exit. */
#include "bmprof_x86_64.h"
#include "wire.h"
#include "x86.h"

#define MSR_TSC_DEADLINE 0x6E0
#define MIN_PERIOD 64   /* timer ticks; a shorter period would only measure the handler */

/* The table is rounded up to a power of two; size the static memory at compile time. */
#define SMEAR1(v) ((v) | (v) >> 1)
#define SMEAR2(v) (SMEAR1(v) | SMEAR1(v) >> 2)
#define SMEAR4(v) (SMEAR2(v) | SMEAR2(v) >> 4)
#define SMEAR8(v) (SMEAR4(v) | SMEAR4(v) >> 8)
#define SMEAR16(v) (SMEAR8(v) | SMEAR8(v) >> 16)
#define POW2_UP(x) (SMEAR16((unsigned long)(x) - 1) + 1)
#define MEM_BYTES ((POW2_UP(BMPROF_X86_TABLE_ENTRIES) + 2ul * BMPROF_X86_OVF_ENTRIES) * \
		   sizeof(struct bmprof_entry) + 4096)

static struct bmprof_cpu cpu0;
static uint8_t mem[MEM_BYTES] __attribute__((aligned(BMPROF_CACHE_LINE)));

static struct {
	struct bmprof_x86_config cfg;
	struct bmprof_x86_info info;
	uint32_t lvt;            /* LVT timer value when armed: mode | vector */
	uint32_t div;            /* divide configuration (one-shot) */
	uint64_t tsc_to_lapic;   /* LAPIC ticks per TSC tick, 32.32 fixed point (one-shot) */
	uint64_t deadline;       /* TSC value the armed period ends at */
	volatile int running;
	volatile int in_bh;
} st;

static const char *const errors[] = {
	"ok",
	"the CPU has no local APIC (CPUID.1:EDX[9] is clear)",
	"timer calibration failed: PIT channel 2 or the LAPIC timer does not count",
	"bad sampler configuration: frequency above 100000 Hz or too high for the timer, "
	"or vector outside 32..254",
	"the core rejected the table sizes: check BMPROF_X86_TABLE_ENTRIES/_OVF_ENTRIES",
};

const char *bmprof_x86_strerror(int err)
{
	if (err > 0 || -err >= (int)(sizeof errors / sizeof errors[0]))
		return "unknown error";
	return errors[-err];
}

const struct bmprof_x86_info *bmprof_x86_info(void) { return &st.info; }
struct bmprof_cpu *bmprof_x86_cpu(void) { return &cpu0; }

/* Periods are drawn in TSC ticks. One-shot mode converts each to LAPIC ticks with a 32.32
 * fixed-point ratio, after picking the smallest divider that keeps a period within the
 * 32-bit initial count. */
static int set_rate(uint32_t hz)
{
	static const uint8_t code[8] = { 0xB, 0x0, 0x1, 0x2, 0x3, 0x8, 0x9, 0xA };
	uint64_t p, lapic = st.info.lapic_hz;
	unsigned shift = 0;

	st.info.hz = hz;
	if (!hz)
		return 0;
	p = st.info.tsc_hz / hz;
	st.info.period_tsc = p;
	st.info.jitter_tsc = p / 16;
	if (p < MIN_PERIOD)
		return -1;
	if (st.info.timer == BMPROF_X86_TIMER_ONESHOT) {
		while (shift < 7 && (lapic >> shift) / hz > 0xFFFFFFFFull)
			shift++;
		if ((lapic >> shift) / hz > 0xFFFFFFFFull || (lapic >> shift) / hz < MIN_PERIOD)
			return -1;
		st.div = code[shift];
		st.tsc_to_lapic = (uint64_t)(((unsigned __int128)(lapic >> shift) << 32) /
					     st.info.tsc_hz);
	}
	bmprof_set_period(&cpu0, p, p / 16);
	return 0;
}

int bmprof_x86_init(const struct bmprof_x86_config *cfg)
{
	int from_cpuid = 0;

	st.cfg = *cfg;
	if (cfg->hz > BMPROF_X86_MAX_HZ || cfg->vector < 32 || cfg->vector == 255)
		return BMPROF_X86_E_CONFIG;
	if (!cpu_has_apic())
		return BMPROF_X86_E_NOAPIC;
	st.info.x2apic = (uint8_t)lapic_setup_at(cfg->lapic_va);
	if (calibrate(&st.info.tsc_hz, &st.info.lapic_hz, &from_cpuid))
		return BMPROF_X86_E_CALIBRATE;
	st.info.tsc_from_cpuid = (uint8_t)from_cpuid;
	st.info.timer = cfg->timer != BMPROF_X86_TIMER_ONESHOT && cpu_has_tsc_deadline() ?
		BMPROF_X86_TIMER_DEADLINE : BMPROF_X86_TIMER_ONESHOT;
	st.lvt = cfg->vector | (st.info.timer == BMPROF_X86_TIMER_DEADLINE ?
				LAPIC_LVT_DEADLINE : LAPIC_LVT_ONESHOT);
	lapic_write(LAPIC_LVT_TIMER, LAPIC_LVT_MASKED | st.lvt);
	if (bmprof_cpu_init(&cpu0, 0, mem, sizeof mem, BMPROF_X86_TABLE_ENTRIES,
			    BMPROF_X86_OVF_ENTRIES, x86_rdtsc() ^ 0x9E3779B97F4A7C15ull))
		return BMPROF_X86_E_MEMORY;
	if (set_rate(cfg->hz))
		return BMPROF_X86_E_CONFIG;
	return BMPROF_X86_OK;
}

int bmprof_x86_announce(const uint8_t *build_id, uint8_t build_id_len)
{
	struct bmprof_hello h = {
		.arch = BMPROF_ARCH_X86_64,
		.source = BMPROF_SOURCE_TIMER,
		.ncpus = 1,
		.timebase_hz = st.info.tsc_hz,
		.build_id_len = build_id_len,
		.build_id = build_id,
	};
	struct bmprof_event_desc e = {
		.id = BMPROF_X86_TIMER_EVENT,
		.source = BMPROF_SOURCE_TIMER,
		.flags = st.info.jitter_tsc ? BMPROF_EVENT_RANDOMIZED : 0,
		.period = st.info.period_tsc,
		.jitter = st.info.jitter_tsc,
		.name = "timer",
	};
	int r;

	cpuinfo_fill(&h);
	r = bmprof_emit_hello(st.cfg.out, &h);
	return r ? r : bmprof_emit_event(st.cfg.out, &e);
}

/* Deadlines advance by whole randomized periods from the previous deadline, not from the
 * time the handler ran, so interrupt latency does not stretch the sampling interval (one-
 * shot mode gets TSC-deadline behaviour by converting the time left). A handler so late
 * that the next deadline has passed starts afresh from now. */
static void arm(void)
{
	uint64_t now = x86_rdtsc(), n;

	st.deadline += bmprof_next_period(&cpu0);
	if ((int64_t)(st.deadline - now) <= 0)
		st.deadline = now + bmprof_next_period(&cpu0);
	if (st.info.timer == BMPROF_X86_TIMER_DEADLINE) {
		x86_wrmsr(MSR_TSC_DEADLINE, st.deadline);
		return;
	}
	n = (uint64_t)(((unsigned __int128)(st.deadline - now) * st.tsc_to_lapic) >> 32);
	lapic_write(LAPIC_TIMER_INIT, n > 0xFFFFFFFFull ? 0xFFFFFFFFu : n ? (uint32_t)n : 1);
}

void bmprof_x86_start(void)
{
	uint64_t f;

	if (!st.info.hz || st.running)
		return;
	f = x86_save_flags_cli();
	lapic_write(LAPIC_TIMER_DIV, st.div);
	lapic_write(LAPIC_LVT_TIMER, st.lvt);
	/* The SDM orders an xAPIC LVT write before a TSC_DEADLINE write with MFENCE. */
	__asm__ volatile("mfence" : : : "memory");
	st.running = 1;
	st.deadline = x86_rdtsc();
	arm();
	x86_restore_flags(f);
}

void bmprof_x86_stop(void)
{
	uint64_t f = x86_save_flags_cli();

	st.running = 0;
	lapic_write(LAPIC_LVT_TIMER, LAPIC_LVT_MASKED | st.lvt);
	if (st.info.timer == BMPROF_X86_TIMER_DEADLINE)
		x86_wrmsr(MSR_TSC_DEADLINE, 0);
	else
		lapic_write(LAPIC_TIMER_INIT, 0);
	x86_restore_flags(f);
}

/* An interrupt already pending when the timer was stopped still arrives: it is only
 * acknowledged. */
void bmprof_x86_tick(uint64_t rip)
{
	if (st.running) {
		bmprof_record(&cpu0, rip, BMPROF_X86_TIMER_EVENT);
		arm();
	}
	lapic_eoi();
}

/* Runs after the EOI, so timer interrupts nest into the drain; the nested ones see in_bh
 * and return at once, which bounds the stack at two interrupt frames. */
void bmprof_x86_irq_exit(void)
{
	if (st.in_bh || !st.cfg.out || !bmprof_drain_pending(&cpu0))
		return;
	st.in_bh = 1;
	x86_sti();
	bmprof_drain(&cpu0, st.cfg.out);
	x86_cli();
	st.in_bh = 0;
}

void bmprof_x86_poll(void)
{
	if (st.cfg.out && bmprof_drain_pending(&cpu0))
		bmprof_drain(&cpu0, st.cfg.out);
}

void bmprof_x86_flush(void)
{
	bmprof_x86_stop();
	if (st.cfg.out)
		bmprof_flush(&cpu0, st.cfg.out);
}
