/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof topdown's inputs: counts files (jansson: any valid JSON number, errors with their
 * line, a size bound before parsing) into counter totals with the CPU identity (groups, null values,
 * multiplexed-out events, every kind of bad file), and a profile's COUNTS mapped through its
 * topdown_events meta key. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "topdown/topdown_input.h"

static void test_counts_file(void **state)
{
	static struct td_input in;
	const char *text =
		"{ \"format\": \"bmprof-topdown-counts\", \"version\": 1, \"extra\": 1,\n"
		"  \"cpu\": { \"arch\": \"x86_64\", \"vendor\": \"GenuineIntel\", \"family\": 6,\n"
		"           \"model\": \"0x5e\", \"gp_counters\": 4 },\n"
		"  \"counts\": [\n"
		"    { \"event\": \"CPU_CLK_UNHALTED.THREAD\", \"value\": 1000, \"group\": 2,\n"
		"      \"enabled\": 10, \"running\": 5 },\n"
		"    { \"event\": \"UOPS_ISSUED.ANY\", \"value\": null, \"state\": \"not supported\" },\n"
		"    { \"event\": \"IDQ.MS_UOPS\", \"value\": 5, \"enabled\": 10, \"running\": 0 },\n"
		"    { \"event\": \"X\", \"value\": null, \"why\": \"lost\" } ] }";
	char err[300];

	(void)state;
	assert_int_equal(td_input_json("f.json", text, strlen(text), &in, err, sizeof err), 0);
	assert_string_equal(in.arch, "x86_64");
	assert_string_equal(in.vendor, "GenuineIntel");
	assert_int_equal(in.family, 6);
	assert_int_equal(in.model, 0x5e);
	assert_int_equal(in.gp, 4);
	assert_int_equal(in.counts.n, 4);
	assert_string_equal(in.counts.c[0].event, "CPU_CLK_UNHALTED.THREAD");
	assert_int_equal(in.counts.c[0].group, 2);
	assert_int_equal(in.counts.c[0].state, TD_COUNTED);
	assert_true(in.counts.c[0].value == 1000 && in.counts.c[0].enabled == 10 &&
		    in.counts.c[0].running == 5);
	assert_int_equal(in.counts.c[1].state, TD_UNSUPPORTED);
	assert_int_equal(in.counts.c[1].group, -1);
	assert_int_equal(in.counts.c[2].state, TD_NOT_COUNTED);      /* enabled, never running */
	assert_string_equal(in.counts.c[2].why, "never on a counter (multiplexed out)");
	assert_int_equal(in.counts.c[3].state, TD_NOT_COUNTED);
	assert_string_equal(in.counts.c[3].why, "lost");
}

static void bad_counts(const char *text, const char *want)
{
	static struct td_input in;
	char err[300] = "";

	assert_int_equal(td_input_json("f.json", text, strlen(text), &in, err, sizeof err), -1);
	if (!strstr(err, want))
		fail_msg("'%s': '%s', want '%s'", text, err, want);
	assert_non_null(strstr(err, "f.json: "));
}

#define HEAD "{ \"format\": \"bmprof-topdown-counts\", \"version\": 1, "
#define CPU "\"cpu\": { \"topdown_family\": \"intel-skl\" }, "

static void test_counts_errors(void **state)
{
	(void)state;
	bad_counts("[1]", "not a counts file");
	bad_counts("{ \"format\": \"other\" }", "not a counts file");
	bad_counts("{ \"format\": \"bmprof-topdown-counts\", \"version\": 2 }", "\"version\" must be 1");
	bad_counts(HEAD "\"counts\": [] }", "no \"cpu\" object");
	bad_counts(HEAD "\"cpu\": {}, \"counts\": [] }", "cpu needs \"arch\"");
	bad_counts(HEAD "\"cpu\": { \"arch\": \"riscv\" }, \"counts\": [] }", "cpu.arch must be");
	bad_counts(HEAD "\"cpu\": { \"arch\": \"x86_64\", \"model\": \"zz\" }, \"counts\": [] }",
		   "cpu.model must be a number");
	bad_counts(HEAD CPU "\"counts\": {} }", "no \"counts\" array");
	bad_counts(HEAD CPU "\"counts\": [ { \"value\": 1 } ] }", "counts[0] needs \"event\"");
	bad_counts(HEAD CPU "\"counts\": [ { \"event\": \"A\", \"value\": \"x\" } ] }",
		   "counts[0].value must be a count");
	bad_counts(HEAD CPU "\"counts\": [ { \"event\": \"A\", \"value\": 1, \"group\": 1.5 } ] }",
		   "counts[0].group must be a whole number");
	bad_counts(HEAD CPU "\"counts\": [ { \"event\": \"A\", \"value\": 1, \"enabled\": 1, "
		   "\"running\": 2 } ] }", "running (2) is more than enabled (1)");
	bad_counts(HEAD CPU "\"counts\": [ 1, ", "not valid JSON: line 1");
	bad_counts(HEAD CPU "\n\n\"counts\": [ 1 2 ] }", "not valid JSON: line 3");
	bad_counts(HEAD CPU "\"counts\": [ { \"event\": \"A\\u0000B\", \"value\": 1 } ] }",
		   "not valid JSON");
}

/* Every valid JSON number: 1.8e23, counts past 2^63, exponents; a repeated key's last
 * value; and a file past the bound is refused before it is parsed. */
static void test_counts_numbers(void **state)
{
	static struct td_input in;
	const char *text = HEAD CPU "\"counts\": [ { \"event\": \"A\", \"value\": 1.8e23 },"
		" { \"event\": \"B\", \"value\": 18446744073709551615, \"enabled\": 2E3,"
		" \"running\": 2000 }, { \"event\": \"C\", \"value\": 1, \"value\": 7 } ] }";
	char err[300], *big;
	size_t n = (1u << 20) + 100;

	(void)state;
	assert_int_equal(td_input_json("f.json", text, strlen(text), &in, err, sizeof err), 0);
	assert_true(in.counts.c[0].value == 1.8e23);
	assert_true(in.counts.c[1].value == 18446744073709551615.0);
	assert_true(in.counts.c[1].enabled == 2000 && in.counts.c[1].running == 2000);
	assert_true(in.counts.c[2].value == 7);
	big = malloc(n);
	assert_non_null(big);
	memset(big, ' ', n);
	memcpy(big, HEAD, strlen(HEAD));
	assert_int_equal(td_input_json("f.json", big, n, &in, err, sizeof err), -1);
	assert_non_null(strstr(err, "bytes: a counts file of at most 256 counts"));
	free(big);
}

/* A profile as a live run leaves it: HELLO, EVENT frames, COUNTS, and the meta map. */
static void test_profile_counts(void **state)
{
	static struct profile p;
	static struct td_input in;
	char err[300];

	(void)state;
	profile_init(&p);
	p.have_hello = 1;
	p.hello.arch = BMPROF_ARCH_AARCH64;
	snprintf(p.hello.vendor, sizeof p.hello.vendor, "software");
	p.hello.model = 0x51;
	p.nevents = 3;
	for (unsigned i = 0; i < 3; i++) {
		p.events[i].id = (uint16_t)(i + 1);
		p.events[i].have_status = 1;
		p.events[i].status = BMPROF_EVST_ACTIVE;
		snprintf(p.events[i].name, sizeof p.events[i].name, "td%u", i + 1);
	}
	p.events[2].status = BMPROF_EVST_UNAVAILABLE;
	p.events[2].reason = BMPROF_EVR_UNSUPPORTED;
	p.counts = calloc(2, sizeof *p.counts);
	p.counts_cap = 2;
	p.ncounts = 2;
	p.counts[0] = (struct profile_count){ 0, 1, 0, 1000, 20, 10 };
	p.counts[1] = (struct profile_count){ 0, 2, 0, 30, 20, 10 };
	assert_int_equal(profile_set_meta(&p, TD_META_KEY,
					  "1:0:CPU_CYCLES 2:0:STALL_FRONTEND 3:1:OP_SPEC 4:1:OP_RETIRED"),
			 0);
	assert_int_equal(profile_set_meta(&p, "topdown_family", "arm-pmuv3"), 0);
	assert_int_equal(td_input_profile(&p, &in, err, sizeof err), 0);
	assert_string_equal(in.arch, "aarch64");
	assert_string_equal(in.family_name, "arm-pmuv3");
	assert_int_equal(in.counts.n, 4);
	assert_string_equal(in.counts.c[0].event, "CPU_CYCLES");
	assert_true(in.counts.c[0].state == TD_COUNTED && in.counts.c[0].value == 1000 &&
		    in.counts.c[0].enabled == 20 && in.counts.c[0].running == 10);
	assert_int_equal(in.counts.c[1].group, 0);
	assert_int_equal(in.counts.c[2].state, TD_UNSUPPORTED);
	assert_int_equal(in.counts.c[2].group, 1);
	assert_int_equal(in.counts.c[3].state, TD_NOT_COUNTED);       /* no EVENT 4 */
	assert_string_equal(in.counts.c[3].why, "the image described no event 4");
	assert_int_equal(profile_set_meta(&p, TD_META_KEY, "1:x"), 0);
	assert_int_equal(td_input_profile(&p, &in, err, sizeof err), -1);
	assert_non_null(strstr(err, "malformed"));
	profile_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_numbers),
		cmocka_unit_test(test_counts_file),
		cmocka_unit_test(test_counts_errors),
		cmocka_unit_test(test_profile_counts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
