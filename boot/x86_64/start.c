/* bmrt_start: the 64-bit side of boot, from the descriptor tables to main(). */
#include "bmprof_x86_64.h"
#include "bmrt.h"
#include "rt.h"

#ifndef BMRT_DEFAULT_FREQ
#define BMRT_DEFAULT_FREQ BMPROF_X86_DEFAULT_HZ
#endif

int main(void);
_Noreturn void bmrt_start(void);

uint64_t bm_cycles_hz(void) { return bmprof_x86_info()->tsc_hz; }

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

	bm_printf("bmprof: cannot sample: %s\n", why);
	bmprof_emit_end(&bmrt_out, &e);
	bmrt_poweroff(BMRT_EXIT_PANIC);
}

_Noreturn void bmrt_start(void)
{
	struct bmrt_config rc = { .freq = BMRT_DEFAULT_FREQ, .timer = BMPROF_X86_TIMER_AUTO };
	struct bmprof_x86_config xc;
	const uint8_t *id;
	uint8_t idlen;
	int err;

	uart_init();
	bmrt_desc_init();
	bmrt_paging_init();
	pic_off();
	bmrt_config_load(&rc);
	xc = (struct bmprof_x86_config){
		.hz = rc.freq, .vector = BMPROF_X86_DEFAULT_VECTOR, .timer = rc.timer,
		.out = &bmrt_out,
	};
	err = bmprof_x86_init(&xc);
	if (err)
		panic(bmprof_x86_strerror(err));
	if (rc.timer == BMPROF_X86_TIMER_DEADLINE && bmprof_x86_info()->timer != rc.timer)
		bm_puts("bmprof: config: timer=deadline: this CPU has no TSC-deadline timer "
			"(CPUID.1:ECX[24]); using one-shot");
	idlen = bmrt_build_id(&id);
	bmprof_x86_announce(id, idlen);
	bmprof_x86_start();
	sti();
	bm_exit(main());
}
