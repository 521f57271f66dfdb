/* SPDX-License-Identifier: BSD-2-Clause */
/* bmrt_start: from the configuration to main(), on the main stack (MSP): the UART, the
 * settings, the sampler (SysTick; a PMU driver when the image has one), the gap probe,
 * HELLO, sampling, main, and the end of the run with main's return value. */
#include "bmrt.h"
#include "rt.h"

int main(void);
_Noreturn void bmrt_start(void);

/* A PMU driver for config.pmu (target/arch/cortexm), when the library has one. */
extern const struct bmprof_pmu_ops *const bmprof_cm_default_pmu __attribute__((weak));

static int out_begin(void) { return bmrt_console_busy(); }
static void out_end(void) {}

extern char __image_start[], __text_end[], __ram_start[], __ram_end[];
extern char __exidx_start[], __exidx_end[];

static void setup(struct bmrt_config *rc)
{
	struct bmprof_cm_config c = {
		.hz = rc->freq, .sysclk_hz = BMRT_CM_SYSCLK, .mode = rc->mode,
		.nevents = rc->nevents, .events = rc->events,
		.pmu = &bmprof_cm_default_pmu ? bmprof_cm_default_pmu : 0,
		.out = &bmrt_out, .flush_ms = rc->flush_ms, .out_begin = out_begin,
		.out_end = out_end, .stack_depth = rc->stack_depth, .raw = (uint8_t)rc->raw,
		.code = { (uintptr_t)__image_start, (uintptr_t)__text_end },
		.ram = { (uintptr_t)__ram_start, (uintptr_t)__ram_end },
		.exidx = { (uintptr_t)__exidx_start, (uintptr_t)__exidx_end },
	};
	int err;

	if (rc->transport != BMRT_TRANSPORT_SERIAL)
		bmrt_log(BMRT_WARN, "transport=shm: Cortex-M images stream over the UART only");
	err = bmprof_cm_init(&c);
	if (err)
		bmrt_panic(bmprof_cm_strerror(err));
	bmrt_report_events(bmprof_cm_pmu(), 0);
}

/* What an interrupt costs the program beyond its handler's own time (gapprobe.c). */
static void probe_untimed(void)
{
	int64_t untimed = 0;
	uint64_t cost;
	unsigned n;

	if (bmprof_cm_probe(1))
		return;
	irq_on();
	n = bmrt_gap_probe(BMRT_CM_SYSCLK, &untimed, &cost);
	irq_off();
	bmprof_cm_probe(0);
	if (n)
		bmprof_cm_set_untimed_fine(untimed);
}

_Noreturn void bmrt_start(void)
{
	static struct bmrt_config rc = { .freq = BMPROF_CM_DEFAULT_HZ };
	const uint8_t *id;
	uint8_t idlen;

	uart_init();
	bmrt_config_load(&rc);
	setup(&rc);
	probe_untimed();
	idlen = bmrt_build_id(&id);
	bmprof_cm_announce(id, idlen);
	bmprof_cm_start();
	irq_on();
	bm_exit(main());
}
