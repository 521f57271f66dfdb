/* SPDX-License-Identifier: BSD-2-Clause */
/* The x86-64 runtime's settings in opt/bmprof/config (read by boot/common/config.c):
 *   freq=N     timer frequency, 0..100000 (0: no timer): the sampling rate when no event
 *              samples on the PMU, else the rate groups rotate and counters are read
 *   flush_ms=N the periodic flush, every N ms (0: off), so a run that hangs still sends
 *              what it sampled before
 *   cpu_wait_ms=N  the longest wait for another CPU to check in at boot or to stop at
 *              the end, in ms (default 2000)
 *   timer=M    auto | deadline | oneshot
 *   mode=M     sample | count (count: no sampling, event totals at the end)
 *   pmi=P      nmi | irq: how the PMU's overflow interrupt is delivered
 *   user=B     0 | 1: run main in ring 3 (the plain runtime; docs/image.md)
 *   param=NAME=VALUE  a run-time parameter for bm_param (boot/common/param.c)
 *   event=SPEC ID:ENC:PERIOD[:NAME[:GROUP]], repeatable (parsed by the PMU layer, which
 *              reports a malformed one when the sampler starts) */
#include "bmprof_x86_64.h"
#include "bmrt.h"
#include "rt.h"

#define CONFIG_MAX 1024

/* event= values, each NUL-terminated */
static char pool[CONFIG_MAX + BMRT_MAX_EVENTS];
static size_t pool_used;

static const struct bmrt_choice timers[] = {
	{ "auto", BMPROF_X86_TIMER_AUTO }, { "deadline", BMPROF_X86_TIMER_DEADLINE },
	{ "oneshot", BMPROF_X86_TIMER_ONESHOT }, { 0, 0 },
};

static const struct bmrt_choice pmis[] = {
	{ "nmi", BMPROF_X86_PMI_NMI }, { "irq", BMPROF_X86_PMI_IRQ }, { 0, 0 },
};

static const struct bmrt_choice onoff[] = { { "0", 0 }, { "1", 1 }, { 0, 0 } };

static void event_setting(struct bmrt_config *cfg, const char *v, size_t vn)
{
	char *e = pool + pool_used;

	if (cfg->nevents == BMRT_MAX_EVENTS) {
		bmrt_log(BMRT_WARN, "config: event=%.*s: at most %d events; ignored", (int)vn, v,
			 BMRT_MAX_EVENTS);
		return;
	}
	memcpy(e, v, vn);
	e[vn] = 0;
	pool_used += vn + 1;
	cfg->events[cfg->nevents++] = e;
}

void bmrt_config_load(struct bmrt_config *cfg)
{
	static char text[CONFIG_MAX];
	const struct bmrt_key keys[] = {
		BMRT_COMMON_KEYS(cfg, BMPROF_X86_MAX_HZ, timers),
		{ "pmi", .pick = &cfg->pmi, .choices = pmis },
		{ "user", .pick = &cfg->user, .choices = onoff },
		{ "event", .set = event_setting, .cfg = cfg },
		{ 0 },
	};

	bmrt_config_read(keys, text, sizeof text);
}
