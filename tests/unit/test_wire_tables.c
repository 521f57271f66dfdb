/* SPDX-License-Identifier: BSD-2-Clause */
/* What the target and the host must agree on beyond the wire's layout: the words for the
 * wire's enums (transport/wire_text.h, used by both) name every value once, and the
 * encodings the target gives the words cycles, instructions, ref-cycles and topdown-slots
 * (target/core/pmu_parse.c) are the ones analysis/events/events.tsv lists for each
 * vendor. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "bmprof_pmu.h"
#include "wire.h"
#include "wire_text.h"
#include "events.h"
#include "../../target/core/pmu_internal.h"

typedef const char *(*namer)(unsigned);

/* Values first..last each have a name of their own, and the next one is unknown. */
static void each_named(namer f, unsigned first, unsigned last, const char *unknown)
{
	for (unsigned v = first; v <= last; v++) {
		const char *s = f(v);
		assert_non_null(s);
		assert_true(strlen(s) > 0);
		assert_string_not_equal(s, unknown);
		for (unsigned w = first; w < v; w++)
			assert_string_not_equal(s, f(w));
	}
	assert_string_equal(f(last + 1), unknown);
	assert_string_equal(f(250), unknown);
}

static void test_enum_names(void **state)
{
	(void)state;
	each_named(bmprof_arch_name, BMPROF_ARCH_X86_64, BMPROF_ARCH_RISCV64, "unknown");
	each_named(bmprof_source_name, BMPROF_SOURCE_TIMER, BMPROF_SOURCE_PMU_FIXED, "unknown");
	each_named(bmprof_event_status_name, BMPROF_EVST_ACTIVE, BMPROF_EVST_FALLBACK, "unknown");
	each_named(bmprof_event_reason_name, BMPROF_EVR_NONE, BMPROF_EVR_NO_OVERFLOW, "unknown");
	each_named(bmprof_event_reason_text, BMPROF_EVR_NONE, BMPROF_EVR_NO_OVERFLOW,
		   "an unknown reason");
	each_named(bmprof_counter_kind_name, BMPROF_CTR_NONE, BMPROF_CTR_TIMER, "unknown");
	each_named(bmprof_end_reason_name, BMPROF_END_EXIT, BMPROF_END_PANIC, "unknown");
	each_named(bmprof_log_level_name, BMPROF_LOG_ERROR, BMPROF_LOG_INFO, "unknown");
	/* the host's JSON words are these */
	assert_string_equal(events_reason_name(BMPROF_EVR_NO_PMU),
			    bmprof_event_reason_name(BMPROF_EVR_NO_PMU));
	assert_string_equal(events_reason_text(BMPROF_EVR_NO_OVERFLOW),
			    bmprof_event_reason_text(BMPROF_EVR_NO_OVERFLOW));
}

/* The line the runtimes log and the host's status text are the same words. */
static void test_status_phrases(void **state)
{
	struct profile_event e = { .status = BMPROF_EVST_FALLBACK, .reason = BMPROF_EVR_NO_PMU };
	char host[160], target[160];

	(void)state;
	assert_null(bmprof_event_status_lead(BMPROF_EVST_ACTIVE, BMPROF_EVR_NONE));
	assert_non_null(bmprof_event_status_lead(BMPROF_EVST_ACTIVE, BMPROF_EVR_NO_OVERFLOW));
	for (unsigned st = BMPROF_EVST_UNAVAILABLE; st <= BMPROF_EVST_FALLBACK; st++)
		for (unsigned r = BMPROF_EVR_NO_PMU; r <= BMPROF_EVR_NO_OVERFLOW; r++) {
			e.status = (uint8_t)st;
			e.reason = (uint8_t)r;
			snprintf(target, sizeof target, "%s%s%s", bmprof_event_status_lead(st, r),
				 bmprof_event_reason_text(r), bmprof_event_status_tail(st));
			assert_string_equal(events_status_text(host, sizeof host, &e), target);
		}
	assert_string_equal(target, "not counted: its counter cannot interrupt on overflow here; "
			    "sampled by the timer instead");
}

/* events.tsv's vendor columns, in the target's vendor numbering */
static const struct {
	uint8_t target;
	unsigned tsv;
} vendors[] = {
	{ BMPROF_VENDOR_INTEL, EVENT_INTEL },
	{ BMPROF_VENDOR_AMD, EVENT_AMD },
	{ BMPROF_VENDOR_ARM, EVENT_ARM },
};

/* The word's event as the target parses it for a vendor: its fixed kind and GP encoding. */
static void target_word(const char *word, uint8_t vendor, uint8_t *kind, uint64_t *enc)
{
	static struct bmprof_pmu p;
	char spec[64];

	memset(&p, 0, sizeof p);
	snprintf(spec, sizeof spec, "1:%s:0", word);
	assert_int_equal(bmprof_pmu_parse_event(&p, spec, (unsigned)strlen(spec), vendor), 0);
	*kind = p.ev[0].fixed;
	*enc = p.ev[0].encoding;
}

/* Every event of events.tsv with a word: the target knows the word, and its encoding for
 * each vendor is the TSV's (0 where the TSV has none). */
static void test_word_encodings(void **state)
{
	unsigned words = 0;

	(void)state;
	for (unsigned i = 0; i < events_table_len; i++) {
		const struct event_def *d = &events_table[i];
		if (!d->word)
			continue;
		words++;
		for (unsigned v = 0; v < sizeof vendors / sizeof vendors[0]; v++) {
			const struct event_enc *want = &d->enc[vendors[v].tsv];
			uint8_t kind;
			uint64_t enc;

			target_word(d->word, vendors[v].target, &kind, &enc);
			assert_int_not_equal(kind, BMPROF_FIXED_NONE);
			if (enc != (want->have ? want->code : 0))
				fail_msg("%s, vendor %u: the target encodes %#llx, events.tsv %#llx",
					 d->word, vendors[v].target, (unsigned long long)enc,
					 (unsigned long long)(want->have ? want->code : 0));
			assert_true(bmprof_pmu_word_encoding(kind, vendors[v].target) == enc);
		}
	}
	assert_int_equal(words, 3);   /* cycles, instructions, ref-cycles */
}

/* topdown-slots, the target's other word with a GP encoding, is events.tsv's slots. */
static void test_slots_encoding(void **state)
{
	const struct event_def *d = events_lookup("topdown-slots");
	uint8_t kind;
	uint64_t enc;

	(void)state;
	assert_non_null(d);
	for (unsigned v = 0; v < sizeof vendors / sizeof vendors[0]; v++) {
		const struct event_enc *want = &d->enc[vendors[v].tsv];
		target_word("topdown-slots", vendors[v].target, &kind, &enc);
		assert_int_equal(kind, BMPROF_FIXED_SLOTS);
		assert_true(enc == (want->have ? want->code : 0));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_enum_names),
		cmocka_unit_test(test_status_phrases),
		cmocka_unit_test(test_word_encodings),
		cmocka_unit_test(test_slots_encoding),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
