/* SPDX-License-Identifier: BSD-2-Clause */
/* Reading BHive block lists and writing result rows (bhive_csv.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bhive/bhive_csv.h"

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

void bhive_blocks_free(struct bhive_blocks *b)
{
	for (size_t i = 0; i < b->n; i++) {
		free(b->v[i].hex);
		free(b->v[i].code);
	}
	free(b->v);
	memset(b, 0, sizeof *b);
}

static int add(struct bhive_blocks *b, const char *hex, size_t nhex, unsigned line)
{
	struct bhive_block *k;

	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 256;
		void *v = realloc(b->v, cap * sizeof *b->v);
		if (!v)
			return -1;
		b->v = v;
		b->cap = cap;
	}
	k = &b->v[b->n];
	k->hex = malloc(nhex + 1);
	k->code = malloc(nhex / 2);
	if (!k->hex || !k->code) {
		free(k->hex);
		free(k->code);
		return -1;
	}
	for (size_t i = 0; i < nhex; i++)
		k->hex[i] = (char)(hexval(hex[i]) < 10 ? hex[i] : 'a' + hexval(hex[i]) - 10);
	k->hex[nhex] = 0;
	for (size_t i = 0; i < nhex / 2; i++)
		k->code[i] = (uint8_t)(hexval(hex[2 * i]) << 4 | hexval(hex[2 * i + 1]));
	k->len = nhex / 2;
	k->line = line;
	b->n++;
	return 0;
}

/* Why the first column is not a block, or NULL. */
static const char *check(const char *s, size_t n)
{
	if (!n)
		return "the first column is empty";
	if (n > BHIVE_CSV_MAX_HEX)
		return "the block is longer than 32768 bytes";
	for (size_t i = 0; i < n; i++)
		if (hexval(s[i]) < 0)
			return "the first column is not hexadecimal";
	if (n % 2)
		return "the first column has an odd number of hex digits";
	return NULL;
}

int bhive_csv_parse(const char *text, size_t n, const char *name, struct bhive_blocks *b,
		    char *err, size_t errlen)
{
	const char *p = text, *end = text + n;
	unsigned line = 0;

	memset(b, 0, sizeof *b);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end, *s = p, *c;
		const char *why;
		line++;
		p = nl ? nl + 1 : end;
		while (s < e && is_space(*s))
			s++;
		for (c = s; c < e && *c != ','; c++)
			;
		const char *f = c;
		while (f > s && is_space(f[-1]))
			f--;
		if (s == e || (line == 1 && f - s >= 3 && !strncmp(s, "hex", 3) &&
			       check(s, (size_t)(f - s))))
			continue;   /* a blank line; a header */
		why = check(s, (size_t)(f - s));
		if (why) {
			snprintf(err, errlen, "%s:%u: %s (each line is a block's bytes in hex, "
				 "e.g. 4801d8, optionally followed by a comma and more columns)",
				 name, line, why);
			bhive_blocks_free(b);
			return -1;
		}
		if (add(b, s, (size_t)(f - s), line)) {
			snprintf(err, errlen, "%s:%u: out of memory", name, line);
			bhive_blocks_free(b);
			return -1;
		}
	}
	return 0;
}

int bhive_csv_read(const char *path, struct bhive_blocks *b, char *err, size_t errlen)
{
	int stdin_ = !strcmp(path, "-");
	FILE *f = stdin_ ? stdin : fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0;
	int rc = -1;

	if (!f) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (n == cap) {
			if (cap >= BHIVE_CSV_MAX_FILE) {
				snprintf(err, errlen, "%s: larger than %lu MiB: split it", path,
					 BHIVE_CSV_MAX_FILE >> 20);
				goto out;
			}
			cap = cap ? 2 * cap : 65536;
			char *nb = realloc(buf, cap);
			if (!nb) {
				snprintf(err, errlen, "%s: out of memory", path);
				goto out;
			}
			buf = nb;
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (!got)
			break;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		goto out;
	}
	rc = bhive_csv_parse(buf ? buf : "", n, stdin_ ? "<stdin>" : path, b, err, errlen);
out:
	free(buf);
	if (!stdin_)
		fclose(f);
	return rc;
}

void bhive_csv_row(FILE *f, const char *hex, double cycles, const char *status,
		   const char *detail)
{
	fprintf(f, "%s,", hex);
	if (cycles >= 0)
		fprintf(f, "%.2f", cycles);
	fprintf(f, ",%s,", status);
	for (const char *d = detail; d && *d; d++)
		fputc(*d == ',' ? ';' : *d == '"' ? '\'' : *d == '\n' || *d == '\r' ? ' ' : *d, f);
	fputc('\n', f);
}
