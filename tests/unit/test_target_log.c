/* SPDX-License-Identifier: BSD-2-Clause */
/* The runtime's messages end to end on the host: boot/common/log.c (compiled here with a
 * sink for its stream) builds LOG frames; the capture hands each to on_log as it arrives,
 * HELLO or not, and the profile model keeps them (bounded in number and in length, a
 * malformed one rejected) through a profile file; target_log_print shows any bytes as one
 * line of printable ASCII. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "profile/capture.h"
#include "profile.h"
#include "profile/profile_io.h"
#include "profile/target_log.h"

#include "../../boot/common/log.c"

/* ---- what log.c needs from a runtime: the console lock and the stream ---- */

static struct {
	uint8_t p[1 << 16];
	size_t n;
} stream;
static int console_depth, console_calls;

int bmrt_console_begin(void)
{
	console_depth++;
	console_calls++;
	return 7;
}

void bmrt_console_end(int token)
{
	assert_int_equal(token, 7);
	console_depth--;
}

static int stream_write(void *ctx, const void *buf, size_t len)
{
	(void)ctx;
	assert_int_equal(console_depth, 1);   /* frames go out under the console lock */
	assert_true(stream.n + len <= sizeof stream.p);
	memcpy(stream.p + stream.n, buf, len);
	stream.n += len;
	return 0;
}

const struct bmprof_out bmrt_out = { stream_write, 0 };

/* ---- the host side ---- */

struct seen {
	unsigned n;
	uint8_t level[8];
	char text[8][600];
};

static void on_log(void *ctx, uint8_t level, const char *text, size_t len)
{
	struct seen *s = ctx;

	assert_true(s->n < 8 && len < sizeof s->text[0]);
	s->level[s->n] = level;
	memcpy(s->text[s->n], text, len);
	s->text[s->n++][len] = 0;
}

/* s NULL: no on_log */
static struct capture *open_capture(const char *path, struct seen *s)
{
	struct capture_opts o = { .path = path, .on_log = s ? on_log : NULL, .ctx = s };
	char err[256];
	struct capture *c = capture_open(&o, err, sizeof err);

	assert_non_null(c);
	return c;
}

static void test_runtime_messages(void **state)
{
	struct seen s = { 0 };
	struct capture *c;
	struct bmrt_msg m;
	const struct profile *p;
	char want[BMRT_LOG_TEXT_MAX + 1];

	(void)state;
	stream.n = 0;
	bmrt_log(BMRT_WARN, "config: %s=%.*s: want %u..%u", "freq", 3, "abcdef", 0, 100000);
	bmrt_msg_start(&m, BMRT_ERR);
	bmrt_msg_add(&m, "CPU exception #%s (%lu)", "PF", 14ul);
	bmrt_msg_add(&m, " cr2=0x%016lx", 0x4000000000ul);
	bmrt_msg_send(&m);
	bmrt_msg_start(&m, BMRT_INFO);
	for (int i = 0; i < 100; i++)
		bmrt_msg_add(&m, "0123456789");
	bmrt_msg_send(&m);
	assert_int_equal(console_calls, 3);
	assert_int_equal(console_depth, 0);

	c = open_capture(NULL, &s);
	capture_push(c, stream.p, stream.n);
	capture_finish(c);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.level[0], BMPROF_LOG_WARNING);
	assert_string_equal(s.text[0], "config: freq=abc: want 0..100000");
	assert_int_equal(s.level[1], BMPROF_LOG_ERROR);
	assert_string_equal(s.text[1], "CPU exception #PF (14) cr2=0x0000004000000000");
	/* cut at BMRT_LOG_TEXT_MAX, ending in "..." */
	for (int i = 0; i < BMRT_LOG_TEXT_MAX; i++)
		want[i] = (char)('0' + i % 10);
	memcpy(want + BMRT_LOG_TEXT_MAX - 3, "...", 3);
	want[BMRT_LOG_TEXT_MAX] = 0;
	assert_string_equal(s.text[2], want);

	p = capture_profile(c);
	assert_int_equal(p->nlogs, 3);
	assert_false(p->have_hello);   /* kept without a HELLO */
	assert_int_equal(p->logs[1].level, BMPROF_LOG_ERROR);
	assert_int_equal(p->logs[2].len, BMRT_LOG_TEXT_MAX);
	assert_memory_equal(p->logs[0].text, s.text[0], p->logs[0].len);
	capture_free(c);
}

static size_t frame(uint8_t *f, const uint8_t *pl, size_t len)
{
	memcpy(f, "\xb5" "BMP", 4);
	f[4] = BMPROF_FRAME_LOG;
	f[5] = 0;
	bmprof_put16(f + 6, (uint16_t)len);
	memcpy(f + 8, pl, len);
	bmprof_put32(f + 8 + len, bmprof_crc32(0, f + 4, 4 + len));
	return 12 + len;
}

/* a LOG frame whose text_len says claim */
static size_t log_frame(uint8_t *f, uint8_t level, const char *text, size_t n, size_t claim)
{
	uint8_t pl[4 + 2000];

	pl[0] = level;
	pl[1] = 0;
	bmprof_put16(pl + 2, (uint16_t)claim);
	memcpy(pl + 4, text, n);
	return frame(f, pl, 4 + n);
}

/* A frame from the rings while the serial bytes stop inside a frame's magic (the runtime
 * logs on the serial port, then switches to the rings): both frames arrive whole, in the
 * order they were complete, and no byte of either is taken for console text. */
static void test_ring_frame_inside_serial_frame(void **state)
{
	struct seen s = { 0 };
	struct capture *c = open_capture(NULL, &s);
	uint8_t a[64], b[64];
	size_t na = log_frame(a, 3, "on the serial port", 18, 18);
	size_t nb = log_frame(b, 2, "from a ring", 11, 11);

	(void)state;
	for (size_t cut = 1; cut < na; cut += cut < 8 ? 1 : 9) {
		unsigned before = s.n;

		capture_push(c, a, cut);
		assert_int_equal(capture_push_frame(c, b, nb), 0);
		capture_push(c, a + cut, na - cut);
		assert_int_equal(s.n, before + 2);
		assert_string_equal(s.text[before], "from a ring");
		assert_string_equal(s.text[before + 1], "on the serial port");
		s.n = 0;
	}
	/* a record that is not one good frame: counted, not applied */
	b[nb - 1] ^= 1;
	capture_push_frame(c, b, nb);
	capture_push_frame(c, b, 5);
	assert_int_equal(s.n, 0);
	assert_int_equal(capture_stats(c)->frames_bad_crc, 2);
	assert_int_equal(capture_stats(c)->bytes_skipped, nb + 5);
	assert_int_equal(capture_stats(c)->text_bytes, 0);
	capture_free(c);
}

static void test_model_bounds(void **state)
{
	char path[] = "/tmp/bmprof-test-log-XXXXXX", err[256], text[1500];
	struct profile q;
	struct capture *c;
	const struct profile *p;
	uint8_t f[2100];
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	c = open_capture(path, NULL);
	memset(text, 'y', sizeof text);
	/* malformed: shorter than the fixed part, and text_len past the payload */
	capture_push(c, f, frame(f, (const uint8_t *)"\2\0\0", 3));
	capture_push(c, f, log_frame(f, 2, "abc", 3, 4));
	capture_push(c, f, log_frame(f, 1, text, sizeof text, sizeof text));
	for (int i = 0; i < PROFILE_MAX_LOGS + 4; i++) {
		char t[16];
		int n = snprintf(t, sizeof t, "m%d", i);
		capture_push(c, f, log_frame(f, 3, t, (size_t)n, (size_t)n));
	}
	p = capture_profile(c);
	assert_int_equal(p->frames_malformed, 2);
	assert_int_equal(p->nlogs, PROFILE_MAX_LOGS);
	assert_int_equal(p->logs_dropped, 5);
	assert_true(p->logs[0].cut);
	assert_int_equal(p->logs[0].len, PROFILE_LOG_TEXT_MAX);
	assert_memory_equal(p->logs[1].text, "m0", 2);
	assert_int_equal(capture_save(c, err, sizeof err), 0);
	capture_free(c);

	/* the file gives the same model */
	profile_init(&q);
	assert_int_equal(profile_load(path, &q, err, sizeof err), 0);
	assert_int_equal(q.nlogs, PROFILE_MAX_LOGS);
	assert_int_equal(q.logs_dropped, 5);
	assert_true(q.logs[0].cut);
	assert_memory_equal(q.logs[PROFILE_MAX_LOGS - 1].text, "m98", 3);
	profile_free(&q);
	unlink(path);
}

static void test_print_escapes(void **state)
{
	char all[256], *line = NULL, e[64];
	size_t cap = 0;
	FILE *f = tmpfile();
	ssize_t n;

	(void)state;
	assert_non_null(f);
	for (int i = 0; i < 256; i++)
		all[i] = (char)i;
	target_log_print(f, BMPROF_LOG_ERROR, all, sizeof all);
	target_log_print(f, BMPROF_LOG_INFO, "a\nb\x1b[1mc\\", 9);
	rewind(f);
	n = getline(&line, &cap, f);
	assert_true(n > 0 && line[n - 1] == '\n');
	for (ssize_t i = 0; i < n - 1; i++)
		assert_true(line[i] >= 0x20 && line[i] < 0x7f);
	assert_non_null(strstr(line, "bmprof: target: error: \\x00\\x01"));
	assert_non_null(strstr(line, "\\t\\n\\x0b\\x0c\\r\\x0e"));
	assert_non_null(strstr(line, "[\\\\]"));
	assert_non_null(strstr(line, "~\\x7f\\x80"));
	n = getline(&line, &cap, f);
	assert_string_equal(line, "bmprof: target: a\\nb\\x1b[1mc\\\\\n");
	assert_int_equal(getline(&line, &cap, f), -1);
	assert_string_equal(target_log_escape(e, sizeof e, "x\x1by", 3), "x\\x1by");
	assert_string_equal(target_log_escape(e, 5, "ab\ncd", 5), "ab\\n");
	fclose(f);
	free(line);
}

static void test_print_long(void **state)
{
	static char text[TARGET_LOG_SHOWN + 10];
	char *line = NULL;
	size_t cap = 0;
	FILE *f = tmpfile();
	ssize_t n;

	(void)state;
	memset(text, 'z', sizeof text);
	target_log_print(f, BMPROF_LOG_WARNING, text, sizeof text);
	rewind(f);
	n = getline(&line, &cap, f);
	assert_int_equal(n, (ssize_t)(strlen("bmprof: target: warning: ") + TARGET_LOG_SHOWN + 4));
	assert_memory_equal(line + n - 4, "...\n", 4);
	fclose(f);
	free(line);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runtime_messages),
		cmocka_unit_test(test_ring_frame_inside_serial_frame),
		cmocka_unit_test(test_model_bounds),
		cmocka_unit_test(test_print_escapes),
		cmocka_unit_test(test_print_long),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
