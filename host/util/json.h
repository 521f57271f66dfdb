/* SPDX-License-Identifier: BSD-2-Clause */
/* A small streaming JSON writer. Values are written as they come; the writer inserts the
 * commas and the indentation, and escapes strings (control characters as \n or \u00XX,
 * bytes that are not valid UTF-8 as U+FFFD, so the output is always valid JSON).
 *
 *   json_init(&j, stdout, 1);
 *   json_begin_object(&j);
 *   json_key(&j, "samples"); json_u64(&j, 42);
 *   json_end_object(&j);
 *   if (json_finish(&j)) ... error
 */
#ifndef BMPROF_JSON_H
#define BMPROF_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json {
	FILE *f;
	int pretty;
	int depth;
	int err;                         /* misuse (unbalanced, key outside an object) */
	unsigned char first[JSON_MAX_DEPTH];   /* no value written yet at this level */
	unsigned char is_obj[JSON_MAX_DEPTH];
	int have_key;                    /* a key was written, its value is next */
	int done;                        /* the top-level value is complete */
};

void json_init(struct json *j, FILE *f, int pretty);
void json_begin_object(struct json *j);
void json_end_object(struct json *j);
void json_begin_array(struct json *j);
void json_end_array(struct json *j);
void json_key(struct json *j, const char *key);
void json_string(struct json *j, const char *s);    /* NULL writes null */
void json_string_n(struct json *j, const char *s, size_t n);
void json_u64(struct json *j, uint64_t v);
void json_i64(struct json *j, int64_t v);
void json_double(struct json *j, double v);          /* NaN and infinities write null */
void json_bool(struct json *j, int v);
void json_null(struct json *j);
void json_hex(struct json *j, uint64_t v);           /* the string "0x..." */
/* 0 if the document is complete and balanced and every write succeeded, else -1. */
int json_finish(struct json *j);

/* key + value in one call */
void json_kv_string(struct json *j, const char *key, const char *s);
void json_kv_u64(struct json *j, const char *key, uint64_t v);
void json_kv_i64(struct json *j, const char *key, int64_t v);
void json_kv_double(struct json *j, const char *key, double v);
void json_kv_bool(struct json *j, const char *key, int v);
void json_kv_hex(struct json *j, const char *key, uint64_t v);

#endif
