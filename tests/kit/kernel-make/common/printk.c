/* SPDX-License-Identifier: BSD-2-Clause */
/* printk: %s %c %d %u %x with l/ll, and %%, formatted into a line buffer and written with
 * console_print (one whole call under the console lock). */
#include <stdarg.h>

#include "doc_env.h"
#include "kernel.h"

struct buf {
	char s[256];
	size_t n;
};

static void put(struct buf *b, char c)
{
	if (b->n < sizeof b->s)
		b->s[b->n++] = c;
}

static void num(struct buf *b, unsigned long long v, unsigned base, int neg)
{
	char d[24];
	int k = 0;

	do {
		d[k++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	if (neg)
		put(b, '-');
	while (k)
		put(b, d[--k]);
}

static size_t vformat(char *out, size_t cap, const char *fmt, va_list ap)
{
	struct buf b = { .n = 0 };

	for (; *fmt; fmt++) {
		int l = 0;

		if (*fmt != '%') {
			put(&b, *fmt);
			continue;
		}
		while (*++fmt == 'l')
			l++;
		switch (*fmt) {
		case 's': {
			const char *s = va_arg(ap, const char *);
			while (s && *s)
				put(&b, *s++);
			break;
		}
		case 'c':
			put(&b, (char)va_arg(ap, int));
			break;
		case 'd': {
			long long v = l ? va_arg(ap, long long) : va_arg(ap, int);
			num(&b, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v, 10, v < 0);
			break;
		}
		case 'u':
		case 'x':
			num(&b, l ? va_arg(ap, unsigned long long) : va_arg(ap, unsigned),
			    *fmt == 'x' ? 16 : 10, 0);
			break;
		case '%':
			put(&b, '%');
			break;
		default:
			return 0;
		}
	}
	for (size_t i = 0; i < b.n && i < cap; i++)
		out[i] = b.s[i];
	return b.n < cap ? b.n : cap;
}

size_t kformat(char *out, size_t cap, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	n = vformat(out, cap, fmt, ap);
	va_end(ap);
	return n;
}

void printk(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	n = vformat(line, sizeof line, fmt, ap);
	va_end(ap);
	console_print(line, n);
}
