/* SPDX-License-Identifier: BSD-2-Clause */
/* Named events and --event specs: the table against its TSV source, lookups and aliases,
 * spec parsing (named, raw, x86 and arm fields, groups, modifiers), every kind of bad spec,
 * the config lines sent to the target, and the names of the EVENT status fields. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "events.h"

static const struct events_opts sample = { .cycles_hz = 1000000000ull };
static const struct events_opts count = { .count = 1, .cycles_hz = 1000000000ull };

static struct event_list *parse_ok(const char *text, const struct events_opts *o)
{
	static struct event_list l;
	char err[1024] = "";

	memset(&l, 0, sizeof l);
	if (events_parse(&l, text, o, err, sizeof err))
		fail_msg("'%s' failed: %s", text, err);
	return &l;
}

/* text must fail with a message containing want; the list must be left as it was. */
static void parse_bad(const char *text, const char *want)
{
	struct event_list l;
	char err[1024] = "";

	memset(&l, 0, sizeof l);
	assert_int_equal(events_parse(&l, "cycles", &sample, err, sizeof err), 0);
	if (!events_parse(&l, text, &sample, err, sizeof err))
		fail_msg("'%s' was accepted", text);
	if (!strstr(err, want))
		fail_msg("'%s': error '%s' does not say '%s'", text, err, want);
	assert_non_null(strstr(err, "--event '"));
	assert_null(strchr(err, '\n'));
	assert_int_equal(l.n, 1);
	assert_int_equal(l.ngroups, 0);
}

static const char *line(const struct event_req *e, unsigned id)
{
	static char buf[256];

	assert_true(events_config_line(e, id, buf, sizeof buf) > 0);
	return buf;
}

/* ---- the table ---- */

/* The compiled table is analysis/events/events.tsv, row for row. */
static void test_table_matches_tsv(void **state)
{
	(void)state;
	FILE *f = fopen("analysis/events/events.tsv", "r");
	char buf[1024];
	unsigned row = 0;

	if (!f)
		fail_msg("cannot open analysis/events/events.tsv: run the test from the repository root");
	while (fgets(buf, sizeof buf, f)) {
		char *cell[11], *p = buf;
		unsigned n = 0;

		if (buf[0] == '#' || buf[0] == '\n')
			continue;
		buf[strcspn(buf, "\n")] = 0;
		while (n < 11) {
			cell[n++] = p;
			p = strchr(p, '\t');
			if (!p)
				break;
			*p++ = 0;
		}
		assert_int_equal(n, 11);
		assert_true(row < events_table_len);
		const struct event_def *d = &events_table[row++];
		assert_string_equal(d->name, cell[0]);
		assert_string_equal(d->aliases ? d->aliases : "", cell[1]);
		assert_string_equal(d->word ? d->word : "", cell[2]);
		assert_int_equal(d->period, strtoull(cell[3], NULL, 10));
		for (int v = 0; v < EVENT_NVENDORS; v++) {
			const char *code = cell[4 + 2 * v], *src = cell[5 + 2 * v];
			assert_int_equal(d->enc[v].have, *code != 0);
			if (*code) {
				assert_int_equal(d->enc[v].code, strtoull(code, NULL, 16));
				assert_string_equal(d->enc[v].source, src);
			}
		}
		assert_string_equal(d->description, cell[10]);
	}
	fclose(f);
	assert_int_equal(row, events_table_len);
}

static void test_table_contents(void **state)
{
	(void)state;
	static const char *const names[] = {
		"cycles", "instructions", "ref-cycles", "branches", "branch-misses",
		"cache-references", "cache-misses", "l1d-misses", "l1i-misses", "dtlb-misses",
		"itlb-misses", "stalled-cycles-frontend", "stalled-cycles-backend", "bus-cycles",
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		assert_non_null(events_lookup(names[i]));
	/* names unique, periods usable, each event known to at least one vendor */
	for (unsigned i = 0; i < events_table_len; i++) {
		const struct event_def *d = &events_table[i];
		assert_true(events_lookup(d->name) == d);
		assert_true(d->period >= EVENTS_MIN_PERIOD);
		assert_true(d->enc[0].have || d->enc[1].have || d->enc[2].have);
	}
	/* the architectural and PMUv3 common encodings */
	const struct event_def *d = events_lookup("cycles");
	assert_int_equal(d->enc[EVENT_INTEL].code, 0x3c);
	assert_int_equal(d->enc[EVENT_AMD].code, 0x76);
	assert_int_equal(d->enc[EVENT_ARM].code, 0x11);
	assert_string_equal(d->word, "cycles");
	d = events_lookup("ref-cycles");
	assert_int_equal(d->enc[EVENT_INTEL].code, 0x13c);
	assert_string_equal(d->word, "ref-cycles");
	d = events_lookup("cache-references");
	assert_int_equal(d->enc[EVENT_INTEL].code, 0x4f2e);
	assert_int_equal(events_lookup("cache-misses")->enc[EVENT_INTEL].code, 0x412e);
	assert_int_equal(events_lookup("cache-misses")->enc[EVENT_ARM].code, 0x37);
	assert_int_equal(events_lookup("branches")->enc[EVENT_INTEL].code, 0xc4);
	assert_int_equal(events_lookup("branches")->enc[EVENT_AMD].code, 0xc2);
	assert_int_equal(events_lookup("branches")->enc[EVENT_ARM].code, 0x21);
	assert_int_equal(events_lookup("branch-misses")->enc[EVENT_ARM].code, 0x22);
	assert_int_equal(events_lookup("slots")->enc[EVENT_INTEL].code, 0x1a4);
	assert_int_equal(events_lookup("l1d-misses")->enc[EVENT_ARM].code, 0x03);
	assert_int_equal(events_lookup("l1i-misses")->enc[EVENT_ARM].code, 0x01);
	assert_int_equal(events_lookup("dtlb-misses")->enc[EVENT_ARM].code, 0x05);
	assert_int_equal(events_lookup("itlb-misses")->enc[EVENT_ARM].code, 0x02);
	assert_int_equal(events_lookup("stalled-cycles-frontend")->enc[EVENT_ARM].code, 0x23);
	assert_int_equal(events_lookup("stalled-cycles-backend")->enc[EVENT_ARM].code, 0x24);
	/* no common Intel encoding for the L1I and TLB events */
	assert_false(events_lookup("l1i-misses")->enc[EVENT_INTEL].have);
	assert_false(events_lookup("dtlb-misses")->enc[EVENT_INTEL].have);
}

static void test_lookup_aliases(void **state)
{
	(void)state;
	assert_string_equal(events_lookup("branch-instructions")->name, "branches");
	assert_string_equal(events_lookup("l1d-loads-misses")->name, "l1d-misses");
	assert_string_equal(events_lookup("L1-dcache-load-misses")->name, "l1d-misses");
	assert_string_equal(events_lookup("CPU-Cycles")->name, "cycles");
	assert_string_equal(events_lookup("CYCLES")->name, "cycles");
	assert_null(events_lookup("cycle"));
	assert_null(events_lookup("cycles2"));
	assert_null(events_lookup(""));
	assert_null(events_lookup("branch"));

	char known[512];
	events_known_names(known, sizeof known);
	assert_true(!strncmp(known, "cycles, instructions, ref-cycles, branches", 42));
	events_known_names(known, 10);
	assert_int_equal(strlen(known), 9);
}

/* ---- parsing ---- */

static void test_parse_named(void **state)
{
	(void)state;
	struct event_list *l = parse_ok("cycles,instructions,branches,branch-misses", &sample);

	assert_int_equal(l->n, 4);
	assert_string_equal(l->ev[0].name, "cycles");
	assert_string_equal(l->ev[0].word, "cycles");
	assert_int_equal(l->ev[0].nalt, 0);
	assert_int_equal(l->ev[0].period, 1000000);
	assert_int_equal(l->ev[0].group, -1);
	assert_string_equal(l->ev[1].word, "instructions");
	assert_null(l->ev[2].word);
	assert_int_equal(l->ev[2].nalt, 3);
	assert_int_equal(l->ev[2].alt[0].vendor, EVENT_INTEL);
	assert_int_equal(l->ev[2].alt[0].code, 0xc4);
	assert_int_equal(l->ev[2].alt[1].vendor, EVENT_AMD);
	assert_int_equal(l->ev[2].alt[1].code, 0xc2);
	assert_int_equal(l->ev[2].alt[2].vendor, EVENT_ARM);
	assert_int_equal(l->ev[2].alt[2].code, 0x21);
	assert_int_equal(l->ev[2].period, 200000);
	assert_int_equal(l->ev[3].period, 10000);
	/* an alias gets the table's name; a vendor without the event has no alternative */
	l = parse_ok("branch-instructions,l1i-misses", &sample);
	assert_string_equal(l->ev[0].name, "branches");
	assert_int_equal(l->ev[1].nalt, 2);
	assert_int_equal(l->ev[1].alt[0].vendor, EVENT_AMD);
	assert_int_equal(l->ev[1].alt[1].vendor, EVENT_ARM);
}

static void test_parse_modifiers(void **state)
{
	(void)state;
	struct event_list *l = parse_ok("cycles:period=250000,instructions:period=0x30000", &sample);

	assert_int_equal(l->ev[0].period, 250000);
	assert_int_equal(l->ev[1].period, 0x30000);
	/* freq: period = cycle rate / HZ */
	l = parse_ok("cycles:freq=4000,ref-cycles:freq=1000", &sample);
	assert_int_equal(l->ev[0].period, 250000);
	assert_int_equal(l->ev[1].period, 1000000);
	l = parse_ok("cycles:freq=100000", &sample);
	assert_int_equal(l->ev[0].period, 10000);
	/* counting: no periods, modifiers ignored */
	l = parse_ok("cycles:period=20000,branches,{r11,arm/8/}", &count);
	assert_int_equal(l->n, 4);
	for (unsigned i = 0; i < l->n; i++)
		assert_int_equal(l->ev[i].period, 0);
	/* no cycle rate known: freq is refused */
	struct events_opts o = { .count = 0 };
	struct event_list l2 = { .n = 0 };
	char err[512];
	assert_int_equal(events_parse(&l2, "cycles:freq=1000", &o, err, sizeof err), -1);
	assert_non_null(strstr(err, "not known here: use :period=N"));
}

static void test_parse_raw(void **state)
{
	(void)state;
	struct event_list *l = parse_ok("r13c,rC4:period=50000,r0", &sample);

	assert_int_equal(l->n, 3);
	assert_int_equal(l->ev[0].nalt, 1);
	assert_int_equal(l->ev[0].alt[0].vendor, EVENT_ANY_VENDOR);
	assert_int_equal(l->ev[0].alt[0].code, 0x13c);
	assert_string_equal(l->ev[0].name, "r13c");
	assert_int_equal(l->ev[0].period, EVENTS_RAW_PERIOD);
	assert_null(l->ev[0].def);
	assert_int_equal(l->ev[1].alt[0].code, 0xc4);
	assert_string_equal(l->ev[1].name, "rc4");
	assert_int_equal(l->ev[1].period, 50000);
	assert_int_equal(l->ev[2].alt[0].code, 0);
	/* a table name that starts with r is not raw */
	l = parse_ok("ref-cycles", &sample);
	assert_string_equal(l->ev[0].word, "ref-cycles");
}

static void test_parse_x86_fields(void **state)
{
	(void)state;
	/* every field at its PERFEVTSEL position */
	struct event_list *l = parse_ok("x86/event=0x3c,umask=0x1,cmask=1,inv,edge,any/", &sample);
	assert_int_equal(l->n, 1);
	assert_int_equal(l->ev[0].nalt, 1);          /* any: Intel only */
	assert_int_equal(l->ev[0].alt[0].vendor, EVENT_INTEL);
	assert_int_equal(l->ev[0].alt[0].code,
			 0x3c | 0x1 << 8 | 1 << 18 | 1 << 21 | 1 << 23 | 1ull << 24);
	assert_int_equal(l->ev[0].alt[0].code, 0x01a4013cull);
	assert_string_equal(l->ev[0].name, "r1a4013c");

	l = parse_ok("x86/event=0xc0/", &sample);
	assert_int_equal(l->ev[0].nalt, 2);
	assert_int_equal(l->ev[0].alt[0].vendor, EVENT_INTEL);
	assert_int_equal(l->ev[0].alt[1].vendor, EVENT_AMD);
	assert_int_equal(l->ev[0].alt[0].code, 0xc0);
	assert_int_equal(l->ev[0].alt[1].code, 0xc0);

	/* umask and cmask at their full widths; inv=0 and edge=1 forms */
	l = parse_ok("cpu/event=0xa3,umask=0xff,cmask=0xff,inv=0,edge=1/:period=20000", &sample);
	assert_int_equal(l->ev[0].alt[0].code, 0xa3 | 0xffull << 8 | 1ull << 18 | 0xffull << 24);
	assert_int_equal(l->ev[0].period, 20000);

	/* AMD's extended event select: bits 11:8 go to 35:32, and Intel has no such event */
	l = parse_ok("x86/event=0x1d6,umask=2/", &sample);
	assert_int_equal(l->ev[0].nalt, 1);
	assert_int_equal(l->ev[0].alt[0].vendor, EVENT_AMD);
	assert_int_equal(l->ev[0].alt[0].code, 0x1000002d6ull);

	/* name= and period= as terms */
	l = parse_ok("x86/event=0x3c,name=my-cycles,period=30000/", &sample);
	assert_string_equal(l->ev[0].name, "my-cycles");
	assert_int_equal(l->ev[0].period, 30000);
}

static void test_parse_arm(void **state)
{
	(void)state;
	struct event_list *l = parse_ok("arm/0x11/,arm/event=8,name=insns/:period=40000,arm/0x4004/",
					&sample);

	assert_int_equal(l->n, 3);
	assert_int_equal(l->ev[0].nalt, 1);
	assert_int_equal(l->ev[0].alt[0].vendor, EVENT_ARM);
	assert_int_equal(l->ev[0].alt[0].code, 0x11);
	assert_string_equal(l->ev[0].name, "r11");
	assert_int_equal(l->ev[1].alt[0].code, 8);
	assert_string_equal(l->ev[1].name, "insns");
	assert_int_equal(l->ev[1].period, 40000);
	assert_int_equal(l->ev[2].alt[0].code, 0x4004);
}

static void test_parse_groups(void **state)
{
	(void)state;
	struct event_list *l = parse_ok("{cycles,instructions},branches,{r11,arm/8/:period=20000}",
					&sample);

	assert_int_equal(l->n, 5);
	assert_int_equal(l->ngroups, 2);
	assert_int_equal(l->ev[0].group, 0);
	assert_int_equal(l->ev[1].group, 0);
	assert_int_equal(l->ev[2].group, -1);
	assert_int_equal(l->ev[3].group, 1);
	assert_int_equal(l->ev[4].group, 1);
	assert_int_equal(l->ev[4].period, 20000);
	assert_string_equal(l->ev[2].name, "branches");

	/* a second --event appends, numbering its groups after the first's */
	char err[512];
	assert_int_equal(events_parse(l, "{branch-misses,cache-misses}", &sample, err, sizeof err), 0);
	assert_int_equal(l->n, 7);
	assert_int_equal(l->ngroups, 3);
	assert_int_equal(l->ev[5].group, 2);
	assert_int_equal(l->ev[6].group, 2);
	/* one member is a group too */
	l = parse_ok("{cycles}", &sample);
	assert_int_equal(l->ev[0].group, 0);
}

static void test_parse_errors(void **state)
{
	(void)state;
	parse_bad("", "no event given");
	parse_bad("cycels", "unknown event 'cycels': did you mean cycles? (known: cycles, instructions");
	parse_bad("cycels", "raw: rHEX");
	parse_bad("cycles,", "a comma at the end");
	parse_bad(",cycles", "an empty event");
	parse_bad("cycles,,instructions", "an empty event");
	parse_bad("rxyz", "unknown event 'rxyz'");
	parse_bad("r12345678901234567", "unknown event");
	parse_bad(":period=1000", "name is missing");
	parse_bad("cycles:period=5", "period=5: want 10000 to");
	parse_bad("cycles:period=abc", "period=abc: want a number");
	parse_bad("cycles:period=-20000", "want a number");
	parse_bad("cycles:period=20000:period=30000", "period given twice");
	parse_bad("cycles:foo=1", "unknown modifier 'foo'");
	parse_bad("cycles:period", "want :period=N or :freq=HZ");
	parse_bad("cycles:", "empty modifier");
	parse_bad("cycles:period=20000:", "empty modifier");
	parse_bad("cycles:period=20000:freq=10", "not both");
	parse_bad("branches:freq=1000", "known only for cycles");
	parse_bad("cycles:freq=0", "want a rate in Hz");
	parse_bad("cycles:freq=200000", "freq=200000 is too high: at most 100000 Hz");
	parse_bad("{cycles,instructions", "no closing '}'");
	parse_bad("cycles}", "'}' with no '{'");
	parse_bad("{}", "empty group");
	parse_bad("{cycles,}", "ends with ','");
	parse_bad("{cycles,{instructions}}", "do not nest");
	parse_bad("{cycles,instructions}:period=20000", "modifiers go on the events inside");
	parse_bad("{cycles}x", "after a group");
	parse_bad("x86/event=0x3c", "no closing '/'");
	parse_bad("x86/umask=1/", "needs event=");
	parse_bad("x86/event=0x1000/", "event=0x1000: want a number from 0 to 0xfff");
	parse_bad("x86/event=0x3c,umask=0x100/", "umask=0x100");
	parse_bad("x86/event=0x3c,cmask=256/", "cmask=256");
	parse_bad("x86/event=0x3c,inv=2/", "inv=2");
	parse_bad("x86/event=0x3c,bogus=1/", "unknown x86 term 'bogus'");
	parse_bad("x86/event=0x3c,,umask=1/", "empty term");
	parse_bad("x86/event/", "event=: want a number");
	parse_bad("x86/event=0x1d6,any/", "no CPU has both");
	parse_bad("x86/event=0x3c/junk", "after the closing '/'");
	parse_bad("x86/event=0x3c,name=a:b/", "name=a:b");
	parse_bad("x86/event=0x3c,name=abcdefghijabcdefghijabcdefghij12/", "1 to 31");
	parse_bad("arm/0x10000/", "not a PMUv3 event number");
	parse_bad("arm//", "needs an event number");
	parse_bad("arm/name=x/", "needs an event number");
	parse_bad("arm/0x11,foo=1/", "unknown arm term 'foo'");
	parse_bad("intel/0x3c/", "unknown PMU 'intel/'");
	parse_bad("cycles/x/", "unknown PMU 'cycles/'");
	parse_bad("cycles/", "no closing '/'");
	/* the table's limit */
	parse_bad("r1,r2,r3,r4,r5,r6,r7,r8,r9,ra,rb,rc,rd,re,rf,r10", "more than 16 events");
}

static void test_config_lines(void **state)
{
	(void)state;
	struct event_list *l = parse_ok("cycles,instructions:period=2000000,branches,"
					"{r13c,x86/event=0xc4,umask=1/},arm/0x11/:period=30000,"
					"l1i-misses,ref-cycles",
					&sample);

	assert_string_equal(line(&l->ev[0], 1), "event=1:cycles:1000000:cycles");
	assert_string_equal(line(&l->ev[1], 2), "event=2:instructions:2000000:instructions");
	assert_string_equal(line(&l->ev[2], 3), "event=3:intel.c4/amd.c2/arm.21:200000:branches");
	assert_string_equal(line(&l->ev[3], 4), "event=4:13c:100000:r13c:0");
	assert_string_equal(line(&l->ev[4], 5), "event=5:intel.1c4/amd.1c4:100000:r1c4:0");
	assert_string_equal(line(&l->ev[5], 6), "event=6:arm.11:30000:r11");
	assert_string_equal(line(&l->ev[6], 7), "event=7:amd.81/arm.1:10000:l1i-misses");
	assert_string_equal(line(&l->ev[7], 8), "event=8:ref-cycles:1000000:ref-cycles");

	char small[16];
	assert_int_equal(events_config_line(&l->ev[2], 3, small, sizeof small), -1);

	char cfg[EVENTS_CONFIG_MAX + 64];
	l = parse_ok("cycles,{branches,branch-misses}", &count);
	int n = events_config(l, 1, 1000, cfg, sizeof cfg);
	assert_string_equal(cfg, "mode=count\nfreq=1000\n"
			    "event=1:cycles:0:cycles\n"
			    "event=2:intel.c4/amd.c2/arm.21:0:branches:0\n"
			    "event=3:intel.c5/amd.c3/arm.22:0:branch-misses:0\n");
	assert_int_equal(n, (int)strlen(cfg));
	l = parse_ok("cycles", &sample);
	n = events_config(l, 0, 4000, cfg, sizeof cfg);
	assert_string_equal(cfg, "freq=4000\nevent=1:cycles:1000000:cycles\n");
	/* no events: the timer alone */
	struct event_list none = { .n = 0 };
	assert_true(events_config(&none, 0, 250, cfg, sizeof cfg) > 0);
	assert_string_equal(cfg, "freq=250\n");
	/* too long for the buffer, or for the runtimes' 1024 bytes */
	assert_int_equal(events_config(l, 0, 4000, cfg, 20), -1);
	l = parse_ok("x86/event=0x3c,cmask=0xff,name=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1/,"
		     "x86/event=0x3c,cmask=0xff,name=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa2/,"
		     "x86/event=0x3c,cmask=0xff,name=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa3/,"
		     "x86/event=0x3c,cmask=0xff,name=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa4/,"
		     "x86/event=0x3c,cmask=0xff,name=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa5/,"
		     "x86/event=0x3c,cmask=0xff,name=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa6/,"
		     "x86/event=0x3c,cmask=0xff,name=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa7/,"
		     "x86/event=0x3c,cmask=0xff,name=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa8/,"
		     "x86/event=0x3c,cmask=0xff,name=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa9/,"
		     "x86/event=0x3c,cmask=0xff,name=aaaaaaaaaaaaaaaaaaaaaaaaaaaaab0/,"
		     "x86/event=0x3c,cmask=0xff,name=aaaaaaaaaaaaaaaaaaaaaaaaaaaaab1/,"
		     "x86/event=0x3c,cmask=0xff,name=aaaaaaaaaaaaaaaaaaaaaaaaaaaaab2/,"
		     "x86/event=0x3c,cmask=0xff,name=aaaaaaaaaaaaaaaaaaaaaaaaaaaaab3/,"
		     "x86/event=0x3c,cmask=0xff,name=aaaaaaaaaaaaaaaaaaaaaaaaaaaaab4/,"
		     "x86/event=0x3c,cmask=0xff,name=aaaaaaaaaaaaaaaaaaaaaaaaaaaaab5/,"
		     "x86/event=0x3c,cmask=0xff,name=aaaaaaaaaaaaaaaaaaaaaaaaaaaaab6/", &sample);
	assert_int_equal(l->n, 16);
	assert_int_equal(events_config(l, 0, 4000, cfg, sizeof cfg), -1);
}

static void test_status_names(void **state)
{
	(void)state;
	char buf[256];
	struct profile_event e = { .status = BMPROF_EVST_FALLBACK, .reason = BMPROF_EVR_NO_PMU,
				   .counter_kind = BMPROF_CTR_TIMER, .counter = 0xff };

	assert_string_equal(events_status_name(BMPROF_EVST_ACTIVE), "active");
	assert_string_equal(events_status_name(BMPROF_EVST_UNAVAILABLE), "unavailable");
	assert_string_equal(events_status_name(BMPROF_EVST_FALLBACK), "fallback");
	assert_string_equal(events_status_name(9), "unknown");
	assert_string_equal(events_reason_name(BMPROF_EVR_NO_PMU), "no_pmu");
	assert_string_equal(events_reason_name(BMPROF_EVR_UNSUPPORTED), "unsupported");
	assert_string_equal(events_reason_name(BMPROF_EVR_NO_COUNTER), "no_counter");
	assert_string_equal(events_reason_name(BMPROF_EVR_BAD_ENCODING), "bad_encoding");
	assert_string_equal(events_reason_name(BMPROF_EVR_NO_OVERFLOW), "no_overflow");
	assert_string_equal(events_reason_name(77), "unknown");
	assert_string_equal(events_counter_kind_name(BMPROF_CTR_GP), "gp");
	assert_string_equal(events_counter_kind_name(BMPROF_CTR_FIXED), "fixed");
	assert_string_equal(events_counter_kind_name(BMPROF_CTR_TIMER), "timer");

	assert_string_equal(events_status_text(buf, sizeof buf, &e),
			    "not counted: no PMU on this CPU; sampled by the timer instead");
	assert_string_equal(events_counter_text(buf, sizeof buf, &e, BMPROF_ARCH_X86_64), "timer");
	e.status = BMPROF_EVST_UNAVAILABLE;
	e.reason = BMPROF_EVR_UNSUPPORTED;
	assert_string_equal(events_status_text(buf, sizeof buf, &e),
			    "not counted: this CPU does not implement the event");
	e.status = BMPROF_EVST_ACTIVE;
	assert_string_equal(events_status_text(buf, sizeof buf, &e), "");
	e.counter_kind = BMPROF_CTR_GP;
	e.counter = 3;
	assert_string_equal(events_counter_text(buf, sizeof buf, &e, BMPROF_ARCH_AARCH64),
			    "PMU counter 3");
	e.counter_kind = BMPROF_CTR_FIXED;
	e.counter = 1;
	assert_string_equal(events_counter_text(buf, sizeof buf, &e, BMPROF_ARCH_X86_64),
			    "fixed counter 1");
	assert_string_equal(events_counter_text(buf, sizeof buf, &e, BMPROF_ARCH_AARCH64),
			    "cycle counter PMCCNTR_EL0");
	e.counter_kind = BMPROF_CTR_NONE;
	assert_string_equal(events_counter_text(buf, sizeof buf, &e, BMPROF_ARCH_X86_64),
			    "no counter");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_matches_tsv),
		cmocka_unit_test(test_table_contents),
		cmocka_unit_test(test_lookup_aliases),
		cmocka_unit_test(test_parse_named),
		cmocka_unit_test(test_parse_modifiers),
		cmocka_unit_test(test_parse_raw),
		cmocka_unit_test(test_parse_x86_fields),
		cmocka_unit_test(test_parse_arm),
		cmocka_unit_test(test_parse_groups),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_config_lines),
		cmocka_unit_test(test_status_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
