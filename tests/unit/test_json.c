/* SPDX-License-Identifier: BSD-2-Clause */
/* The streaming JSON writer: escaping, nesting, commas, misuse detection. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "util/json.h"

struct buf {
	char *data;
	size_t len;
	FILE *f;
	struct json j;
};

static void open_buf(struct buf *b, int pretty)
{
	b->data = NULL;
	b->len = 0;
	b->f = open_memstream(&b->data, &b->len);
	assert_non_null(b->f);
	json_init(&b->j, b->f, pretty);
}

/* Finishes the document, returns json_finish's result; text in b->data. */
static int close_buf(struct buf *b)
{
	int rc = json_finish(&b->j);
	fclose(b->f);
	return rc;
}

static void check_string(const char *in, size_t n, const char *want)
{
	struct buf b;
	open_buf(&b, 0);
	json_string_n(&b.j, in, n);
	assert_int_equal(close_buf(&b), 0);
	assert_string_equal(b.data, want);
	free(b.data);
}

static void test_escapes(void **state)
{
	(void)state;
	check_string("plain", 5, "\"plain\"");
	check_string("a\"b\\c", 5, "\"a\\\"b\\\\c\"");
	check_string("\n\r\t\b\f", 5, "\"\\n\\r\\t\\b\\f\"");
	check_string("\x01\x1f", 2, "\"\\u0001\\u001f\"");
	check_string("a\0b", 3, "\"a\\u0000b\"");
	check_string("/\x7f", 2, "\"/\x7f\"");
	check_string("", 0, "\"\"");
}

static void test_utf8(void **state)
{
	(void)state;
	/* well-formed multibyte sequences pass through */
	check_string("\xc3\xa9", 2, "\"\xc3\xa9\"");
	check_string("\xe2\x82\xac", 3, "\"\xe2\x82\xac\"");
	check_string("\xf0\x9f\x98\x80", 4, "\"\xf0\x9f\x98\x80\"");
	/* stray continuation, truncated, overlong, surrogate, above U+10FFFF */
	check_string("\x80", 1, "\"\\ufffd\"");
	check_string("a\xc3", 2, "\"a\\ufffd\"");
	check_string("\xc0\xaf", 2, "\"\\ufffd\\ufffd\"");
	check_string("\xed\xa0\x80", 3, "\"\\ufffd\\ufffd\\ufffd\"");
	check_string("\xf4\x90\x80\x80", 4, "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
	check_string("\xe2\x82x", 3, "\"\\ufffd\\ufffdx\"");
}

static void test_nesting_compact(void **state)
{
	(void)state;
	struct buf b;
	open_buf(&b, 0);
	json_begin_object(&b.j);
	json_kv_u64(&b.j, "n", 18446744073709551615ull);
	json_kv_i64(&b.j, "neg", -5);
	json_key(&b.j, "list");
	json_begin_array(&b.j);
	json_u64(&b.j, 1);
	json_begin_object(&b.j);
	json_end_object(&b.j);
	json_begin_array(&b.j);
	json_end_array(&b.j);
	json_string(&b.j, NULL);
	json_bool(&b.j, 1);
	json_end_array(&b.j);
	json_kv_hex(&b.j, "addr", 0xffffffff80001000ull);
	json_kv_double(&b.j, "pct", 12.5);
	json_kv_double(&b.j, "nan", NAN);
	json_kv_bool(&b.j, "f", 0);
	json_kv_string(&b.j, "k\"ey", "v");
	json_end_object(&b.j);
	assert_int_equal(close_buf(&b), 0);
	assert_string_equal(b.data,
		"{\"n\":18446744073709551615,\"neg\":-5,\"list\":[1,{},[],null,true],"
		"\"addr\":\"0xffffffff80001000\",\"pct\":12.5,\"nan\":null,\"f\":false,"
		"\"k\\\"ey\":\"v\"}");
	free(b.data);
}

static void test_pretty(void **state)
{
	(void)state;
	struct buf b;
	open_buf(&b, 1);
	json_begin_object(&b.j);
	json_kv_u64(&b.j, "a", 1);
	json_key(&b.j, "b");
	json_begin_array(&b.j);
	json_u64(&b.j, 2);
	json_u64(&b.j, 3);
	json_end_array(&b.j);
	json_key(&b.j, "c");
	json_begin_object(&b.j);
	json_end_object(&b.j);
	json_end_object(&b.j);
	assert_int_equal(close_buf(&b), 0);
	assert_string_equal(b.data,
		"{\n  \"a\": 1,\n  \"b\": [\n    2,\n    3\n  ],\n  \"c\": {}\n}\n");
	free(b.data);
}

static void test_misuse(void **state)
{
	(void)state;
	struct buf b;

	/* value in an object without a key */
	open_buf(&b, 0);
	json_begin_object(&b.j);
	json_u64(&b.j, 1);
	json_end_object(&b.j);
	assert_int_equal(close_buf(&b), -1);
	free(b.data);

	/* unbalanced */
	open_buf(&b, 0);
	json_begin_array(&b.j);
	assert_int_equal(close_buf(&b), -1);
	free(b.data);

	/* wrong closer */
	open_buf(&b, 0);
	json_begin_array(&b.j);
	json_end_object(&b.j);
	assert_int_equal(close_buf(&b), -1);
	free(b.data);

	/* key in an array, dangling key */
	open_buf(&b, 0);
	json_begin_array(&b.j);
	json_key(&b.j, "x");
	json_end_array(&b.j);
	assert_int_equal(close_buf(&b), -1);
	free(b.data);
	open_buf(&b, 0);
	json_begin_object(&b.j);
	json_key(&b.j, "x");
	json_end_object(&b.j);
	assert_int_equal(close_buf(&b), -1);
	free(b.data);

	/* two top-level values; nothing at all */
	open_buf(&b, 0);
	json_u64(&b.j, 1);
	json_u64(&b.j, 2);
	assert_int_equal(close_buf(&b), -1);
	free(b.data);
	open_buf(&b, 0);
	assert_int_equal(close_buf(&b), -1);
	free(b.data);
}

static void test_depth_limit(void **state)
{
	(void)state;
	struct buf b;
	open_buf(&b, 0);
	for (int i = 0; i < JSON_MAX_DEPTH; i++)
		json_begin_array(&b.j);
	for (int i = 0; i < JSON_MAX_DEPTH; i++)
		json_end_array(&b.j);
	assert_int_equal(close_buf(&b), 0);
	free(b.data);

	open_buf(&b, 0);
	for (int i = 0; i <= JSON_MAX_DEPTH; i++)
		json_begin_array(&b.j);
	assert_int_equal(close_buf(&b), -1);
	free(b.data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_nesting_compact),
		cmocka_unit_test(test_pretty),
		cmocka_unit_test(test_misuse),
		cmocka_unit_test(test_depth_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
