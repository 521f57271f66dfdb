#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bm_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("bmprof: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static void *oom(void *p, size_t n)
{
	if (!p)
		bm_err("out of memory (allocating %zu bytes)", n);
	return p;
}

void *bm_malloc(size_t n)
{
	return oom(malloc(n ? n : 1), n);
}

void *bm_calloc(size_t n, size_t size)
{
	return oom(calloc(n ? n : 1, size ? size : 1), n * size);
}

void *bm_realloc(void *p, size_t n)
{
	return oom(realloc(p, n ? n : 1), n);
}

char *bm_strdup(const char *s)
{
	return oom(strdup(s), strlen(s) + 1);
}

char *bm_hex(char *out, size_t outlen, const uint8_t *b, size_t n)
{
	static const char digit[] = "0123456789abcdef";
	size_t i;

	if (!outlen)
		return out;
	for (i = 0; i < n && 2 * i + 2 < outlen; i++) {
		out[2 * i] = digit[b[i] >> 4];
		out[2 * i + 1] = digit[b[i] & 15];
	}
	out[2 * i] = 0;
	return out;
}

static int plain_arg(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			    "-_./=:,+@%", *s))
			return 0;
	return 1;
}

char *bm_join_args(int argc, char *const argv[])
{
	size_t n = 1, k = 0;
	char *out;
	int i;

	for (i = 0; i < argc; i++)
		n += 4 * strlen(argv[i]) + 3;
	if (!(out = bm_malloc(n)))
		return NULL;
	for (i = 0; i < argc; i++) {
		const char *s = argv[i];

		if (i)
			out[k++] = ' ';
		if (plain_arg(s)) {
			memcpy(out + k, s, strlen(s));
			k += strlen(s);
			continue;
		}
		out[k++] = '\'';
		for (; *s; s++) {
			if (*s == '\'') {
				memcpy(out + k, "'\\''", 4);
				k += 4;
			} else {
				out[k++] = *s;
			}
		}
		out[k++] = '\'';
	}
	out[k] = 0;
	return out;
}
