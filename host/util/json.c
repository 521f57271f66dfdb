/* SPDX-License-Identifier: BSD-2-Clause */
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include "util/json.h"

void json_init(struct json *j, FILE *f, int pretty)
{
	memset(j, 0, sizeof *j);
	j->f = f;
	j->pretty = pretty;
}

static void newline(struct json *j)
{
	if (!j->pretty)
		return;
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* Commas and indentation before a value; flags misuse. */
static void before_value(struct json *j)
{
	if (j->done) {
		j->err = 1;
		return;
	}
	if (j->depth == 0)
		return;
	if (j->is_obj[j->depth - 1]) {
		if (!j->have_key)
			j->err = 1;
		j->have_key = 0;
		return;
	}
	if (!j->first[j->depth - 1])
		fputc(',', j->f);
	j->first[j->depth - 1] = 0;
	newline(j);
}

static void after_value(struct json *j)
{
	if (j->depth == 0)
		j->done = 1;
}

static void begin(struct json *j, int obj)
{
	before_value(j);
	if (j->depth == JSON_MAX_DEPTH) {
		j->err = 1;
		return;
	}
	fputc(obj ? '{' : '[', j->f);
	j->is_obj[j->depth] = (unsigned char)obj;
	j->first[j->depth] = 1;
	j->depth++;
}

static void end(struct json *j, int obj)
{
	if (j->depth == 0 || j->is_obj[j->depth - 1] != obj || j->have_key) {
		j->err = 1;
		return;
	}
	int empty = j->first[j->depth - 1];
	j->depth--;
	if (!empty)
		newline(j);
	fputc(obj ? '}' : ']', j->f);
	after_value(j);
}

void json_begin_object(struct json *j) { begin(j, 1); }
void json_end_object(struct json *j) { end(j, 1); }
void json_begin_array(struct json *j) { begin(j, 0); }
void json_end_array(struct json *j) { end(j, 0); }

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlongs, no surrogates,
 * nothing above U+10FFFF), or 0 if the bytes there are not one. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t len;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

static void write_escaped(FILE *f, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', f);
	for (size_t i = 0; i < n;) {
		unsigned char c = s[i];
		size_t len = utf8_len(s + i, n - i);
		if (len == 0) {
			fputs("\\ufffd", f);
			i++;
			continue;
		}
		if (len > 1) {
			fwrite(s + i, 1, len, f);
			i += len;
			continue;
		}
		switch (c) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		default:
			if (c < 0x20)
				fprintf(f, "\\u%04x", c);
			else
				fputc(c, f);
		}
		i++;
	}
	fputc('"', f);
}

void json_key(struct json *j, const char *key)
{
	if (j->depth == 0 || !j->is_obj[j->depth - 1] || j->have_key || !key) {
		j->err = 1;
		return;
	}
	if (!j->first[j->depth - 1])
		fputc(',', j->f);
	j->first[j->depth - 1] = 0;
	newline(j);
	write_escaped(j->f, key, strlen(key));
	fputs(j->pretty ? ": " : ":", j->f);
	j->have_key = 1;
}

void json_string_n(struct json *j, const char *s, size_t n)
{
	before_value(j);
	write_escaped(j->f, s, n);
	after_value(j);
}

void json_string(struct json *j, const char *s)
{
	if (!s)
		json_null(j);
	else
		json_string_n(j, s, strlen(s));
}

static void raw(struct json *j, const char *text)
{
	before_value(j);
	fputs(text, j->f);
	after_value(j);
}

void json_u64(struct json *j, uint64_t v)
{
	char b[32];
	snprintf(b, sizeof b, "%" PRIu64, v);
	raw(j, b);
}

void json_i64(struct json *j, int64_t v)
{
	char b[32];
	snprintf(b, sizeof b, "%" PRId64, v);
	raw(j, b);
}

void json_double(struct json *j, double v)
{
	char b[64];
	if (!isfinite(v)) {
		json_null(j);
		return;
	}
	snprintf(b, sizeof b, "%.15g", v);
	raw(j, b);
}

void json_bool(struct json *j, int v) { raw(j, v ? "true" : "false"); }
void json_null(struct json *j) { raw(j, "null"); }

void json_hex(struct json *j, uint64_t v)
{
	char b[32];
	snprintf(b, sizeof b, "\"0x%" PRIx64 "\"", v);
	raw(j, b);
}

int json_finish(struct json *j)
{
	if (j->pretty && j->done)
		fputc('\n', j->f);
	if (fflush(j->f) != 0 || ferror(j->f))
		j->err = 1;
	return j->err || !j->done || j->depth ? -1 : 0;
}

void json_kv_string(struct json *j, const char *key, const char *s) { json_key(j, key); json_string(j, s); }
void json_kv_u64(struct json *j, const char *key, uint64_t v) { json_key(j, key); json_u64(j, v); }
void json_kv_i64(struct json *j, const char *key, int64_t v) { json_key(j, key); json_i64(j, v); }
void json_kv_double(struct json *j, const char *key, double v) { json_key(j, key); json_double(j, v); }
void json_kv_bool(struct json *j, const char *key, int v) { json_key(j, key); json_bool(j, v); }
void json_kv_hex(struct json *j, const char *key, uint64_t v) { json_key(j, key); json_hex(j, v); }
