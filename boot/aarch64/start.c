/* bmrt_start: from the configuration to main(), with the MMU on, on the program stack. */
#include "bmrt.h"
#include "rt.h"

#ifndef BMRT_DEFAULT_FREQ
#define BMRT_DEFAULT_FREQ BMPROF_A64_DEFAULT_HZ
#endif

int main(void);
_Noreturn void bmrt_start(void);

uint64_t bm_cycles_hz(void) { return bmprof_a64_info()->cntfrq; }

_Noreturn static void panic(const char *why)
{
	struct bmprof_end e = { .exit_code = -1, .reason = BMPROF_END_PANIC };

	bm_printf("bmprof: cannot sample: %s\n", why);
	bmprof_emit_end(&bmrt_out, &e);
	bmrt_poweroff(BMRT_EXIT_PANIC);
}

/* Keep the events that fit: the first on the cycle counter and the first N others. */
static void fit_counters(struct bmrt_config *rc, unsigned n)
{
	unsigned kept = 0, others = 0, cycles = 0;

	for (unsigned i = 0; i < rc->nevents; i++) {
		const struct bmprof_a64_event *e = &rc->events[i];
		if (e->cycle_counter ? cycles++ == 0 : others++ < n)
			rc->events[kept++] = *e;
		else
			bm_printf("bmprof: config: event id %u: no counter left (this PMU has %u "
				  "event counters and one cycle counter); dropped\n", e->id, n);
	}
	rc->nevents = (uint8_t)kept;
}

static int init(struct bmrt_config *rc)
{
	struct bmprof_a64_config c = {
		.hz = rc->freq, .timer = rc->timer, .gic = BMPROF_A64_GIC_AUTO,
		.nevents = rc->nevents, .events = rc->events, .out = &bmrt_out,
	};

	return bmprof_a64_init(&c);
}

static void setup(struct bmrt_config *rc)
{
	const struct bmprof_a64_info *info = bmprof_a64_info();
	int err = init(rc);

	if (err == BMPROF_A64_E_NOPMU) {
		bm_printf("bmprof: config: event: this CPU has no PMUv3 (ID_AA64DFR0_EL1.PMUVer "
			  "= %u); sampling with the timer at %u Hz\n", info->pmu_version, rc->freq);
		rc->nevents = 0;
		err = init(rc);
	} else if (err == BMPROF_A64_E_COUNTERS) {
		fit_counters(rc, info->pmu_counters);
		err = init(rc);
	}
	if (err)
		panic(bmprof_a64_strerror(err));
	for (unsigned i = 0; i < info->nevents; i++)
		if (info->unsupported >> i & 1)
			bm_printf("bmprof: event id %u: this PMU does not implement event 0x%x "
				  "(PMCEID); it will count nothing\n", bmprof_a64_events()[i].id,
				  bmprof_a64_events()[i].number);
}

_Noreturn void bmrt_start(void)
{
	static struct bmrt_config rc = { .freq = BMRT_DEFAULT_FREQ,
					 .timer = BMPROF_A64_TIMER_VIRTUAL };
	const uint8_t *id;
	uint8_t idlen;

	uart_init();
	serror_on();
	bmrt_config_load(&rc);
	setup(&rc);
	idlen = bmrt_build_id(&id);
	bmprof_a64_announce(id, idlen);
	bmprof_a64_start();
	irq_on();
	bm_exit(main());
}
