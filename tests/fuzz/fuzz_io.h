/* SPDX-License-Identifier: BSD-2-Clause */
/* For the harnesses that drive whole readers and verbs: a private temporary directory, files
 * written into it, the fixed files under tests/fuzz/data, and stdout/stderr captured around
 * a call (by swapping the stdio streams, so the sanitizers' and libFuzzer's own reports
 * still reach the real stderr) with the checks every captured output must pass. */
#ifndef FUZZ_IO_H
#define FUZZ_IO_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHECK(c)                                                                          \
	do {                                                                              \
		if (!(c)) {                                                               \
			fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #c); \
			abort();                                                          \
		}                                                                         \
	} while (0)

/* Captured output larger than this is a runaway. */
#define FUZZ_OUT_MAX (64u << 20)

static char fuzz_tmp[64];

static inline void fuzz_rm_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char p[512];
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    snprintf(p, sizeof p, "%s/%s", dir, e->d_name) >= (int)sizeof p)
			continue;
		if (!lstat(p, &st) && S_ISDIR(st.st_mode))
			fuzz_rm_tree(p);
		else
			unlink(p);
	}
	closedir(d);
	rmdir(dir);
}

static inline void fuzz_rm_tmp(void)
{
	if (fuzz_tmp[0])
		fuzz_rm_tree(fuzz_tmp);
}

/* The harness's own directory, made once and removed at exit. */
static inline const char *fuzz_tmpdir(void)
{
	if (!fuzz_tmp[0]) {
		const char *t = getenv("TMPDIR");

		snprintf(fuzz_tmp, sizeof fuzz_tmp, "%s/bmprof-fuzz-XXXXXX", t && *t ? t : "/tmp");
		CHECK(mkdtemp(fuzz_tmp));
		atexit(fuzz_rm_tmp);
	}
	return fuzz_tmp;
}

/* tmpdir/name (or just name when it starts with '/') into buf. */
static inline const char *fuzz_path(char *buf, size_t n, const char *name)
{
	int len = name[0] == '/' ? snprintf(buf, n, "%s", name) :
		  snprintf(buf, n, "%s/%s", fuzz_tmpdir(), name);

	CHECK(len >= 0 && (size_t)len < n);
	return buf;
}

static inline void fuzz_write(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	CHECK(f);
	CHECK(!len || fwrite(data, 1, len, f) == len);
	CHECK(fclose(f) == 0);
}

/* The whole of a fixed file under tests/fuzz/data (or $BMPROF_FUZZ_DATA): malloc'd. */
static inline uint8_t *fuzz_data(const char *name, size_t *len)
{
	const char *dir = getenv("BMPROF_FUZZ_DATA");
	char path[512];
	FILE *f;
	uint8_t *buf;
	long n;

	snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "tests/fuzz/data", name);
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "%s: missing: run from the repository root, or set "
			"BMPROF_FUZZ_DATA to tests/fuzz/data\n", path);
		abort();
	}
	CHECK(fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	CHECK(buf && fread(buf, 1, (size_t)n, f) == (size_t)n);
	fclose(f);
	buf[n] = 0;
	*len = (size_t)n;
	return buf;
}

/* Copy a fixed file into the temporary directory as name; its path into buf. */
static inline const char *fuzz_data_copy(const char *name, const char *as, char *buf, size_t n)
{
	size_t len;
	uint8_t *d = fuzz_data(name, &len);

	fuzz_write(fuzz_path(buf, n, as), d, len);
	free(d);
	return buf;
}

/* stdout is captured at its descriptor (a verb may point descriptor 1 at a file, as export
 * does), stderr as a stream (descriptor 2 stays the sanitizers' and libFuzzer's). */
struct fuzz_capture {
	FILE *err, *saved_err;
	int saved_out;
	char *obuf, *ebuf;
	size_t olen, elen;
};

static int fuzz_out_fd = -1;

static inline void fuzz_capture_begin(struct fuzz_capture *c)
{
	memset(c, 0, sizeof *c);
	if (fuzz_out_fd < 0)
		CHECK((fuzz_out_fd = memfd_create("fuzz-stdout", MFD_CLOEXEC)) >= 0);
	CHECK(ftruncate(fuzz_out_fd, 0) == 0 && lseek(fuzz_out_fd, 0, SEEK_SET) == 0);
	fflush(stdout);
	fflush(stderr);
	CHECK((c->saved_out = dup(1)) >= 0 && dup2(fuzz_out_fd, 1) == 1);
	c->err = open_memstream(&c->ebuf, &c->elen);
	CHECK(c->err);
	c->saved_err = stderr;
	stderr = c->err;
}

static inline void fuzz_capture_end(struct fuzz_capture *c)
{
	off_t n;

	fflush(stdout);
	clearerr(stdout);
	CHECK(dup2(c->saved_out, 1) == 1 && close(c->saved_out) == 0);
	stderr = c->saved_err;
	CHECK(fclose(c->err) == 0);
	n = lseek(fuzz_out_fd, 0, SEEK_END);
	CHECK(n >= 0 && (size_t)n < FUZZ_OUT_MAX && c->elen < FUZZ_OUT_MAX);
	c->olen = (size_t)n;
	CHECK((c->obuf = malloc(c->olen + 1)));
	CHECK(pread(fuzz_out_fd, c->obuf, c->olen, 0) == (ssize_t)c->olen);
	c->obuf[c->olen] = 0;
}

/* Bytes written to stdout so far in this capture. */
static inline size_t fuzz_capture_mark(void)
{
	off_t n;

	fflush(stdout);
	CHECK((n = lseek(1, 0, SEEK_CUR)) >= 0);
	return (size_t)n;
}

static inline void fuzz_capture_free(struct fuzz_capture *c)
{
	free(c->obuf);
	free(c->ebuf);
}

/* Text for a terminal: no control byte but newline and tab. */
static inline int fuzz_plain_text(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if ((ch < 0x20 && ch != '\n' && ch != '\t') || ch == 0x7f)
			return 0;
	}
	return 1;
}

/* fuzz_plain_text, or abort naming what wrote the first line that is not (escaped). */
static inline void fuzz_check_text(const char *what, const char *s, size_t n)
{
	size_t at = 0;

	if (fuzz_plain_text(s, n))
		return;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == '\n')
			at = i + 1;
		else if ((ch < 0x20 && ch != '\t') || ch == 0x7f)
			break;
	}
	fprintf(stderr, "%s wrote a control byte to a terminal's text: ", what);
	for (size_t i = at; i < n && s[i] != '\n' && i < at + 200; i++) {
		unsigned char ch = (unsigned char)s[i];
		fprintf(stderr, ch < 0x20 || ch >= 0x7f ? "\\x%02x" : "%c", ch);
	}
	fputc('\n', stderr);
	CHECK(!"plain text");
}

/* Every line bmprof writes to stderr is one message: "bmprof: ..." in plain text. */
static inline void fuzz_check_messages(const char *s, size_t n)
{
	fuzz_check_text("stderr", s, n);
	CHECK(!n || s[n - 1] == '\n');
	for (size_t at = 0; at < n;) {
		const char *nl = memchr(s + at, '\n', n - at);

		if (strncmp(s + at, "bmprof: ", 8)) {
			fprintf(stderr, "not a bmprof message: %.*s\n", (int)(nl - s - at), s + at);
			CHECK(!"every stderr line is a bmprof message");
		}
		at = (size_t)(nl - s) + 1;
	}
}

/* A strict JSON reader (RFC 8259), for checking what the verbs write: the position after
 * the value at s[*i], or -1. host/util/json.h's names clash with jansson's, so not jansson. */
static inline long fuzz_json_value(const char *s, size_t n, size_t i, int depth);

static inline size_t fuzz_json_ws(const char *s, size_t n, size_t i)
{
	while (i < n && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r'))
		i++;
	return i;
}

static inline long fuzz_json_string(const char *s, size_t n, size_t i)
{
	if (i >= n || s[i++] != '"')
		return -1;
	while (i < n && s[i] != '"') {
		unsigned char c = (unsigned char)s[i++];

		if (c < 0x20)
			return -1;
		if (c != '\\')
			continue;
		if (i >= n)
			return -1;
		c = (unsigned char)s[i++];
		if (c == 'u') {
			for (int k = 0; k < 4; k++, i++)
				if (i >= n || !strchr("0123456789abcdefABCDEF", s[i]) || !s[i])
					return -1;
		} else if (!strchr("\"\\/bfnrt", c) || !c) {
			return -1;
		}
	}
	return i < n ? (long)i + 1 : -1;
}

static inline long fuzz_json_number(const char *s, size_t n, size_t i)
{
	size_t d;

	if (i < n && s[i] == '-')
		i++;
	if (i < n && s[i] == '0')
		i++;
	else if (i < n && s[i] >= '1' && s[i] <= '9')
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
	else
		return -1;
	if (i < n && s[i] == '.') {
		for (d = ++i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == d)
			return -1;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		if (++i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		for (d = i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == d)
			return -1;
	}
	return (long)i;
}

static inline long fuzz_json_list(const char *s, size_t n, size_t i, int depth, char close, int obj)
{
	long r;

	i = fuzz_json_ws(s, n, i + 1);
	if (i < n && s[i] == close)
		return (long)i + 1;
	for (;;) {
		if (obj) {
			if ((r = fuzz_json_string(s, n, fuzz_json_ws(s, n, i))) < 0)
				return -1;
			i = fuzz_json_ws(s, n, (size_t)r);
			if (i >= n || s[i++] != ':')
				return -1;
		}
		if ((r = fuzz_json_value(s, n, i, depth + 1)) < 0)
			return -1;
		i = fuzz_json_ws(s, n, (size_t)r);
		if (i < n && s[i] == close)
			return (long)i + 1;
		if (i >= n || s[i++] != ',')
			return -1;
	}
}

static inline long fuzz_json_value(const char *s, size_t n, size_t i, int depth)
{
	static const char *const words[] = { "true", "false", "null" };

	i = fuzz_json_ws(s, n, i);
	if (i >= n || depth > 256)
		return -1;
	if (s[i] == '{')
		return fuzz_json_list(s, n, i, depth, '}', 1);
	if (s[i] == '[')
		return fuzz_json_list(s, n, i, depth, ']', 0);
	if (s[i] == '"')
		return fuzz_json_string(s, n, i);
	for (int k = 0; k < 3; k++)
		if (n - i >= strlen(words[k]) && !memcmp(s + i, words[k], strlen(words[k])))
			return (long)(i + strlen(words[k]));
	return fuzz_json_number(s, n, i);
}

/* One JSON value, white space around it. */
static inline int fuzz_valid_json(const char *s, size_t n)
{
	long end = fuzz_json_value(s, n, 0, 0);

	if (end < 0 || fuzz_json_ws(s, n, (size_t)end) != n) {
		fprintf(stderr, "invalid JSON output (%zu bytes): %.*s\n", n, n > 300 ? 300 : (int)n,
			s);
		return 0;
	}
	return 1;
}

/* Bytes of a file, for the checks: malloc'd, *len set; NULL when it is not there. */
static inline char *fuzz_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	*len = 0;
	if (!f)
		return NULL;
	do {
		if (n == cap) {
			cap = cap ? 2 * cap : 65536;
			CHECK(cap <= FUZZ_OUT_MAX);
			CHECK((buf = realloc(buf, cap + 1)));
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r);
	fclose(f);
	buf[n] = 0;
	*len = n;
	return buf;
}

#endif
