/* SPDX-License-Identifier: BSD-2-Clause */
/* The RISC-V runtime's settings in opt/bmprof/config (read by boot/common/config.c):
 *   freq=N                    timer interrupts per second, 0..100000 (0: none)
 *   flush_ms=N                the periodic flush, every N ms (0: off)
 *   mode=M                    sample | count: sample, or only count events (COUNTS)
 *   event=ID:ENC:PERIOD[:NAME[:GROUP]]   an hpm event (repeatable), bmprof_pmu.h
 *   stack_depth=N             call stacks of at most N frames (0: off)
 * timer= takes only "mtimer" (the CLINT's); transport=shm is refused by start.c. */
#include "bmrt.h"
#include "rt.h"

#define CONFIG_MAX 4096

static const struct bmrt_choice timers[] = { { "mtimer", 0 }, { 0, 0 } };

static void event_setting(struct bmrt_config *cfg, const char *v, size_t vn)
{
	if (!bmrt_event_check(v, vn, BMRT_SPEC_MAX, cfg->nevents, BMPROF_RV_MAX_EVENTS,
			      BMPROF_VENDOR_RISCV))
		return;
	cfg->events[cfg->nevents] = bmrt_event_keep(cfg->specs[cfg->nevents], v, vn);
	cfg->nevents++;
}

void bmrt_config_load(struct bmrt_config *cfg)
{
	static char text[CONFIG_MAX];
	const struct bmrt_key keys[] = {
		BMRT_COMMON_KEYS(cfg, BMPROF_RV_MAX_HZ, timers),
		{ "event", .set = event_setting, .cfg = cfg },
		{ 0 },
	};

	bmrt_config_read(keys, text, sizeof text);
}
