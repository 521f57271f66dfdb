/* SPDX-License-Identifier: BSD-2-Clause */
/* The run options bmprof qemu and bmprof stat share: --param NAME=VALUE checked, collected
 * for the meta, and turned into config lines with --user. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "run/run_opts.h"

static void test_check_param(void **state)
{
	static const char *const bad[] = {
		"", "=1", "x", "x=", "1x=2", "a-b=1", "a b=1", "x=-1", "x=1a", "x=0x", "x=0xg",
		"x= 1", "x=18446744073709551616", "x=0x10000000000000000",
		"abcdefghijklmnopqrstuvwxyz012345=1",
	};
	unsigned long long v;
	char err[256];

	assert_int_equal(run_opts_check_param("n=42", &v, err, sizeof err), 0);
	assert_int_equal(v, 42);
	assert_int_equal(run_opts_check_param("_A9=0x1F", &v, err, sizeof err), 0);
	assert_int_equal(v, 0x1f);
	assert_int_equal(run_opts_check_param("x=18446744073709551615", &v, err, sizeof err), 0);
	assert_true(v == 18446744073709551615ull);
	assert_int_equal(run_opts_check_param("abcdefghijklmnopqrstuvwxyz01234=0", &v, err,
					      sizeof err), 0);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = 0;
		assert_int_equal(run_opts_check_param(bad[i], &v, err, sizeof err), -1);
		assert_non_null(strstr(err, "--param"));
		assert_null(strchr(err, '\n'));
	}
}

static void test_params_and_config(void **state)
{
	struct run_opts o;
	char buf[EVENTS_CONFIG_MAX + 1], name[40];

	run_opts_init(&o, "qemu", (struct events_opts){ .count = 0 });
	assert_int_equal(run_opts_config(&o, NULL, 250, buf, sizeof buf), 9);
	assert_string_equal(buf, "freq=250\n");
	assert_int_equal(run_opts_add_param(&o, "a=1"), 0);
	assert_int_equal(run_opts_add_param(&o, "b=0x2"), 0);
	assert_int_equal(run_opts_add_param(&o, "bad"), -1);
	assert_string_equal(o.params, "a=1,b=0x2");
	assert_int_equal(o.nparams, 2);
	o.user = 1;
	assert_true(run_opts_config(&o, NULL, 250, buf, sizeof buf) > 0);
	assert_string_equal(buf, "freq=250\nparam=a=1\nparam=b=0x2\nuser=1\n");
	/* after the events' config, with or without its last newline */
	assert_true(run_opts_config(&o, "mode=count\nfreq=10", 0, buf, sizeof buf) > 0);
	assert_string_equal(buf, "mode=count\nfreq=10\nparam=a=1\nparam=b=0x2\nuser=1\n");
	/* the runtimes keep 32 parameters */
	for (unsigned i = 2; i < RUN_OPTS_MAX_PARAMS; i++) {
		snprintf(name, sizeof name, "p%u=%u", i, i);
		assert_int_equal(run_opts_add_param(&o, name), 0);
	}
	assert_int_equal(run_opts_add_param(&o, "one_more=1"), -1);
	run_opts_free(&o);

	/* the config has a limit: the runtime's 1024 bytes */
	run_opts_init(&o, "qemu", (struct events_opts){ .count = 0 });
	for (unsigned i = 0; i < RUN_OPTS_MAX_PARAMS; i++) {
		snprintf(name, sizeof name, "p%016u=%u", i, 0xffffffffu);
		assert_int_equal(run_opts_add_param(&o, name), 0);
	}
	assert_int_equal(run_opts_config(&o, NULL, 1000, buf, sizeof buf), -1);
	run_opts_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_param),
		cmocka_unit_test(test_params_and_config),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
