/* SPDX-License-Identifier: BSD-2-Clause */
/* The AArch64 runtime's settings in opt/bmprof/config (read by boot/common/config.c):
 *   freq=N                    timer interrupts per second, 0..100000 (0: none)
 *   flush_ms=N                the periodic flush, every N ms (0: off)
 *   cpu_wait_ms=N             the longest wait for another CPU to come up or stop, in ms
 *   timer=T                   virtual | physical: the EL1 generic timer to use
 *   mode=M                    sample | count: sample, or only count events (COUNTS)
 *   event=ID:ENC:PERIOD[:NAME[:GROUP]]   a PMU event (repeatable), bmprof_pmu.h */
#include "bmrt.h"
#include "rt.h"

#define CONFIG_MAX 4096

static const struct bmrt_choice timers[] = {
	{ "virtual", BMPROF_A64_TIMER_VIRTUAL }, { "physical", BMPROF_A64_TIMER_PHYSICAL },
	{ 0, 0 },
};

/* Checked here, against a table of its own, so a bad one is named with its setting;
 * bmprof_a64_init parses the kept text again. */
static void event_setting(struct bmrt_config *cfg, const char *v, size_t vn)
{
	if (!bmrt_event_check(v, vn, BMRT_SPEC_MAX, cfg->nevents, BMPROF_A64_MAX_EVENTS,
			      BMPROF_VENDOR_ARM))
		return;
	cfg->events[cfg->nevents] = bmrt_event_keep(cfg->specs[cfg->nevents], v, vn);
	cfg->nevents++;
}

void bmrt_config_load(struct bmrt_config *cfg)
{
	static char text[CONFIG_MAX];
	const struct bmrt_key keys[] = {
		BMRT_COMMON_KEYS(cfg, BMPROF_A64_MAX_HZ, timers),
		{ "event", .set = event_setting, .cfg = cfg },
		{ 0 },
	};

	bmrt_config_read(keys, text, sizeof text);
}
