/* SPDX-License-Identifier: BSD-2-Clause */
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void bm_escape(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f || c == '\\')
			fprintf(f, c == '\\' ? "\\\\" : "\\x%02x", c);
		else
			fputc(c, f);
	}
}

const char *bm_safe(char *buf, size_t n, const char *s)
{
	size_t o = 0;

	if (!n)
		return buf;
	for (; s && *s && o + 1 < n; s++) {
		unsigned char c = (unsigned char)*s;

		if (c >= 0x20 && c != 0x7f && c != '\\') {
			buf[o++] = (char)c;
		} else if (o + 4 < n) {
			o += (size_t)snprintf(buf + o, n - o, c == '\\' ? "\\\\" : "\\x%02x", c);
		} else {
			break;
		}
	}
	buf[o] = 0;
	return buf;
}

/* Messages name paths, symbols and values from files a user hands over: a control byte
 * in one must neither split the message's one line nor reach the terminal, so every byte
 * below 0x20 and DEL is written as \xNN (and a backslash as \\, so the text stays
 * unambiguous). */
void bm_err(const char *fmt, ...)
{
	char small[1024], *msg = small;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof small && (msg = malloc((size_t)n + 1))) {
		va_start(ap, fmt);
		vsnprintf(msg, (size_t)n + 1, fmt, ap);
		va_end(ap);
	} else if (!msg) {
		msg = small;
		n = (int)strlen(small);
	}
	fputs("bmprof: ", stderr);
	bm_escape(stderr, msg, (size_t)n);
	fputc('\n', stderr);
	if (msg != small)
		free(msg);
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

/* What a path names when it is not a regular file. */
static const char *kind_of(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ?
	       "a character device" : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" :
	       "not a regular file";
}

int bm_open_regular(const char *path, const char *what, char *err, size_t n)
{
	char safe[1024];
	struct stat st;
	/* O_NONBLOCK: opening a FIFO with no writer must not wait; O_NOCTTY: a terminal must
	 * not become the controlling one */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	bm_safe(safe, sizeof safe, path);
	if (fd < 0) {
		snprintf(err, n, "%s: %s", safe, errno == ENOENT ? "no such file" : strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, n, "%s is %s, not %s: pass the file itself", safe,
			 kind_of(st.st_mode), what);
		close(fd);
		return -1;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

FILE *bm_fopen_regular(const char *path, const char *what, char *err, size_t n)
{
	int fd = bm_open_regular(path, what, err, n);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "rb");

	if (fd >= 0 && !f) {
		snprintf(err, n, "out of memory");
		close(fd);
	}
	return f;
}

