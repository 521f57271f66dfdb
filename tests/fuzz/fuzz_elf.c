/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness for the ELF/DWARF symbolizer: the input is opened as an ELF (through a
 * memfd), then addresses taken from its sections, its symbols and the input itself are
 * looked up one by one and in a batch, functions are found by name, and line rows and
 * bytes are read over their ranges. Checked for any input: open fails with a one-line
 * reason or succeeds; every result is well formed (names and files set, a symbol contains
 * its address, ids are dense and stable, batch and single lookups agree); line rows come
 * in address order inside the range asked for. Odd-sized inputs walk DIEs with libdw
 * instead of the direct scanner, so both paths are fuzzed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "symbol/sym_internal.h"

#define CHECK(c)                                                                          \
	do {                                                                              \
		if (!(c)) {                                                               \
			fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #c); \
			abort();                                                          \
		}                                                                         \
	} while (0)

#define MAX_ADDRS 96

struct addrs {
	uint64_t a[MAX_ADDRS];
	size_t n;
};

static void add(struct addrs *v, uint64_t a)
{
	if (v->n < MAX_ADDRS)
		v->a[v->n++] = a;
}

static void check_result(const struct sym_result *r, uint64_t addr)
{
	CHECK(r->addr == addr);
	CHECK(!r->symbol || addr - r->sym_start < r->sym_size);
	CHECK(!r->nframes || r->frames);
	for (unsigned i = 0; i < r->nframes; i++)
		CHECK(r->frames[i].function && r->frames[i].file);
}

struct lines {
	uint64_t lo, hi, last;
	size_t n;
};

static void on_line(void *ctx, uint64_t addr, const char *file, unsigned line)
{
	struct lines *l = ctx;

	CHECK(file && addr >= l->lo && addr < l->hi && addr >= l->last);
	l->last = addr;
	l->n++;
}

static void check_lines(struct symbolizer *s, uint64_t lo, uint64_t size)
{
	struct lines l = { lo, lo + size < lo ? UINT64_MAX : lo + size, lo, 0 };

	if (l.hi > l.lo)
		symbolizer_lines(s, l.lo, l.hi, on_line, &l);
}

static uint64_t input_word(const uint8_t *data, size_t size, size_t at)
{
	uint64_t v = 0;

	for (size_t i = 0; i < 8 && at + i < size; i++)
		v |= (uint64_t)data[at + i] << (8 * i);
	return v;
}

static void exercise(struct symbolizer *s, const uint8_t *data, size_t size)
{
	struct addrs v = { .n = 0 };
	struct sym_result one[MAX_ADDRS], batch[MAX_ADDRS];
	const uint8_t *id;
	size_t idlen;
	uint8_t bytes[64];

	symbolizer_build_id(s, &id, &idlen);
	CHECK(idlen <= 64);
	(void)symbolizer_has_dwarf(s);
	(void)symbolizer_has_symbols(s);
	(void)symbolizer_machine(s);

	for (size_t i = 0; i < s->nsecs && i < 8; i++) {
		add(&v, s->secs[i].addr);
		add(&v, s->secs[i].addr + s->secs[i].size / 2);
	}
	for (size_t i = 0; i < s->nfuncs && i < 24; i++) {
		add(&v, s->funcs[i].addr);
		add(&v, s->funcs[i].addr + s->funcs[i].size / 2);
		add(&v, s->funcs[i].addr + s->funcs[i].size);
	}
	for (size_t i = 0; i < s->nfb && i < 8; i++)
		add(&v, s->fb[i].addr + 1);
	add(&v, input_word(data, size, size / 3));
	add(&v, input_word(data, size, size / 2));
	add(&v, input_word(data, size, size > 8 ? size - 8 : 0));

	/* the first half in a batch, then everything one by one: the first half comes from
	 * the cache and must agree with the batch */
	size_t half = v.n / 2;
	if (symbolizer_lookup_batch(s, v.a, half, batch) == 0)
		for (size_t i = 0; i < half; i++)
			check_result(&batch[i], v.a[i]);
	else
		half = 0;
	for (size_t i = 0; i < v.n; i++) {
		if (symbolizer_lookup(s, v.a[i], &one[i]) < 0)
			continue;
		check_result(&one[i], v.a[i]);
		if (i < half) {
			CHECK(one[i].id == batch[i].id && one[i].frames == batch[i].frames);
			CHECK(one[i].nframes == batch[i].nframes && one[i].symbol == batch[i].symbol);
		}
		struct sym_result again;
		CHECK(symbolizer_result(s, one[i].id, &again) == 0 && again.addr == v.a[i]);
	}

	for (size_t i = 0; i < s->nbyname && i < 8; i++) {
		const char *name = s->byname[i].f.name;
		uint64_t start, fsize;

		CHECK(symbolizer_find_function(s, name, &start, &fsize) == 0);
		check_lines(s, start, fsize);
		symbolizer_read(s, start, bytes, fsize < sizeof(bytes) ? fsize : sizeof(bytes));
	}
	for (size_t i = 0; i < s->nsecs && i < 4; i++)
		check_lines(s, s->secs[i].addr, s->secs[i].size);
	check_lines(s, 0, UINT64_MAX);
	(void)symbolizer_find_function(s, "main", &(uint64_t){ 0 }, &(uint64_t){ 0 });
}

/* The DWARF sections the symbolizer decodes itself, moved into heap blocks of their exact
 * size: libelf maps the whole file, so a read past the end of a section would otherwise
 * go unnoticed. */
struct copies {
	void *p[9];
};

static void own(const uint8_t **sec, size_t len, struct copies *c, size_t i)
{
	uint8_t *p;

	if (!*sec)
		return;
	p = malloc(len ? len : 1);
	CHECK(p);
	memcpy(p, *sec, len);
	*sec = p;
	c->p[i] = p;
}

static void own_sections(struct symbolizer *s, struct copies *c)
{
	own(&s->debug_line, s->debug_line_len, c, 0);
	own(&s->debug_line_str, s->debug_line_str_len, c, 1);
	own(&s->debug_str, s->debug_str_len, c, 2);
	own(&s->debug_info, s->debug_info_len, c, 3);
	own(&s->debug_abbrev, s->debug_abbrev_len, c, 4);
	own(&s->debug_ranges, s->debug_ranges_len, c, 5);
	own(&s->debug_rnglists, s->debug_rnglists_len, c, 6);
	own(&s->debug_addr, s->debug_addr_len, c, 7);
	own(&s->debug_str_offsets, s->debug_str_offsets_len, c, 8);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	char err[512];
	struct symbolizer *s;

	if (fd < 0) {
		fd = memfd_create("fuzz_elf", MFD_CLOEXEC);
		CHECK(fd >= 0);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	CHECK(ftruncate(fd, 0) == 0);
	CHECK(pwrite(fd, data, size, 0) == (ssize_t)size);

	err[0] = 0;
	s = symbolizer_open(path, err, sizeof(err));
	if (!s) {
		CHECK(err[0] && !strchr(err, '\n'));
		return 0;
	}
	struct copies c = { { NULL } };
	own_sections(s, &c);
	s->no_scan = size & 1;
	exercise(s, data, size);
	symbolizer_close(s);
	for (size_t i = 0; i < 9; i++)
		free(c.p[i]);
	return 0;
}
