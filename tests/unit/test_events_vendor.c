/* SPDX-License-Identifier: BSD-2-Clause */
/* Vendor event names: Intel and AMD names resolved through libpfm4 (host/events/vendor.c)
 * give the encodings Intel's perfmon tables give; Arm names resolved through bmprof's own
 * models give the numbers Arm's PMU data gives; the names reports use; unknown names are
 * one line with the closest known names; without libpfm4 the message says to install it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "events.h"
#include "events/vendor.h"

static const struct events_opts sample = { .cycles_hz = 1000000000ull,
					   .resolve = vendor_events_resolve };

static const struct event_req *one(const char *text)
{
	static struct event_list l;
	char err[1024] = "";

	memset(&l, 0, sizeof l);
	if (events_parse(&l, text, &sample, err, sizeof err))
		fail_msg("'%s' failed: %s", text, err);
	assert_int_equal(l.n, 1);
	return &l.ev[0];
}

/* text must fail with one line holding every string of want (NULL-terminated). */
static void bad(const char *text, ...)
{
	struct event_list l;
	char err[1024] = "";
	const char *want;
	va_list ap;

	memset(&l, 0, sizeof l);
	if (!events_parse(&l, text, &sample, err, sizeof err))
		fail_msg("'%s' was accepted", text);
	assert_null(strchr(err, '\n'));
	assert_int_equal(l.n, 0);
	va_start(ap, text);
	while ((want = va_arg(ap, const char *)))
		if (!strstr(err, want))
			fail_msg("'%s': error '%s' does not say '%s'", text, err, want);
	va_end(ap);
}

static void need_libpfm(void)
{
	if (!vendor_events_have_libpfm())
		skip();
}

/* IA32_PERFEVTSELx select bits from a perfmon row's fields. */
static uint64_t perfevtsel(uint64_t event, uint64_t umask, uint64_t cmask, uint64_t inv,
			   uint64_t edge)
{
	return event | umask << 8 | edge << 18 | inv << 23 | cmask << 24;
}

/* Rows of Intel's perfmon event files (github.com/intel/perfmon): skylake_core.json V59
 * (2024-04-04), icelake_core.json V1.24 (2024-10-10), sapphirerapids_core.json V1.39
 * (2026-03-24): EventCode, UMask, CounterMask, Invert, EdgeDetect. */
static const struct {
	const char *name;
	uint64_t event, umask, cmask, inv, edge;
} intel[] = {
	{ "skl::MEM_LOAD_RETIRED.L1_MISS", 0xd1, 0x08, 0, 0, 0 },
	{ "skl::CYCLE_ACTIVITY.STALLS_TOTAL", 0xa3, 0x04, 4, 0, 0 },
	{ "skl::BR_MISP_RETIRED.ALL_BRANCHES", 0xc5, 0x00, 0, 0, 0 },
	{ "skl::UOPS_ISSUED.ANY", 0x0e, 0x01, 0, 0, 0 },
	{ "skl::L1D.REPLACEMENT", 0x51, 0x01, 0, 0, 0 },
	{ "icl::MEM_LOAD_RETIRED.L1_MISS", 0xd1, 0x08, 0, 0, 0 },
	{ "icl::TOPDOWN.SLOTS_P", 0xa4, 0x01, 0, 0, 0 },
	{ "icl::DTLB_LOAD_MISSES.WALK_COMPLETED", 0x08, 0x0e, 0, 0, 0 },
	{ "spr::DTLB_LOAD_MISSES.WALK_COMPLETED", 0x12, 0x0e, 0, 0, 0 },
	{ "spr::BR_MISP_RETIRED.ALL_BRANCHES", 0xc5, 0x00, 0, 0, 0 },
};

static void test_intel_names_match_perfmon(void **state)
{
	(void)state;
	need_libpfm();
	for (size_t i = 0; i < sizeof intel / sizeof intel[0]; i++) {
		const struct event_req *e = one(intel[i].name);
		uint64_t want = perfevtsel(intel[i].event, intel[i].umask, intel[i].cmask,
					   intel[i].inv, intel[i].edge);

		if (e->nalt != 1 || e->alt[0].vendor != EVENT_INTEL || e->alt[0].code != want)
			fail_msg("%s: nalt %u vendor %u code %#llx, want intel %#llx", intel[i].name,
				 e->nalt, e->nalt ? e->alt[0].vendor : 0,
				 e->nalt ? (unsigned long long)e->alt[0].code : 0ull,
				 (unsigned long long)want);
		assert_null(e->word);
		assert_null(e->def);
		assert_int_equal(e->period, EVENTS_RAW_PERIOD);
	}
}

/* The project's table and libpfm4 agree where both have the event. */
static void test_intel_agrees_with_table(void **state)
{
	(void)state;
	need_libpfm();
	assert_int_equal(one("skl::CYCLE_ACTIVITY.STALLS_TOTAL")->alt[0].code,
			 events_lookup("stalled-cycles-backend")->enc[EVENT_INTEL].code);
	assert_int_equal(one("skl::L1D.REPLACEMENT")->alt[0].code,
			 events_lookup("l1d-misses")->enc[EVENT_INTEL].code);
	assert_int_equal(one("icl::TOPDOWN.SLOTS_P")->alt[0].code,
			 events_lookup("slots")->enc[EVENT_INTEL].code);
}

/* libpfm4's spellings: ':' for '.', any case, modifiers, the default unit mask. */
static void test_intel_spellings(void **state)
{
	const struct event_req *e;

	(void)state;
	need_libpfm();
	e = one("skl::mem_load_retired:l1_miss:period=20000");
	assert_int_equal(e->alt[0].code, perfevtsel(0xd1, 0x08, 0, 0, 0));
	assert_int_equal(e->period, 20000);
	assert_string_equal(e->name, "mem_load_retired.l1_miss");
	/* skylake_core.json's INST_RETIRED.ANY_P with libpfm4's c= and i modifiers */
	e = one("skl::INST_RETIRED:ANY_P:c=2:i");
	assert_int_equal(e->alt[0].code, perfevtsel(0xc0, 0x00, 2, 1, 0));
	assert_string_equal(e->name, "INST_RETIRED.ANY_P.c.2.i");
	/* BR_INST_RETIRED alone: libpfm4's default unit mask, ALL_BRANCHES (0xc4/0x00) */
	assert_int_equal(one("skl::BR_INST_RETIRED")->alt[0].code, perfevtsel(0xc4, 0, 0, 0, 0));
}

/* icelake_core.json: INST_RETIRED.ANY is event 0x00 umask 0x01, "Fixed counter 0": the
 * word the target puts on that counter. */
static void test_fixed_counter_events(void **state)
{
	const struct event_req *e;

	(void)state;
	need_libpfm();
	e = one("icl::INST_RETIRED.ANY");
	assert_string_equal(e->word, "instructions");
	assert_int_equal(e->nalt, 0);
	char cfg[256];
	assert_true(events_config_line(e, 1, cfg, sizeof cfg) > 0);
	assert_string_equal(cfg, "event=1:instructions:100000:INST_RETIRED.ANY");
	/* TOPDOWN.SLOTS: event 0x00 umask 0x04, fixed counter 3, which has no word */
	bad("icl::TOPDOWN.SLOTS", "fixed counter", "TOPDOWN.SLOTS", "_P form", NULL);
}

static void test_amd_names(void **state)
{
	const struct event_req *e;

	(void)state;
	need_libpfm();
	/* PMCx0C0 retired instructions, as analysis/events/events.tsv has it for AMD */
	e = one("amd64_fam19h_zen3::RETIRED_INSTRUCTIONS");
	assert_int_equal(e->nalt, 1);
	assert_int_equal(e->alt[0].vendor, EVENT_AMD);
	assert_int_equal(e->alt[0].code, events_lookup("instructions")->enc[EVENT_AMD].code);
}

static void test_what_the_target_cannot_program(void **state)
{
	(void)state;
	need_libpfm();
	/* a load latency threshold in a second MSR */
	bad("skl::MEM_TRANS_RETIRED.LOAD_LATENCY", "needs 2 registers", NULL);
	bad("snbep_unc_cbo0::UNC_C_CLOCKTICKS", "not a core PMU", NULL);
	bad("skl::BR_INST_RETIRED.ALL_BRANCHES:intx", "above 31", NULL);
}

static void test_unknown_names_say_the_closest(void **state)
{
	(void)state;
	need_libpfm();
	bad("skl::MEM_LOAD_RETIRD.L1_MISS", "event not found", "libpfm4's skl",
	    "did you mean skl::MEM_LOAD_RETIRED.L1_MISS", NULL);
	bad("skl::MEM_LOAD_RETIRED.L1_MISSES", "did you mean skl::MEM_LOAD_RETIRED.L1_MISS", NULL);
	bad("sklx::INST_RETIRED", "'sklx' is not a libpfm4 PMU model (close: skl", "armv8", NULL);
	bad("icl::INST_RETIRED.ANY:bogus", "icl", NULL);
}

/* Unqualified names use BMPROF_PMU's model, and the Armv8 common events for Arm. */
static void test_default_model(void **state)
{
	const struct event_req *e;

	(void)state;
	need_libpfm();
	setenv(VENDOR_EVENTS_PMU_ENV, "icl", 1);
	e = one("mem_load_retired.l1_miss");
	assert_int_equal(e->nalt, 1);
	assert_int_equal(e->alt[0].vendor, EVENT_INTEL);
	assert_int_equal(e->alt[0].code, perfevtsel(0xd1, 0x08, 0, 0, 0));
	assert_string_equal(one("inst_retired.any")->word, "instructions");
	/* a name icl does not have: the Armv8 common event */
	e = one("L1D_CACHE_REFILL");
	assert_int_equal(e->nalt, 1);
	assert_int_equal(e->alt[0].vendor, EVENT_ARM);
	setenv(VENDOR_EVENTS_PMU_ENV, "nosuch", 1);
	bad("mem_load_retired.l1_miss", "BMPROF_PMU=nosuch is not a libpfm4 PMU model", NULL);
	unsetenv(VENDOR_EVENTS_PMU_ENV);
}

/* Rows of Arm's PMU data (ARM-software/data, pmu/ JSON files, 2024-02-08 and, for Neoverse N1,
 * 2025-01-17): name and code. */
static const struct {
	const char *name;
	uint16_t code;
} arm[] = {
	{ "armv8_pmuv3::L1D_CACHE_REFILL", 0x3 },     /* common_armv8.json */
	{ "armv8::CPU_CYCLES", 0x11 },
	{ "armv8::SAMPLE_FEED", 0x4001 },
	{ "arm_n1::L1D_CACHE_REFILL_RD", 0x42 },       /* neoverse-n1.json */
	{ "arm_neoverse_n1::BR_IMMED_SPEC", 0x78 },
	{ "arm_ac72::L1D_CACHE_REFILL_WR", 0x43 },     /* cortex-a72.json */
	{ "arm_v1::SVE_INST_SPEC", 0x8006 },           /* neoverse-v1.json */
	{ "armv9::TRB_WRAP", 0x400c },                 /* common_armv9.json */
	{ "L1D_CACHE_REFILL", 0x3 },                   /* unqualified: the common events */
	{ "stall_backend", 0x24 },
	{ "TRB_WRAP", 0x400c },
};

static void test_arm_names_match_arm_data(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof arm / sizeof arm[0]; i++) {
		const struct event_req *e = one(arm[i].name);
		unsigned k;

		for (k = 0; k < e->nalt && e->alt[k].vendor != EVENT_ARM; k++)
			;
		if (k == e->nalt || e->alt[k].code != arm[i].code)
			fail_msg("%s: no arm alternative %#x", arm[i].name, arm[i].code);
	}
	assert_string_equal(one("armv8_pmuv3::L1D_CACHE_REFILL")->name, "L1D_CACHE_REFILL");
	assert_int_equal(one("armv8_pmuv3::L1D_CACHE_REFILL")->nalt, 1);
}

static void test_arm_unknown_names(void **state)
{
	(void)state;
	bad("arm_n1::L1D_CACHE_REFIL", "arm_n1 has no event 'L1D_CACHE_REFIL'", "Neoverse N1",
	    "did you mean arm_n1::L1D_CACHE_REFILL", NULL);
	bad("armv8_pmuv3::CPU_CYCLE", "did you mean armv8_pmuv3::CPU_CYCLES", NULL);
	bad("L1D_CACHE_REFIL", "did you mean L1D_CACHE_REFILL", NULL);
	/* a name in bmprof's own style: no word about vendor models */
	struct event_list l = { 0 };
	char err[1024];
	assert_int_equal(events_parse(&l, "cycels", &sample, err, sizeof err), -1);
	assert_null(strstr(err, "libpfm4"));
}

/* Names reports use: after "::", reserved characters as '.', at most 31 characters. */
static void test_short_names(void **state)
{
	char out[EVENTS_NAME_MAX + 1];
	const char *n = "skl::MEM_LOAD_RETIRED:L1_MISS";

	(void)state;
	events_short_name(n, strlen(n), out, sizeof out);
	assert_string_equal(out, "MEM_LOAD_RETIRED.L1_MISS");
	n = "arm_n2::L1D_CACHE_REFILL_OUTER_AND_SOMETHING_LONG";
	events_short_name(n, strlen(n), out, sizeof out);
	assert_int_equal(strlen(out), EVENTS_NAME_MAX);
	assert_memory_equal(out, "L1D_CACHE_REFILL_OUTER_AND_SOME", EVENTS_NAME_MAX);
	events_short_name("INST_RETIRED:ANY_P:c=2", 22, out, sizeof out);
	assert_string_equal(out, "INST_RETIRED.ANY_P.c.2");
}

/* Built without libpfm4: an x86 vendor name says to install libpfm4-dev; Arm names still
 * work through bmprof's own models. */
static void test_without_libpfm(void **state)
{
	(void)state;
	if (vendor_events_have_libpfm())
		skip();
	bad("skl::MEM_LOAD_RETIRED.L1_MISS", "install libpfm4-dev", NULL);
	bad("inst_retired.any", "install libpfm4-dev", NULL);
	assert_int_equal(one("armv8_pmuv3::L1D_CACHE_REFILL")->alt[0].code, 0x3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intel_names_match_perfmon),
		cmocka_unit_test(test_intel_agrees_with_table),
		cmocka_unit_test(test_intel_spellings),
		cmocka_unit_test(test_fixed_counter_events),
		cmocka_unit_test(test_amd_names),
		cmocka_unit_test(test_what_the_target_cannot_program),
		cmocka_unit_test(test_unknown_names_say_the_closest),
		cmocka_unit_test(test_default_model),
		cmocka_unit_test(test_arm_names_match_arm_data),
		cmocka_unit_test(test_arm_unknown_names),
		cmocka_unit_test(test_short_names),
		cmocka_unit_test(test_without_libpfm),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
