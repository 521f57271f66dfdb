/* SPDX-License-Identifier: BSD-2-Clause */
/* Replays a harness's committed inputs (tests/fuzz/corpus/<h> and tests/fuzz/regress/<h>)
 * through its LLVMFuzzerTestOneInput as a cmocka test, so the unit-test build (gcc, and
 * ASan + UBSan under SAN=1) checks every seed and reproducer without clang or libFuzzer.
 * A tests/unit/test_fuzz_<h>.c includes the harness with LLVMFuzzerTestOneInput renamed to
 * fuzz_one, then this, then REPLAY_MAIN("<h>"). Run from the repository root. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static unsigned replay_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[1024];
		FILE *f;
		uint8_t *buf;
		long len;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		f = fopen(path, "rb");
		assert_non_null(f);
		assert_int_equal(fseek(f, 0, SEEK_END), 0);
		len = ftell(f);
		rewind(f);
		buf = malloc(len ? (size_t)len : 1);
		assert_non_null(buf);
		assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
		fclose(f);
		fuzz_one(buf, (size_t)len);
		free(buf);
		n++;
	}
	closedir(d);
	return n;
}

static const char *replay_name;

static void test_replay(void **state)
{
	char dir[256];
	unsigned n;

	(void)state;
	snprintf(dir, sizeof(dir), "tests/fuzz/corpus/%s", replay_name);
	n = replay_dir(dir);
	if (!n)
		fprintf(stderr, "no seeds in %s: run from the repository root\n", dir);
	assert_true(n > 0);
	snprintf(dir, sizeof(dir), "tests/fuzz/regress/%s", replay_name);
	print_message("%s: %u seeds and %u reproducers ran clean\n", replay_name, n,
		      replay_dir(dir));
}

#define REPLAY_MAIN(NAME)                                                           \
	int main(void)                                                              \
	{                                                                           \
		const struct CMUnitTest tests[] = { cmocka_unit_test(test_replay) }; \
		replay_name = NAME;                                                 \
		return cmocka_run_group_tests(tests, NULL, NULL);                   \
	}
