/* SPDX-License-Identifier: BSD-2-Clause */
/* The Cortex-M runtime's settings (read by boot/common/config.c from the config area):
 *   freq=N                    SysTick samples per second, 0..100000 (0: none)
 *   flush_ms=N                the periodic flush, every N ms (0: off)
 *   timer=systick             the only timer
 *   mode=M                    sample | count
 *   event=ID:ENC:PERIOD[:NAME[:GROUP]]   a PMU event (repeatable), for a PMU driver
 *   param=NAME=VALUE          bm_param()
 *   stack_depth=N             call stacks of at most N frames (0: off); needs a library
 *                             built with stack memory (BMPROF_CM_STACK_ENTRIES)
 * raw and transport=shm are refused when the sampler starts (start.c). */
#include "bmrt.h"
#include "rt.h"

static const struct bmrt_choice timers[] = { { "systick", 0 }, { 0, 0 } };

/* Kept as given: bmprof_cm_init parses them and names a bad one (bad_event), so no
 * second parse table takes RAM here. */
static void event_setting(struct bmrt_config *cfg, const char *v, size_t vn)
{
	if (!bmrt_event_fits(v, vn, BMRT_SPEC_MAX, cfg->nevents, BMRT_CM_MAX_EVENTS))
		return;
	cfg->events[cfg->nevents] = bmrt_event_keep(cfg->specs[cfg->nevents], v, vn);
	cfg->nevents++;
}

void bmrt_config_load(struct bmrt_config *cfg)
{
	const struct bmrt_key keys[] = {
		BMRT_COMMON_KEYS(cfg, BMPROF_CM_MAX_HZ, timers),
		{ "event", .set = event_setting, .cfg = cfg },
		{ 0 },
	};

	bmrt_config_read(keys, bmrt_config_area, BMRT_CM_CONFIG_BYTES);
}
