/* SPDX-License-Identifier: BSD-2-Clause */
/* How a run executed, from its metadata (analysis/run_mode.c), what QEMU's command line
 * says about -icount (host/run/qemu.c), the handler-time accounting that gives TOTALS
 * sampled_ticks (target/core/timing.c), and the warning for an image whose timer did not
 * run at --freq (host/report/run_notes.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bmprof.h"
#include "run/qemu.h"
#include "run_mode.h"
#include "report/run_notes.h"

static struct profile *with_meta(const char *accel, const char *icount, const char *qemu)
{
	struct profile *p = malloc(sizeof *p);

	assert_non_null(p);
	profile_init(p);
	if (accel)
		assert_int_equal(profile_set_meta(p, "accel", accel), 0);
	if (icount)
		assert_int_equal(profile_set_meta(p, "icount", icount), 0);
	if (qemu)
		assert_int_equal(profile_set_meta(p, "qemu", qemu), 0);
	p->have_hello = 1;
	p->hello.timebase_hz = 62500000;
	return p;
}

static void drop(struct profile *p)
{
	profile_free(p);
	free(p);
}

static void test_modes(void **state)
{
	struct run_mode m;
	struct profile *p;

	(void)state;
	/* a board: nothing known, nothing claimed */
	p = with_meta(NULL, NULL, NULL);
	run_mode_of(p, &m);
	assert_int_equal(m.accel, RUN_ACCEL_UNKNOWN);
	assert_false(run_mode_block_starts(&m) || run_mode_emulated_time(&m));
	assert_true(run_mode_insns_per_tick(&m, p) == 0);
	drop(p);
	/* plain TCG: block starts, the emulator's time */
	p = with_meta("tcg", "0", "qemu-system-x86_64 -M q35 -accel tcg -cpu max");
	run_mode_of(p, &m);
	assert_true(run_mode_block_starts(&m) && run_mode_emulated_time(&m));
	drop(p);
	/* -singlestep (either spelling) lands samples on instructions, time still emulated */
	p = with_meta("tcg", "0", "qemu -kernel a.elf --singlestep -accel tcg");
	run_mode_of(p, &m);
	assert_true(m.singlestep && !run_mode_block_starts(&m) && run_mode_emulated_time(&m));
	drop(p);
	p = with_meta("tcg", "0", "qemu -kernel /x/singlestep.elf -accel tcg");
	run_mode_of(p, &m);
	assert_false(m.singlestep);
	drop(p);
	/* bmprof's --icount; a CNTVCT at 62.5 MHz is 16 instructions a tick */
	p = with_meta("tcg", "shift=0,sleep=off", NULL);
	run_mode_of(p, &m);
	assert_true(m.icount && m.icount_shift == 0 && !m.icount_sleep);
	assert_false(run_mode_block_starts(&m) || run_mode_emulated_time(&m));
	assert_true(run_mode_insns_per_tick(&m, p) == 16.0);
	drop(p);
	/* an older profile's "1", a bare shift, auto */
	p = with_meta("tcg", "1", NULL);
	run_mode_of(p, &m);
	assert_true(m.icount && m.icount_shift == 0 && m.icount_sleep);
	drop(p);
	p = with_meta("tcg", "3", NULL);
	run_mode_of(p, &m);
	assert_true(m.icount_shift == 3 && run_mode_insns_per_tick(&m, p) == 2.0);
	drop(p);
	p = with_meta("tcg", "shift=auto,align=on", NULL);
	run_mode_of(p, &m);
	assert_true(m.icount && m.icount_shift == -1 && run_mode_insns_per_tick(&m, p) == 0);
	drop(p);
	/* KVM: neither */
	p = with_meta("kvm", "0", NULL);
	run_mode_of(p, &m);
	assert_int_equal(m.accel, RUN_ACCEL_KVM);
	assert_false(run_mode_block_starts(&m) || run_mode_emulated_time(&m));
	drop(p);
}

static void test_argv_icount(void **state)
{
	char *none[] = { "qemu", "-accel", "tcg", NULL };
	char *one[] = { "qemu", "-icount", "shift=0", "-singlestep", NULL };
	char *two[] = { "qemu", "--icount", "shift=auto", "-icount", "shift=2", NULL };
	char *bare[] = { "qemu", "-icount", NULL };

	(void)state;
	assert_null(qemu_argv_icount(none));
	assert_string_equal(qemu_argv_icount(one), "shift=0");
	assert_string_equal(qemu_argv_icount(two), "shift=2");   /* the last one counts */
	assert_string_equal(qemu_argv_icount(bare), "");
	assert_true(qemu_argv_has(one, "singlestep"));
	assert_false(qemu_argv_has(none, "singlestep"));
}

static void test_timing(void **state)
{
	struct bmprof_timing t = { 0 };

	(void)state;
	/* a handler times itself from its deadline when that is within a period before */
	assert_true(bmprof_timing_from(1000, 1040, 100) == 1000);
	assert_true(bmprof_timing_from(1000, 1100, 100) == 1100);   /* a period late: entry */
	assert_true(bmprof_timing_from(1000, 990, 100) == 990);     /* early: entry */
	/* 10,000 ticks sampled, 3 handlers of 100, untimed 20 each, 500 stolen */
	bmprof_timing_start(&t, 5000);
	for (int i = 0; i < 3; i++)
		bmprof_timing_handled(&t, 100);
	bmprof_timing_stop(&t, 15000);
	bmprof_timing_handled(&t, 100);   /* after stop: time, but no interrupt counted */
	t.untimed = 20 * BMPROF_UNTIMED_ONE;
	assert_true(t.enabled == 10000 && t.irqs == 3 && t.last_handler == 100);
	assert_true(bmprof_timing_sampled(&t, 500) == 10000 - 400 - 60 - 500);
	bmprof_timing_stop(&t, 20000);    /* stopped twice: no more time */
	assert_true(t.enabled == 10000);
	/* never below 0 */
	assert_true(bmprof_timing_sampled(&t, 100000) == 0);
	t.untimed = -5 * BMPROF_UNTIMED_ONE;   /* a probe can find a negative part */
	assert_true(bmprof_timing_sampled(&t, 0) == 10000 - 400 + 15);
	t.untimed = BMPROF_UNTIMED_ONE * 3 / 2;   /* 1.5 ticks each: 4.5 in all */
	assert_true(bmprof_timing_sampled(&t, 0) == 10000 - 400 - 4);
	bmprof_timing_reset(&t);
	assert_true(t.enabled == 0 && t.handler == 0 && t.irqs == 0 &&
		    t.untimed == BMPROF_UNTIMED_ONE * 3 / 2);
}

/* The warnings of a profile whose meta freq is freq (NULL: none) and whose one event has
 * source, status and a period of timebase/hz ticks; the first is copied to first. */
static unsigned freq_warnings(const char *freq, uint8_t source, uint8_t status, double hz,
			      char *first)
{
	struct profile *p = with_meta("tcg", "shift=0,sleep=off", NULL);
	char warn[4][RUN_NOTE_LEN], note[4][RUN_NOTE_LEN];
	unsigned nn, nw;

	if (freq)
		assert_int_equal(profile_set_meta(p, "freq", freq), 0);
	p->events[0] = (struct profile_event){ .id = 0, .source = source, .status = status,
					       .period = (uint64_t)(62500000 / hz) };
	p->nevents = 1;
	nw = run_notes(p, warn, note, 4, &nn);
	if (nw)
		strcpy(first, warn[0]);
	drop(p);
	return nw;
}

static void test_freq_ignored(void **state)
{
	char w[RUN_NOTE_LEN] = "";

	(void)state;
	/* a kernel that ticks at its own 4000 Hz while 1000 was asked for */
	assert_int_equal(freq_warnings("1000", BMPROF_SOURCE_TIMER, BMPROF_EVST_ACTIVE, 4000, w), 1);
	assert_string_equal(w, "the image's timer sampled at 4000 Hz, not at the 1000 Hz of "
			    "--freq: it does not read bmprof's run configuration (fw_cfg "
			    "opt/bmprof/config), so its rate is its own");
	/* within 2%: the rate asked for, rounded by the timer's period */
	assert_int_equal(freq_warnings("1000", BMPROF_SOURCE_TIMER, BMPROF_EVST_ACTIVE, 1019, w), 0);
	assert_int_equal(freq_warnings("1000", BMPROF_SOURCE_TIMER, BMPROF_EVST_ACTIVE, 981, w), 0);
	assert_int_equal(freq_warnings("1000", BMPROF_SOURCE_TIMER, BMPROF_EVST_ACTIVE, 1030, w), 1);
	/* the timer standing in for PMU events runs at --freq too */
	assert_int_equal(freq_warnings("1000", BMPROF_SOURCE_TIMER, BMPROF_EVST_FALLBACK, 500, w), 1);
	/* nothing to compare: no --freq recorded (bmprof record), freq 0, a PMU event */
	assert_int_equal(freq_warnings(NULL, BMPROF_SOURCE_TIMER, BMPROF_EVST_ACTIVE, 4000, w), 0);
	assert_int_equal(freq_warnings("0", BMPROF_SOURCE_TIMER, BMPROF_EVST_ACTIVE, 4000, w), 0);
	assert_int_equal(freq_warnings("1000", BMPROF_SOURCE_PMU, BMPROF_EVST_ACTIVE, 4000, w), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_argv_icount),
		cmocka_unit_test(test_timing),
		cmocka_unit_test(test_freq_ignored),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
