/* SPDX-License-Identifier: BSD-2-Clause */
/* bmrt_start: from the configuration to main(), on hart 0 in machine mode: the hpm
 * counters probed, the sampler set up on this hart, then on the others (smp.c), the
 * interrupt cost probed, HELLO with their number, and sampling on every hart. */
#include "bmrt.h"
#include "rt.h"

#ifndef BMRT_DEFAULT_FREQ
#define BMRT_DEFAULT_FREQ BMPROF_RV_DEFAULT_HZ
#endif

int main(void);
_Noreturn void bmrt_start(void);

uint32_t bmrt_cpu_wait_ms = BMRT_CPU_WAIT_MS_DEFAULT;

uint64_t bm_cycles_hz(void) { return bmprof_rv_info()->timebase_hz; }

/* The image's loaded sections (linker/riscv64.ld) and hart 0's stack (entry.S) */
extern char __image_start[], __bss_start[], bmrt_stack_bottom[], bmrt_stack_top[];

static void setup(struct bmrt_config *rc)
{
	struct bmprof_rv_config c = {
		.hz = rc->freq, .mode = rc->mode, .nevents = rc->nevents, .events = rc->events,
		.out = &bmrt_out, .flush_ms = rc->flush_ms, .raw = (uint8_t)rc->raw,
		.stack_depth = rc->stack_depth,
		.code = { (uintptr_t)__image_start, (uintptr_t)__bss_start },
	};
	unsigned counters;
	int ovf, err;

	if (rc->transport == BMRT_TRANSPORT_SHM)
		bmrt_log(BMRT_WARN, "transport=shm is not supported on RISC-V: the stream stays "
			 "on the serial port");
	bmrt_probe_pmu(&counters, &ovf);
	c.hpm_counters = (uint8_t)counters;
	c.sscofpmf = (uint8_t)ovf;
	err = bmprof_rv_init(&c);
	if (err)
		bmrt_panic(bmprof_rv_strerror(err));
	bmprof_rv_set_stack((uintptr_t)bmrt_stack_bottom, (uintptr_t)bmrt_stack_top);
	bmrt_report_events(bmprof_rv_pmu(), "the hpm counters");
}

static void probe_untimed(void)
{
	int64_t untimed = 0;
	uint64_t cost;

	if (bmprof_rv_probe(1))
		return;
	irq_on();
	unsigned n = bmrt_gap_probe(bmprof_rv_info()->timebase_hz, &untimed, &cost);
	irq_off();
	bmprof_rv_probe(0);
	if (n)
		bmprof_rv_set_untimed_fine(0, untimed);
}

_Noreturn void bmrt_start(void)
{
	static struct bmrt_config rc = { .freq = BMRT_DEFAULT_FREQ,
					 .cpu_wait_ms = BMRT_CPU_WAIT_MS_DEFAULT };
	const uint8_t *id;
	uint8_t idlen;

	uart_init();
	bmrt_config_load(&rc);
	bmrt_cpu_wait_ms = rc.cpu_wait_ms;
	setup(&rc);
	bmrt_smp_boot(rc.cpu_wait_ms);
	probe_untimed();
	idlen = bmrt_build_id(&id);
	bmprof_rv_announce(id, idlen);
	bmrt_smp_go();
	bmprof_rv_start();
	__asm__ volatile("csrs mie, %0" : : "r"(1ull << 3) : "memory");   /* MSIE: stop */
	irq_on();
	bm_exit(main());
}
