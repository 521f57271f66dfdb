/* SPDX-License-Identifier: BSD-2-Clause */
/* bmrt_start: the 64-bit side of boot on the first CPU, from the descriptor tables to
 * main(): the sampler is set up here first (calibration), then on the other CPUs as they
 * start (smp.c), the core clock is measured (in ring 3 when main runs there: user.c),
 * HELLO announces them all, and every CPU starts sampling. */
#include "bmprof_x86_64.h"
#include "bmrt.h"
#include "rt.h"

#ifndef BMRT_DEFAULT_FREQ
#define BMRT_DEFAULT_FREQ BMPROF_X86_DEFAULT_HZ
#endif

int main(void);
_Noreturn void bmrt_start(void);

/* kept here: ring 3 cannot reach the sampler's per-CPU look-up (it reads the LAPIC) */
static uint64_t tsc_hz;

uint64_t bm_cycles_hz(void) { return tsc_hz; }

/* The BIOS leaves the 8259 PICs' master at vector 8 (#DF in long mode). Point them at
 * 0x20..0x2F and mask every line: the LAPIC timer is the only interrupt used. */
static void pic_off(void)
{
	static const uint8_t icw[2][4] = { { 0x11, 0x20, 0x04, 0x01 }, { 0x11, 0x28, 0x02, 0x01 } };

	for (int i = 0; i < 2; i++) {
		uint16_t cmd = i ? 0xA0 : 0x20;
		outb(cmd, icw[i][0]);
		for (int j = 1; j < 4; j++)
			outb(cmd + 1, icw[i][j]);
		outb(cmd + 1, 0xFF);
	}
}

_Noreturn static void panic(const char *why)
{
	struct bmprof_end e = { .exit_code = -1, .reason = BMPROF_END_PANIC };

	bmrt_log(BMRT_ERR, "cannot sample: %s", why);
	bmrt_uart_lock();
	bmprof_emit_end(&bmrt_out, &e);
	bmrt_poweroff(BMRT_EXIT_PANIC);
}

/* One message per event that will not count or sample as asked. */
static void report_events(const struct bmrt_config *rc)
{
	for (unsigned i = 0; i < rc->nevents; i++)
		if (bmprof_x86_info()->bad_events >> i & 1)
			bmrt_log(BMRT_WARN, "config: event=%s: %s; ignored", rc->events[i],
				 bmprof_x86_event_error(i));
	bmrt_report_events(bmprof_x86_pmu(), 0);
}

/* What an interrupt costs ring 0 beyond its handler's own time (gapprobe.c), for every
 * CPU's TOTALS sampled_ticks: they all run the same handler in ring 0. */
static void probe_untimed(void)
{
	int64_t untimed = 0;
	uint64_t cost;

	if (bmprof_x86_probe(1))
		return;
	sti();
	unsigned n = bmrt_gap_probe(tsc_hz, &untimed, &cost);
	cli();
	bmprof_x86_probe(0);
	for (unsigned i = 0; n && i < bm_ncpus(); i++)
		bmprof_x86_set_untimed_fine(i, untimed);
}

void bmrt_begin_sampling(uint64_t chain_ticks)
{
	const uint8_t *id;
	uint8_t idlen = bmrt_build_id(&id);

	if (chain_ticks)
		bmprof_x86_set_core_hz((uint64_t)((unsigned __int128)BMRT_CHAIN_ADDS * tsc_hz /
						  chain_ticks));
	bmrt_uart_lock();
	bmprof_x86_announce(id, idlen);
	bmrt_uart_unlock();
	bmprof_x86_start();
	bmrt_smp_go();
}

/* The image's loaded sections (linker/x86_64.ld) and the main stack (entry.S) */
extern char __image_start[], __bss_start[], bmrt_stack_guard[], bmrt_stack_top[];

_Noreturn void bmrt_start(void)
{
	struct bmrt_config rc = { .freq = BMRT_DEFAULT_FREQ, .timer = BMPROF_X86_TIMER_AUTO,
				  .cpu_wait_ms = BMRT_CPU_WAIT_MS_DEFAULT };
	struct bmprof_x86_config xc;
	int err;

	uart_init();
	bmrt_apic_init();
	bmrt_smp_find();
	bmrt_desc_init();
	bmrt_paging_init();
	pic_off();
	bmrt_config_load(&rc);
	xc = (struct bmprof_x86_config){
		.hz = rc.freq, .vector = BMPROF_X86_DEFAULT_VECTOR, .timer = rc.timer,
		.out = &bmrt_out, .events = rc.events, .nevents = rc.nevents, .mode = rc.mode,
		.pmi = rc.pmi, .pmi_vector = BMPROF_X86_DEFAULT_PMI_VECTOR, .msr_fixup = 1,
		.out_begin = bmrt_uart_out_begin, .out_end = bmrt_uart_out_end,
		.flush_ms = rc.flush_ms, .stack_depth = rc.stack_depth, .raw = (uint8_t)rc.raw,
		.code = { (uintptr_t)__image_start, (uintptr_t)__bss_start },
		/* main in ring 3 runs on the user stack */
		.ram = { rc.user ? (uintptr_t)bmrt_user_stack + 4096 : 0,
			 rc.user ? (uintptr_t)bmrt_user_stack + sizeof bmrt_user_stack : 0 },
	};
	err = bmprof_x86_init(&xc);
	if (err)
		panic(bmprof_x86_strerror(err));
	bmprof_x86_set_stack((uintptr_t)bmrt_stack_guard + 4096, (uintptr_t)bmrt_stack_top);
	tsc_hz = bmprof_x86_info()->tsc_hz;
	report_events(&rc);
	if (rc.timer == BMPROF_X86_TIMER_DEADLINE && bmprof_x86_info()->timer != rc.timer)
		bmrt_log(BMRT_WARN, "config: timer=deadline: this CPU has no TSC-deadline timer "
			 "(CPUID.1:ECX[24]); using one-shot");
	bmrt_smp_start(rc.cpu_wait_ms);
	if (rc.transport == BMRT_TRANSPORT_SHM)
		bmrt_shm_start(bm_ncpus());
	if (rc.user)
		bmrt_user_run();
	probe_untimed();
	bmrt_begin_sampling(bmrt_chain_ticks(tsc_hz));
	sti();
	bm_exit(main());
}
