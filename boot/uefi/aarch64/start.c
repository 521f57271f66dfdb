/* SPDX-License-Identifier: BSD-2-Clause */
/* The AArch64 side of the UEFI runtime (efi_main is boot/uefi/common/main.c): the
 * configuration from the fw_cfg file opt/bmprof/config as in the plain runtime
 * (boot/aarch64/config.c), the sampler on the firmware's GIC driver (irq.c), and the end
 * of the run: flush, END frame, and QEMU's exit with the status (semihosting) or a
 * shutdown. One CPU samples: the firmware keeps the others off. The timer, when one runs,
 * is the physical one by default: the firmware's tick is the virtual timer. */
#include "bmrt.h"
#include "uefi_a64.h"

#ifndef BMRT_DEFAULT_FREQ
#define BMRT_DEFAULT_FREQ BMPROF_A64_DEFAULT_HZ
#endif

volatile int bmrt_ending;

uint64_t bm_cycles_hz(void) { return bmprof_a64_info()->cntfrq; }

_Noreturn void bmrt_poweroff(uint8_t exit_value)
{
	bmrt_ending = 1;
	__asm__ volatile("msr daifset, #2" : : : "memory");
	uart_drain();
	bmrt_semihost_exit(exit_value);
	bmrt_efi_shutdown();
}

/* From the program (bm_exit) or a fault (exception.c). */
_Noreturn void bmrt_finish(const struct bmprof_end *end, uint8_t exit_value)
{
	static int finishing;

	if (!bmrt_ending)
		bmrt_efi_st->BootServices->RaiseTPL(TPL_HIGH_LEVEL);
	bmrt_ending = 1;
	if (!finishing++) {
		bmrt_stream_final();
		bmprof_a64_flush();   /* stops sampling, the PPIs off (bmrt_irq_enable) */
	}
	bmprof_emit_end(&bmrt_out, end);
	bmrt_poweroff(exit_value);
}

_Noreturn static void panic(const char *why)
{
	struct bmprof_end e = { .exit_code = -1, .reason = BMPROF_END_PANIC };

	bmrt_log(BMRT_ERR, "cannot sample: %s", why);
	bmrt_ending = 1;
	bmprof_emit_end(&bmrt_out, &e);
	bmrt_poweroff(BMRT_EXIT_PANIC);
}

void bmrt_uefi_start(uint64_t load_bias)
{
	static struct bmrt_config rc = { .freq = BMRT_DEFAULT_FREQ,
					 .timer = BMPROF_A64_TIMER_PHYSICAL };
	struct bmprof_a64_config c = { .gic = BMPROF_A64_GIC_NONE, .out = &bmrt_out,
				       .irq_enable = bmrt_irq_enable, .load_bias = load_bias };
	struct bmprof_range stack = { 0, 0 };
	EFI_TPL tpl;
	const uint8_t *id;
	uint8_t idlen;
	int err;

	bmrt_exception_setup();
	bmrt_config_load(&rc);
	c.hz = rc.freq;
	c.timer = rc.timer;
	c.mode = rc.mode;
	c.nevents = rc.nevents;
	c.events = rc.events;
	c.flush_ms = rc.flush_ms;
	c.stack_depth = rc.stack_depth;
	c.raw = (uint8_t)rc.raw;
	if (rc.stack_depth)
		bmrt_uefi_ranges(&c.code, &stack);
	if (EFI_ERROR(bmrt_irq_init()))
		panic("the firmware does not route the sampling interrupts");
	tpl = bmrt_efi_st->BootServices->RaiseTPL(TPL_HIGH_LEVEL);   /* IRQs masked */
	bmrt_irq_quiet(1);
	err = bmprof_a64_init(&c);
	bmrt_irq_quiet(0);
	bmrt_efi_st->BootServices->RestoreTPL(tpl);
	if (err)
		panic(bmprof_a64_strerror(err));
	bmprof_a64_set_stack(stack.lo, stack.hi);
	bmrt_report_events(bmprof_a64_pmu(), "the PMU");
	if (EFI_ERROR(bmrt_irq_setup()))
		panic("the firmware does not route the sampling interrupts");
	if (rc.transport == BMRT_TRANSPORT_SHM)
		bmrt_shm_start(1);
	idlen = bmrt_build_id(&id);
	bmprof_a64_announce(id, idlen);
	bmprof_a64_start();
}
