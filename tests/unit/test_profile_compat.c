/* SPDX-License-Identifier: BSD-2-Clause */
/* Profiles written before call stacks (wire version 1) still load: tests/fixtures/
 * profile-wire1.data was recorded by bmprof before wire version 2 (shares.elf, timer at
 * 2 kHz under -icount), and loads with its samples, totals and no chains. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "profile.h"
#include "profile/profile_io.h"

static void test_wire1_profile_loads(void **state)
{
	struct profile p;
	char err[512];

	(void)state;
	profile_init(&p);
	assert_int_equal(profile_load("tests/fixtures/profile-wire1.data", &p, err, sizeof err), 0);
	assert_true(p.have_hello);
	assert_int_equal(p.hello.version, 1);
	assert_true(p.hello.version < BMPROF_WIRE_VERSION);
	assert_int_equal(p.total, 827);
	assert_true(p.cpus[0].have_totals);
	assert_int_equal(p.cpus[0].totals[BMPROF_TOTAL_TAKEN], 827);
	assert_int_equal(p.cpus[0].totals[BMPROF_TOTAL_DELIVERED], 827);
	/* fields that version did not send read as 0 */
	assert_int_equal(p.cpus[0].totals[BMPROF_TOTAL_STACK_FULL], 0);
	assert_false(profile_has_stacks(&p));
	assert_int_equal(p.frames_unknown, 0);
	assert_int_equal(p.frames_malformed, 0);
	profile_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wire1_profile_loads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
