/* SPDX-License-Identifier: BSD-2-Clause */
/* Escaping text for XML, SVG and HTML (markup.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/markup.h"

/* The length of the valid UTF-8 sequence of two or more bytes at s, or 0. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;

	if (!n || (n == 3 && s[0] >= 0xf0))
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
		return 0;     /* overlong, a surrogate, or beyond U+10FFFF */
	return n;
}

char *markup_plain(char *buf, size_t n, const char *text)
{
	const unsigned char *s = (const unsigned char *)(text ? text : "");
	size_t o = 0, k;

	if (!n)
		return buf;
	while (*s && o + 1 < n) {
		if ((*s >= 0x20 && *s < 0x7f) || *s == '\t') {
			buf[o++] = (char)*s++;
		} else if (*s >= 0x80 && (k = utf8_len(s))) {
			if (o + k >= n)
				break;
			memcpy(buf + o, s, k);
			o += k;
			s += k;
		} else if (o + 4 < n) {
			o += (size_t)snprintf(buf + o, n - o, "\\x%02x", *s++);
		} else {
			break;
		}
	}
	buf[o] = 0;
	return buf;
}

void markup_escape(FILE *f, const char *text)
{
	const unsigned char *s = (const unsigned char *)(text ? text : "");

	while (*s) {
		size_t n;
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			if (*s >= 0x20 && *s < 0x7f) {
				fputc(*s, f);
			} else if (*s == '\t' || *s == '\n') {
				fputc(*s, f);
			} else if (*s >= 0x80 && (n = utf8_len(s))) {
				fwrite(s, 1, n, f);
				s += n;
				continue;
			} else {
				fprintf(f, "\\x%02x", *s);
			}
		}
		s++;
	}
}

void markup_printf(FILE *f, const char *fmt, ...)
{
	char buf[1024], *big = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof buf) {
		va_start(ap, fmt);
		if ((n = vasprintf(&big, fmt, ap)) < 0)
			big = NULL;
		va_end(ap);
	}
	markup_escape(f, n < 0 ? "" : big ? big : buf);
	free(big);
}
