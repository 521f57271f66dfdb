/* SPDX-License-Identifier: BSD-2-Clause */
/* A bare Cortex-M program that runs the counter and ITM detection code on an emulated
 * board and prints what it found through semihosting (test_cortexm_detect.sh): the DWT
 * cycle counter, the ITM transport's enable and a write, and the Armv8.1-M PMU probe. A
 * fault on any access prints FAULT. */
#include <stdint.h>
#include "bmprof_itm.h"
#include "cm_pmu.h"

static void sh_call(int op, const void *arg)
{
	register int r0 __asm__("r0") = op;
	register const void *r1 __asm__("r1") = arg;
	__asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
}

static void say(const char *s)
{
	sh_call(4, s);            /* SYS_WRITE0 */
}

static void say_int(int v)
{
	char b[4] = { v < 0 ? '-' : '+', (char)('0' + (v < 0 ? -v : v) % 10), '\n', 0 };
	say(b);
}

static void leave(void)
{
	sh_call(0x18, (const void *)0x20026);   /* SYS_EXIT, ADP_Stopped_ApplicationExit */
	for (;;)
		;
}

void *memset(void *d, int c, unsigned n)
{
	unsigned char *p = d;

	while (n--)
		*p++ = (unsigned char)c;
	return d;
}

static void fault(void)
{
	say("FAULT\n");
	leave();
}

static void reset(void)
{
	struct bmprof_itm t = { .port = 0, .spin_limit = 100 };
	struct bmprof_pmu_caps caps;

	say("cyccnt: ");
	say(bmprof_cyccnt_text(bmprof_cyccnt_start()));
	say("\nitm enable: ");
	say_int(bmprof_itm_enable(&t, 0, 0));
	say("itm write: ");
	say_int(bmprof_itm_write(&t, "abcd", 4));
	say("pmu probe: ");
	say_int(bmprof_pmu_v81m.probe(&caps));
	leave();
}

extern char probe_stack[];   /* probe.ld */

__attribute__((section(".vectors"), used)) static void (*const vectors[16])(void) = {
	(void (*)(void))probe_stack, reset, fault, fault, fault, fault, fault, 0, 0, 0, 0,
	fault, fault, 0, fault, fault,
};
