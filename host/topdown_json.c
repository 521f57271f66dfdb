/* A small JSON reader (topdown_json.h): RFC 8259 values, nesting up to 64 deep. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topdown_json.h"

#define TJ_MAX_DEPTH 64

struct rd {
	const char *s, *end;
	const char *start;
	char *err;
	size_t errlen;
	int failed;
};

static int bad(struct rd *r, const char *what)
{
	if (!r->failed) {
		unsigned line = 1;

		for (const char *p = r->start; p < r->s && p < r->end; p++)
			line += *p == '\n';
		snprintf(r->err, r->errlen, "line %u: %s", line, what);
	}
	r->failed = 1;
	return -1;
}

static void ws(struct rd *r)
{
	while (r->s < r->end && (*r->s == ' ' || *r->s == '\t' || *r->s == '\n' || *r->s == '\r'))
		r->s++;
}

static int lit(struct rd *r, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(r->end - r->s) < n || memcmp(r->s, word, n))
		return bad(r, "unexpected text (a value expected)");
	r->s += n;
	return 0;
}

static int hex4(struct rd *r, unsigned *out)
{
	*out = 0;
	if (r->end - r->s < 4)
		return bad(r, "short \\u escape");
	for (int i = 0; i < 4; i++) {
		char c = *r->s++;
		unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0') :
			     c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10) :
			     c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16;
		if (d > 15)
			return bad(r, "bad \\u escape");
		*out = *out << 4 | d;
	}
	return 0;
}

static void put_utf8(char *buf, size_t *len, unsigned cp)
{
	if (cp < 0x80) {
		buf[(*len)++] = (char)cp;
	} else if (cp < 0x800) {
		buf[(*len)++] = (char)(0xc0 | cp >> 6);
		buf[(*len)++] = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		buf[(*len)++] = (char)(0xe0 | cp >> 12);
		buf[(*len)++] = (char)(0x80 | (cp >> 6 & 0x3f));
		buf[(*len)++] = (char)(0x80 | (cp & 0x3f));
	} else {
		buf[(*len)++] = (char)(0xf0 | cp >> 18);
		buf[(*len)++] = (char)(0x80 | (cp >> 12 & 0x3f));
		buf[(*len)++] = (char)(0x80 | (cp >> 6 & 0x3f));
		buf[(*len)++] = (char)(0x80 | (cp & 0x3f));
	}
}

static int string(struct rd *r, char **out)
{
	const char *p = ++r->s;   /* past the quote */
	size_t cap = 0, len = 0;
	char *buf;

	while (p < r->end && *p != '"') {
		p += *p == '\\' ? 2 : 1;
		cap += 4;
	}
	if (p >= r->end)
		return bad(r, "unterminated string");
	buf = malloc(cap + 1);
	if (!buf)
		return bad(r, "out of memory");
	while (*r->s != '"') {
		unsigned char c = (unsigned char)*r->s++;

		if (c < 0x20) {
			free(buf);
			return bad(r, "control character in a string");
		}
		if (c != '\\') {
			buf[len++] = (char)c;
			continue;
		}
		c = (unsigned char)*r->s++;
		switch (c) {
		case '"': case '\\': case '/': buf[len++] = (char)c; break;
		case 'b': buf[len++] = '\b'; break;
		case 'f': buf[len++] = '\f'; break;
		case 'n': buf[len++] = '\n'; break;
		case 'r': buf[len++] = '\r'; break;
		case 't': buf[len++] = '\t'; break;
		case 'u': {
			unsigned cp, lo;

			if (hex4(r, &cp)) {
				free(buf);
				return -1;
			}
			if (cp >= 0xd800 && cp < 0xdc00 && r->end - r->s >= 6 && r->s[0] == '\\' &&
			    r->s[1] == 'u') {
				r->s += 2;
				if (hex4(r, &lo)) {
					free(buf);
					return -1;
				}
				if (lo >= 0xdc00 && lo < 0xe000)
					cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			}
			if (!cp) {
				free(buf);
				return bad(r, "\\u0000 in a string");
			}
			put_utf8(buf, &len, cp);
			break;
		}
		default:
			free(buf);
			return bad(r, "bad escape in a string");
		}
	}
	r->s++;
	buf[len] = 0;
	*out = buf;
	return 0;
}

static int number(struct rd *r, double *out)
{
	char tmp[64];
	const char *p = r->s;
	size_t n;
	char *end;

	if (p < r->end && *p == '-')
		p++;
	if (p >= r->end || *p < '0' || *p > '9')
		return bad(r, "unexpected text (a value expected)");
	while (p < r->end && ((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' || *p == 'E' ||
			      *p == '+' || *p == '-'))
		p++;
	n = (size_t)(p - r->s);
	if (n >= sizeof tmp)
		return bad(r, "number too long");
	memcpy(tmp, r->s, n);
	tmp[n] = 0;
	*out = strtod(tmp, &end);
	if (*end)
		return bad(r, "bad number");
	r->s = p;
	return 0;
}

static int value(struct rd *r, struct tj *v, int depth);

static int push(struct rd *r, struct tj *v, char *key)
{
	if (v->n % 8 == 0) {
		struct tj *items = realloc(v->items, (v->n + 8) * sizeof *items);
		char **keys = v->type == TJ_OBJ ? realloc(v->keys, (v->n + 8) * sizeof *keys) : NULL;

		if (items)
			v->items = items;
		if (keys)
			v->keys = keys;
		if (!items || (v->type == TJ_OBJ && !keys)) {
			free(key);
			return bad(r, "out of memory");
		}
	}
	memset(&v->items[v->n], 0, sizeof v->items[0]);
	if (v->type == TJ_OBJ)
		v->keys[v->n] = key;
	v->n++;
	return 0;
}

static int container(struct rd *r, struct tj *v, int depth)
{
	int obj = *r->s == '{';
	char close = obj ? '}' : ']';

	v->type = obj ? TJ_OBJ : TJ_ARR;
	r->s++;
	ws(r);
	if (r->s < r->end && *r->s == close) {
		r->s++;
		return 0;
	}
	for (;;) {
		char *key = NULL;

		ws(r);
		if (obj) {
			if (r->s >= r->end || *r->s != '"')
				return bad(r, "a member name (a string) expected");
			if (string(r, &key))
				return -1;
			ws(r);
			if (r->s >= r->end || *r->s != ':') {
				free(key);
				return bad(r, "':' expected");
			}
			r->s++;
		}
		if (push(r, v, key) || value(r, &v->items[v->n - 1], depth + 1))
			return -1;
		ws(r);
		if (r->s < r->end && *r->s == ',') {
			r->s++;
			continue;
		}
		if (r->s < r->end && *r->s == close) {
			r->s++;
			return 0;
		}
		return bad(r, obj ? "',' or '}' expected" : "',' or ']' expected");
	}
}

static int value(struct rd *r, struct tj *v, int depth)
{
	ws(r);
	if (depth > TJ_MAX_DEPTH)
		return bad(r, "nested too deep");
	if (r->s >= r->end)
		return bad(r, "unexpected end (a value expected)");
	switch (*r->s) {
	case '{': case '[':
		return container(r, v, depth);
	case '"':
		v->type = TJ_STR;
		return string(r, &v->str);
	case 't':
		v->type = TJ_BOOL;
		v->b = 1;
		return lit(r, "true");
	case 'f':
		v->type = TJ_BOOL;
		return lit(r, "false");
	case 'n':
		v->type = TJ_NULL;
		return lit(r, "null");
	default:
		v->type = TJ_NUM;
		return number(r, &v->num);
	}
}

int tj_parse(const char *text, size_t len, struct tj *v, char *err, size_t n)
{
	struct rd r = { text, text + len, text, err, n, 0 };

	memset(v, 0, sizeof *v);
	if (memchr(text, 0, len)) {
		snprintf(err, n, "a NUL byte in the text: not JSON");
		return -1;
	}
	if (value(&r, v, 0) == 0) {
		ws(&r);
		if (r.s == r.end)
			return 0;
		bad(&r, "text after the value");
	}
	tj_free(v);
	return -1;
}

void tj_free(struct tj *v)
{
	for (size_t i = 0; i < v->n; i++) {
		tj_free(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	memset(v, 0, sizeof *v);
}

const struct tj *tj_get(const struct tj *obj, const char *key)
{
	const struct tj *found = NULL;

	if (!obj || obj->type != TJ_OBJ)
		return NULL;
	for (size_t i = 0; i < obj->n; i++)
		if (!strcmp(obj->keys[i], key))
			found = &obj->items[i];
	return found;
}
