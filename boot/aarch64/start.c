/* SPDX-License-Identifier: BSD-2-Clause */
/* bmrt_start: from the configuration to main(), with the MMU on, on the program stack:
 * the sampler on this CPU, then the other CPUs (smp.c), HELLO with their number, and
 * sampling on every CPU. */
#include "bmrt.h"
#include "rt.h"

#ifndef BMRT_DEFAULT_FREQ
#define BMRT_DEFAULT_FREQ BMPROF_A64_DEFAULT_HZ
#endif

int main(void);
_Noreturn void bmrt_start(void);

uint64_t bm_cycles_hz(void) { return bmprof_a64_info()->cntfrq; }

/* The image's loaded sections (linker/aarch64.ld) and the main stack (entry.S) */
extern char __image_start[], __bss_start[], bmrt_stack_guard[], bmrt_stack_top[];

static void setup(struct bmrt_config *rc)
{
	struct bmprof_a64_config c = {
		.hz = rc->freq, .timer = rc->timer, .gic = BMPROF_A64_GIC_AUTO, .mode = rc->mode,
		.nevents = rc->nevents, .events = rc->events, .out = &bmrt_out,
		.other_irq = bmrt_sgi, .flush_ms = rc->flush_ms, .stack_depth = rc->stack_depth,
		.raw = (uint8_t)rc->raw,
		.code = { (uintptr_t)__image_start, (uintptr_t)__bss_start },
	};
	int err = bmprof_a64_init(&c);

	if (err)
		bmrt_panic(bmprof_a64_strerror(err));
	bmprof_a64_set_stack((uintptr_t)bmrt_stack_guard + GUARD_SIZE, (uintptr_t)bmrt_stack_top);
	bmrt_report_events(bmprof_a64_pmu(), "the PMU");
	if (bmprof_a64_info()->period_ticks == 0 && bmprof_a64_info()->timer_runs)
		bmrt_log(BMRT_WARN, "freq=0: event groups do not rotate and 32-bit counts may "
			 "wrap unseen");
}

/* What an interrupt costs the program beyond its handler's own time (gapprobe.c), for
 * every CPU's TOTALS sampled_ticks: they all run the same handler. */
static void probe_untimed(void)
{
	int64_t untimed = 0;
	uint64_t cost;

	if (bmprof_a64_probe(1))
		return;
	irq_on();
	unsigned n = bmrt_gap_probe(bmprof_a64_info()->cntfrq, &untimed, &cost);
	irq_off();
	bmprof_a64_probe(0);
	for (unsigned i = 0; n && i < bm_ncpus(); i++)
		bmprof_a64_set_untimed_fine(i, untimed);
}

_Noreturn void bmrt_start(void)
{
	static struct bmrt_config rc = { .freq = BMRT_DEFAULT_FREQ,
					 .timer = BMPROF_A64_TIMER_VIRTUAL,
					 .cpu_wait_ms = BMRT_CPU_WAIT_MS_DEFAULT };
	const uint8_t *id;
	uint8_t idlen;

	uart_init();
	serror_on();
	bmrt_config_load(&rc);
	setup(&rc);
	bmrt_smp_boot(rc.cpu_wait_ms);
	if (rc.transport == BMRT_TRANSPORT_SHM)
		bmrt_shm_start(bm_ncpus());
	probe_untimed();
	idlen = bmrt_build_id(&id);
	bmprof_a64_announce(id, idlen);
	bmrt_smp_go();
	bmprof_a64_start();
	irq_on();
	bm_exit(main());
}
