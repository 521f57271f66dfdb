/* SPDX-License-Identifier: BSD-2-Clause */
/* Symbolize a file of hex addresses with bmprof's symbolizer and write what
 * `addr2line -f -i [-a] -e ELF` prints for them.
 *
 *   symbolize_bench [-a] [-v] [-w] ELF ADDRS OUT       (OUT "-" is stdout)
 *
 * -a prints each address first (addr2line -a); -v prints timings to stderr. By default
 * each distinct address (result id) is formatted once, on every core, repeats copy its
 * text, and the output is written 1 MiB at a time. -w writes as addr2line and llvm-symbolizer do:
 * every address's text formatted anew and written and flushed on its own. */
#include <elf.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "symbol/symbolize.h"

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void oom(void)
{
	fprintf(stderr, "symbolize_bench: out of memory\n");
	exit(1);
}

struct buf {
	char *p;
	size_t n, cap;
};

static void put(struct buf *b, const char *s, size_t n)
{
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 1 << 20;
		while (cap < b->n + n)
			cap *= 2;
		char *p = realloc(b->p, cap);
		if (!p)
			oom();
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
}

static void puts_(struct buf *b, const char *s)
{
	put(b, s, strlen(s));
}

static void putu(struct buf *b, unsigned v)
{
	char t[16];
	int i = sizeof(t);
	do
		t[--i] = (char)('0' + v % 10);
	while (v /= 10);
	put(b, t + i, sizeof(t) - (size_t)i);
}

/* addr2line's text for one result: the discriminator of the innermost frame is repeated on
 * every frame that has a line, as binutils 2.40 does. */
static int addr_digits = 16; /* 8 for 32-bit images, as addr2line prints them */

static void format(struct buf *b, const struct sym_result *r, bool with_addr)
{
	if (with_addr) {
		char t[24];
		snprintf(t, sizeof(t), "0x%0*" PRIx64 "\n", addr_digits, r->addr);
		puts_(b, t);
	}
	if (!r->nframes) {
		puts_(b, "??\n??:0\n");
		return;
	}
	unsigned discr = r->frames[0].discriminator;
	for (unsigned i = 0; i < r->nframes; i++) {
		const struct sym_frame *f = &r->frames[i];
		puts_(b, f->function);
		put(b, "\n", 1);
		puts_(b, f->file);
		put(b, ":", 1);
		if (!f->line) {
			put(b, "?\n", 2);
			continue;
		}
		putu(b, f->line);
		if (discr) {
			puts_(b, " (discriminator ");
			putu(b, discr);
			put(b, ")", 1);
		}
		put(b, "\n", 1);
	}
}

/* -w: each address's text formatted and written on its own, and flushed. */
static void write_each(struct symbolizer *s, const uint32_t *ids, size_t n, bool with_addr,
		       FILE *f)
{
	struct buf b = { 0 };

	for (size_t k = 0; k < n; k++) {
		struct sym_result r;
		symbolizer_result(s, ids[k], &r);
		b.n = 0;
		format(&b, &r, with_addr);
		if (fwrite(b.p, 1, b.n, f) != b.n || fflush(f))
			break;
	}
	free(b.p);
}

/* Formatting the text of result ids [from, to) into a buffer of its own. */
struct formatter {
	struct symbolizer *s;
	uint32_t from, to;
	bool with_addr;
	struct buf *text;
	size_t *off, *len;      /* offsets into text, until all threads are done */
};

static void *format_range(void *arg)
{
	struct formatter *f = arg;

	for (uint32_t id = f->from; id < f->to; id++) {
		struct sym_result r;
		symbolizer_result(f->s, id, &r);
		f->off[id] = f->text->n;
		format(f->text, &r, f->with_addr);
		f->len[id] = f->text->n - f->off[id];
	}
	return NULL;
}

#define MAX_FORMATTERS 8

/* Every result's text (off[id], len[id]), formatted on as many threads as there are
 * cores; results only read. 0 or -1. */
static int format_all(struct symbolizer *s, size_t nres, bool with_addr, struct buf *text,
		      const char **off, size_t *len)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t nt = cpus > 1 ? (size_t)cpus : 1, started = 0;
	struct formatter f[MAX_FORMATTERS];
	pthread_t tid[MAX_FORMATTERS];
	size_t *at = malloc(nres * sizeof(*at));

	if (!at)
		return -1;
	nt = nt > MAX_FORMATTERS ? MAX_FORMATTERS : nt;
	nt = nres < 4096 * nt ? 1 : nt;
	for (size_t t = 0; t < nt; t++)
		f[t] = (struct formatter){ s, (uint32_t)(nres * t / nt), (uint32_t)(nres * (t + 1) / nt),
					   with_addr, &text[t], at, len };
	for (size_t t = 1; t < nt; t++, started++)
		if (pthread_create(&tid[t], NULL, format_range, &f[t]))
			break;
	format_range(&f[0]);
	for (size_t t = 1; t <= started; t++)
		pthread_join(tid[t], NULL);
	for (size_t t = started + 1; t < nt; t++)
		format_range(&f[t]);    /* a thread that did not start */
	for (size_t t = 0; t < nt; t++)
		for (uint32_t id = f[t].from; id < f[t].to; id++)
			off[id] = text[t].p + at[id];
	free(at);
	return 0;
}

/* One hex address per line, with or without 0x. */
static uint64_t *read_addrs(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	if (!f || fstat(fileno(f), &st) < 0) {
		perror(path);
		exit(1);
	}
	size_t size = (size_t)st.st_size;
	char *text = malloc(size + 1);
	if (!text)
		oom();
	if (fread(text, 1, size, f) != size) {
		perror(path);
		exit(1);
	}
	fclose(f);
	text[size] = '\n';
	static signed char hex[256];
	memset(hex, -1, sizeof(hex));
	for (int c = 0; c < 10; c++)
		hex['0' + c] = (signed char)c;
	for (int c = 0; c < 6; c++)
		hex['a' + c] = hex['A' + c] = (signed char)(10 + c);
	size_t cap = size / 8 + 16;
	uint64_t *a = malloc(cap * sizeof(*a));
	if (!a)
		oom();
	*n = 0;
	for (const char *p = text, *end = text + size; p < end;) {
		if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
			p += 2;
		uint64_t v = 0;
		const char *start = p;
		for (int d; (d = hex[(unsigned char)*p]) >= 0; p++)
			v = v << 4 | (uint64_t)d;
		if (p > start) {
			if (*n == cap && !(a = realloc(a, (cap *= 2) * sizeof(*a))))
				oom();
			a[(*n)++] = v;
		}
		while (p < end && *p != '\n')
			p++;
		p++;
	}
	free(text);
	return a;
}

int main(int argc, char **argv)
{
	bool with_addr = false, verbose = false, each = false;
	int i = 1;
	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "-a"))
			with_addr = true;
		else if (!strcmp(argv[i], "-v"))
			verbose = true;
		else if (!strcmp(argv[i], "-w"))
			each = true;
		else
			break;
	}
	if (argc - i != 3) {
		fprintf(stderr, "usage: symbolize_bench [-a] [-v] [-w] ELF ADDRS OUT\n");
		return 2;
	}
	double t0 = now();
	size_t n;
	uint64_t *addrs = read_addrs(argv[i + 1], &n);
	double t1 = now();
	char err[256];
	struct symbolizer *s = symbolizer_open(argv[i], err, sizeof(err));
	if (!s) {
		fprintf(stderr, "symbolize_bench: %s\n", err);
		return 1;
	}
	int m = symbolizer_machine(s);
	if (m == EM_386 || m == EM_ARM)
		addr_digits = 8;
	uint32_t *ids = malloc((n ? n : 1) * sizeof(*ids));
	double t1b = now();
	if (!ids || symbolizer_lookup_ids(s, addrs, n, ids) < 0) {
		fprintf(stderr, "symbolize_bench: lookup failed (out of memory)\n");
		return 1;
	}
	double t2 = now();
	/* text per result id, formatted on first use */
	size_t nres = 0;
	for (size_t k = 0; k < n; k++)
		nres = ids[k] >= nres ? ids[k] + 1 : nres;
	const char **off = malloc((nres ? nres : 1) * sizeof(*off));
	size_t *len = malloc((nres ? nres : 1) * sizeof(*len));
	struct buf text[MAX_FORMATTERS] = { { 0 } }, out = { 0 };
	if (!off || !len)
		oom();
	FILE *f = strcmp(argv[i + 2], "-") ? fopen(argv[i + 2], "w") : stdout;
	if (!f) {
		perror(argv[i + 2]);
		return 1;
	}
	if (each) {
		write_each(s, ids, n, with_addr, f);
		nres = 0;
	}
	/* Text of every result, in id order, formatted on every core (each thread a range of
	 * ids into a buffer of its own), then the output in input order; the copies are
	 * prefetched a few addresses ahead, as repeats land anywhere in the text. */
	if (nres && format_all(s, nres, with_addr, text, off, len) < 0)
		oom();
	for (size_t k = 0; k < n && nres; k++) {
		if (out.n >= (1 << 20)) {
			if (fwrite(out.p, 1, out.n, f) != out.n)
				break;
			out.n = 0;
		}
		if (k + 8 < n) {
			const char *p = off[ids[k + 8]];
			__builtin_prefetch(p);
			__builtin_prefetch(p + 64);
		}
		put(&out, off[ids[k]], len[ids[k]]);
	}
	if (fwrite(out.p, 1, out.n, f) != out.n || fclose(f)) {
		perror(argv[i + 2]);
		return 1;
	}
	double t3 = now();
	if (verbose)
		fprintf(stderr, "read %.3f s, open %.3f s, symbolize %.3f s, format+write %.3f s, "
			"%zu addresses\n", t1 - t0, t1b - t1, t2 - t1b, t3 - t2, n);
	for (int t = 0; t < MAX_FORMATTERS; t++)
		free(text[t].p);
	free(out.p);
	free(off);
	free(len);
	free(ids);
	free(addrs);
	symbolizer_close(s);
	return 0;
}
