/* SPDX-License-Identifier: BSD-2-Clause */
/* Loading profile files: from memory the same as from a file, and refusals and warnings in
 * one line whatever bytes the file holds. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "profile/profile_io.h"

struct bytes {
	uint8_t *p;
	size_t n;
};

static void put(struct bytes *b, const void *p, size_t n)
{
	b->p = realloc(b->p, b->n + n + 1);
	assert_non_null(b->p);
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void frame(struct bytes *b, uint8_t type, const void *payload, uint16_t len)
{
	uint8_t hdr[8] = { 0xB5, 'B', 'M', 'P', type, 0 }, crc[4];

	bmprof_put16(hdr + 6, len);
	bmprof_put32(crc, bmprof_crc32(bmprof_crc32(0, hdr + 4, 4), payload, len));
	put(b, hdr, 8);
	put(b, payload, len);
	put(b, crc, 4);
}

static void meta(struct bytes *b, const char *key, const char *value)
{
	uint8_t p[512];
	size_t kl = strlen(key), vl = strlen(value);

	p[0] = (uint8_t)kl;
	memcpy(p + 1, key, kl);
	bmprof_put16(p + 1 + kl, (uint16_t)vl);
	memcpy(p + 3 + kl, value, vl);
	frame(b, BMPROF_FRAME_HOST_META, p, (uint16_t)(3 + kl + vl));
}

/* A small profile: format header, a HELLO, a SAMPLES frame, the HOST_STREAM trailer. */
static void small_profile(struct bytes *b)
{
	uint8_t hello[BMPROF_HELLO_FIXED] = { 1, 0, 1, 1, 1, 0 };
	/* two entries: pc 64 count 5, pc 66 count 4 (event 0, zigzag pc deltas) */
	uint8_t samples[BMPROF_SAMPLES_FIXED + 7] = { 0, 0, 2, 0, 0, 0, 0, 0,
						       0, 0x80, 0x01, 5, 0, 4, 4 };
	uint8_t st[PROFILE_STREAM_LEN] = { 2 };

	meta(b, "format", PROFILE_FORMAT);
	frame(b, BMPROF_FRAME_HELLO, hello, sizeof(hello));
	frame(b, BMPROF_FRAME_SAMPLES, samples, sizeof(samples));
	frame(b, BMPROF_FRAME_HOST_STREAM, st, sizeof(st));
}

static void test_mem_same_as_file(void **state)
{
	char path[] = "/tmp/bmprof-test-profile-XXXXXX", err[256], err2[256];
	struct bytes b = { 0 };
	struct profile a, m;
	FILE *f;
	int fd;

	small_profile(&b);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b.p, 1, b.n, f), b.n);
	fclose(f);
	profile_init(&a);
	profile_init(&m);
	assert_int_equal(profile_load(path, &a, err, sizeof(err)), 0);
	assert_int_equal(profile_load_mem(b.p, b.n, path, &m, err2, sizeof(err2)), 0);
	assert_int_equal(a.nsamples, 2);
	assert_int_equal(a.total, 9);
	assert_int_equal(m.nsamples, a.nsamples);
	assert_memory_equal(m.samples, a.samples, a.nsamples * sizeof(*a.samples));
	assert_int_equal(m.frames_ok, 2);
	assert_int_equal(m.file_truncated, 0);
	profile_free(&a);
	profile_free(&m);

	/* cut short: the same warning either way */
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b.p, 1, b.n - 3, f), b.n - 3);
	fclose(f);
	profile_init(&a);
	profile_init(&m);
	assert_int_equal(profile_load(path, &a, err, sizeof(err)), 1);
	assert_int_equal(profile_load_mem(b.p, b.n - 3, path, &m, err2, sizeof(err2)), 1);
	assert_string_equal(err, err2);
	assert_non_null(strstr(err, "cut short"));
	assert_int_equal(m.file_truncated, 1);
	profile_free(&a);
	profile_free(&m);
	unlink(path);
	free(b.p);
}

static void expect_refusal(const struct bytes *b, const char *what)
{
	struct profile p;
	char err[256] = "";

	profile_init(&p);
	assert_int_equal(profile_load_mem(b->p, b->n, "x.data", &p, err, sizeof(err)), -1);
	if (!strstr(err, what))
		fprintf(stderr, "unexpected message: %s\n", err);
	assert_non_null(strstr(err, what));
	assert_non_null(strstr(err, "x.data"));
	assert_null(strchr(err, '\n'));
	for (const char *c = err; *c; c++)
		assert_true(*c >= 0x20 && *c < 0x7f);
	profile_free(&p);
}

/* The format value is shown when it names another profile format, never when it holds
 * control characters or is long. */
static void test_refusals_are_one_line(void **state)
{
	struct bytes b = { 0 };
	char longv[300];

	expect_refusal(&b, "is empty");
	meta(&b, "format", "bmprof-profile-7");
	expect_refusal(&b, "has profile format bmprof-profile-7");
	b.n = 0;
	meta(&b, "format", "bmprof-profile-\n2\x1b[31m");
	expect_refusal(&b, "does not start with the format header");
	b.n = 0;
	memset(longv, 'x', sizeof(longv) - 1);
	memcpy(longv, "bmprof-profile-", 15);
	longv[sizeof(longv) - 1] = 0;
	meta(&b, "format", longv);
	expect_refusal(&b, "does not start with the format header");
	b.n = 0;
	put(&b, "plain text\n", 11);
	expect_refusal(&b, "no bmprof frames");
	free(b.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mem_same_as_file),
		cmocka_unit_test(test_refusals_are_one_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
