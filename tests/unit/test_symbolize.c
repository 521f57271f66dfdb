/* SPDX-License-Identifier: BSD-2-Clause */
/* The ELF/DWARF symbolizer against binutils on the fixture ELFs (tests/fixtures, built by
 * mk/fixtures.mk): every instruction's frames as addr2line -f -i prints them, with both
 * DIE readers; errors; build-id; function lookup; section bytes; line rows. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "symbol/sym_internal.h"
#include "symbol/symbolize.h"
#include "symbol/sym_share.h"

static const char *fixtures(void)
{
	const char *d = getenv("BMPROF_FIXTURES");
	return d && *d ? d : "build/fixtures";
}

static char *fixture(const char *name)
{
	static char path[4][512];
	static int k;
	char *p = path[k++ & 3];
	snprintf(p, sizeof(path[0]), "%s/%s", fixtures(), name);
	return p;
}

struct text {
	char *p;
	size_t n, cap;
};

static void add(struct text *t, const char *s, size_t n)
{
	if (t->n + n + 1 > t->cap) {
		t->cap = (t->n + n + 1) * 2;
		t->p = realloc(t->p, t->cap);
		assert_non_null(t->p);
	}
	memcpy(t->p + t->n, s, n);
	t->n += n;
	t->p[t->n] = 0;
}

static void addf(struct text *t, const char *fmt, ...)
{
	char b[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	assert_true(n >= 0 && (size_t)n < sizeof(b));
	add(t, b, (size_t)n);
}

/* Output of a shell command. */
static char *run(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	FILE *f = popen(cmd, "r");
	assert_non_null(f);
	struct text t = { 0 };
	char b[65536];
	size_t got;
	add(&t, "", 0);
	while ((got = fread(b, 1, sizeof(b), f)) > 0)
		add(&t, b, got);
	assert_int_equal(pclose(f), 0);
	return t.p;
}

/* Instruction starts objdump -d finds in the executable sections, plus probes outside code:
 * address 0, inside a data object, and the top of the address space. (At the exact address
 * of a data symbol addr2line prints the variable's declaration; bmprof, a code symbolizer,
 * does not.) */
static uint64_t *probe_addrs(const char *elf, size_t *n)
{
	char *out = run("objdump -d --no-show-raw-insn %s", elf);
	char *data = run("nm %s | awk '$3 == \"sym_table\" { print $1 }'", elf);
	size_t cap = 64;
	uint64_t *a = malloc(cap * sizeof(*a));
	assert_non_null(a);
	*n = 0;
	a[(*n)++] = 0;
	a[(*n)++] = UINT64_MAX;
	a[(*n)++] = strtoull(data, NULL, 16) + 8;
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		char *end;
		if (line[0] != ' ')
			continue;
		uint64_t v = strtoull(line, &end, 16);
		if (end == line || *end != ':')
			continue;
		if (*n == cap)
			a = realloc(a, (cap *= 2) * sizeof(*a));
		assert_non_null(a);
		a[(*n)++] = v;
	}
	free(out);
	free(data);
	assert_true(*n > 300);
	return a;
}

/* What addr2line -f -i -a prints for a result: binutils 2.40 repeats the innermost frame's
 * discriminator on every frame that has a line. */
static void format(struct text *t, const struct sym_result *r)
{
	addf(t, "0x%016" PRIx64 "\n", r->addr);
	if (!r->nframes) {
		addf(t, "??\n??:0\n");
		return;
	}
	for (unsigned i = 0; i < r->nframes; i++) {
		const struct sym_frame *f = &r->frames[i];
		addf(t, "%s\n%s:", f->function, f->file);
		if (!f->line)
			addf(t, "?\n");
		else if (r->frames[0].discriminator)
			addf(t, "%u (discriminator %u)\n", f->line, r->frames[0].discriminator);
		else
			addf(t, "%u\n", f->line);
	}
}

static char *addr2line(const char *elf, const uint64_t *a, size_t n)
{
	char tmp[] = "/tmp/bmprof-sym-XXXXXX";
	int fd = mkstemp(tmp);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "0x%" PRIx64 "\n", a[i]);
	fclose(f);
	char *out = run("addr2line -f -i -a -e %s < %s", elf, tmp);
	unlink(tmp);
	return out;
}

/* Compares address by address; prints the first few differences. */
static void compare(const char *elf, const char *want, const char *got)
{
	size_t bad = 0, blocks = 0;
	const char *w = want, *g = got;
	while (*w || *g) {
		const char *we = strstr(w + 1, "\n0x"), *ge = strstr(g + 1, "\n0x");
		size_t wl = we ? (size_t)(we - w) + 1 : strlen(w);
		size_t gl = ge ? (size_t)(ge - g) + 1 : strlen(g);
		if (wl != gl || memcmp(w, g, wl)) {
			if (bad++ < 5)
				fprintf(stderr, "%s: addr2line says\n%.*sbmprof says\n%.*s\n", elf,
					(int)wl, w, (int)gl, g);
		}
		blocks++;
		w += wl;
		g += gl;
	}
	if (bad)
		fprintf(stderr, "%s: %zu of %zu addresses differ\n", elf, bad, blocks);
	assert_int_equal(bad, 0);
	assert_true(blocks > 300);
}

static void check_against_addr2line(const char *name, bool libdw_walk, bool batch)
{
	const char *elf = fixture(name);
	size_t n;
	uint64_t *a = probe_addrs(elf, &n);
	char *want = addr2line(elf, a, n);
	char err[256];
	struct symbolizer *s = symbolizer_open(elf, err, sizeof(err));
	assert_non_null(s);
	s->no_scan = libdw_walk;
	s->slice_min = 64;      /* a batch resolves on several threads where there are CPUs */
	struct text got = { 0 };
	add(&got, "", 0);
	struct sym_result *res = calloc(n, sizeof(*res));
	assert_non_null(res);
	if (batch) {
		assert_int_equal(symbolizer_lookup_batch(s, a, n, res), 0);
	} else {
		for (size_t i = 0; i < n; i++)
			assert_int_equal(symbolizer_lookup(s, a[i], &res[i]), 0);
	}
	for (size_t i = 0; i < n; i++)
		format(&got, &res[i]);
	compare(elf, want, got.p);
	free(res);
	free(got.p);
	free(want);
	free(a);
	symbolizer_close(s);
}

static void test_dwarf5_matches_addr2line(void **state)
{
	(void)state;
	check_against_addr2line("sym_dw5.elf", false, true);
}

static void test_dwarf4_matches_addr2line(void **state)
{
	(void)state;
	check_against_addr2line("sym_dw4.elf", false, false);
}

static void test_libdw_walk_matches_addr2line(void **state)
{
	(void)state;
	check_against_addr2line("sym_dw5.elf", true, false);
	check_against_addr2line("sym_dw4.elf", true, true);
}

/* Enough CUs that a batch decodes them on several threads (where there are CPUs). */
static void test_many_cus_match_addr2line(void **state)
{
	(void)state;
	char err[256];
	struct symbolizer *s = symbolizer_open(fixture("sym_multi.elf"), err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(sym_cu_index(s), 0);
	assert_true(s->ncus >= 12);
	symbolizer_close(s);
	check_against_addr2line("sym_multi.elf", false, true);
}

/* The fixtures exercise what the comparison is meant to cover. */
static void test_fixture_has_inlines_and_discriminators(void **state)
{
	(void)state;
	const char *elf = fixture("sym_dw5.elf");
	size_t n;
	uint64_t *a = probe_addrs(elf, &n);
	char err[256];
	struct symbolizer *s = symbolizer_open(elf, err, sizeof(err));
	assert_non_null(s);
	unsigned deepest = 0, discr = 0, header = 0, other_dir = 0;
	for (size_t i = 0; i < n; i++) {
		struct sym_result r;
		assert_int_equal(symbolizer_lookup(s, a[i], &r), 0);
		deepest = r.nframes > deepest ? r.nframes : deepest;
		for (unsigned k = 0; k < r.nframes; k++) {
			discr += r.frames[k].discriminator != 0;
			header += strstr(r.frames[k].file, "sym_util.h") != NULL;
			other_dir += strstr(r.frames[k].file, "tests/fixtures/sym_other.c") != NULL;
		}
	}
	assert_true(deepest >= 4);
	assert_true(discr > 0);
	assert_true(header > 0);
	assert_true(other_dir > 0);
	free(a);
	symbolizer_close(s);
}

static void test_cache_and_ids(void **state)
{
	(void)state;
	char err[256];
	struct symbolizer *s = symbolizer_open(fixture("sym_dw5.elf"), err, sizeof(err));
	assert_non_null(s);
	uint64_t start, size;
	assert_int_equal(symbolizer_find_function(s, "compute", &start, &size), 0);
	uint64_t addrs[] = { start + 4, start, start + 4, start + 1, start };
	uint32_t ids[5];
	assert_int_equal(symbolizer_lookup_ids(s, addrs, 5, ids), 0);
	/* distinct addresses get dense ids in address order */
	assert_int_equal(ids[1], 0);
	assert_int_equal(ids[3], 1);
	assert_int_equal(ids[0], 2);
	assert_int_equal(ids[2], ids[0]);
	assert_int_equal(ids[4], ids[1]);
	struct sym_result a, b, c;
	assert_int_equal(symbolizer_lookup(s, start + 4, &a), 0);
	assert_int_equal(symbolizer_lookup(s, start + 4, &b), 0);
	assert_int_equal(a.id, 2);
	assert_ptr_equal(a.frames, b.frames);
	assert_int_equal(symbolizer_result(s, 2, &c), 0);
	assert_ptr_equal(c.frames, a.frames);
	assert_int_equal(symbolizer_result(s, 3, &c), -1);
	assert_int_equal(s->results.n, 3);
	symbolizer_close(s);
}

static int same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static int same_answer(const struct sym_result *a, const struct sym_result *b)
{
	if (!same_str(a->symbol, b->symbol) || a->sym_start != b->sym_start ||
	    a->sym_size != b->sym_size || a->nframes != b->nframes)
		return 0;
	for (unsigned i = 0; i < a->nframes; i++) {
		const struct sym_frame *x = &a->frames[i], *y = &b->frames[i];
		if (!same_str(x->function, y->function) || !same_str(x->file, y->file) ||
		    x->line != y->line || x->column != y->column ||
		    x->discriminator != y->discriminator)
			return 0;
	}
	return 1;
}

/* Every byte address around the code, walked in order one span at a time, gets the
 * answer a lookup of that address gives; and spans do cover many addresses. */
static void check_spans(const char *name)
{
	char err[256];
	struct symbolizer *one = symbolizer_open(fixture(name), err, sizeof(err));
	struct symbolizer *span = symbolizer_open(fixture(name), err, sizeof(err));
	assert_non_null(one);
	assert_non_null(span);
	size_t nf = symbolizer_nfunctions(one), nspans = 0, n = 0;
	const char *fn;
	uint64_t lo, hi, size, until = 0;
	assert_true(nf > 0);
	assert_int_equal(symbolizer_function(one, 0, &fn, &lo, &size), 0);
	assert_int_equal(symbolizer_function(one, nf - 1, &fn, &hi, &size), 0);
	hi += size + 64;
	lo = lo > 64 ? lo - 64 : 0;
	struct sym_result cur = { 0 };
	for (uint64_t a = lo; a < hi; a++, n++) {
		struct sym_result want;
		if (a >= until || !nspans) {
			assert_int_equal(symbolizer_lookup_span(span, a, &cur, &until), 0);
			assert_true(until > a);
			nspans++;
		}
		assert_int_equal(symbolizer_lookup(one, a, &want), 0);
		if (!same_answer(&want, &cur))
			fprintf(stderr, "%s: 0x%" PRIx64 " differs from its span's answer\n", name, a);
		assert_true(same_answer(&want, &cur));
	}
	assert_true(nspans * 2 < n);
	/* the ends of the address space */
	const uint64_t edge[] = { 0, 1, UINT64_MAX - 1, UINT64_MAX };
	for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
		struct sym_result want;
		assert_int_equal(symbolizer_lookup_span(span, edge[i], &cur, &until), 0);
		assert_true(until > edge[i] || edge[i] == UINT64_MAX);
		assert_int_equal(symbolizer_lookup(one, edge[i], &want), 0);
		assert_true(same_answer(&want, &cur));
	}
	symbolizer_close(one);
	symbolizer_close(span);
}

static void test_spans_match_lookups(void **state)
{
	(void)state;
	check_spans("sym_dw5.elf");
	check_spans("sym_dw4.elf");
	check_spans("sym_multi.elf");
}

/* One symbolizer per file while it has users; another file has its own. */
static void test_shared_per_file(void **state)
{
	(void)state;
	char err[256];
	struct symbolizer *a = sym_share_open(fixture("sym_dw5.elf"), err, sizeof(err));
	struct symbolizer *b = sym_share_open(fixture("sym_dw5.elf"), err, sizeof(err));
	struct symbolizer *c = sym_share_open(fixture("sym_dw4.elf"), err, sizeof(err));
	assert_non_null(a);
	assert_ptr_equal(a, b);
	assert_non_null(c);
	assert_ptr_not_equal(a, c);
	sym_share_close(a);
	struct sym_result r;
	assert_int_equal(symbolizer_lookup(b, 0x1000, &r), 0);   /* still open for b */
	sym_share_close(b);
	sym_share_close(c);
	assert_null(sym_share_open(fixture("no-such-file.elf"), err, sizeof(err)));
}

static void expect_error(const char *path, const char *what)
{
	char err[256] = "";
	struct symbolizer *s = symbolizer_open(path, err, sizeof(err));
	assert_null(s);
	if (!strstr(err, what) || !strstr(err, path) || strchr(err, '\n'))
		fprintf(stderr, "unexpected message for %s: %s\n", path, err);
	assert_non_null(strstr(err, what));
	assert_non_null(strstr(err, path));
	assert_null(strchr(err, '\n'));
}

static void test_errors(void **state)
{
	(void)state;
	expect_error(fixture("no-such-file.elf"), "no such file");
	expect_error(fixture("not_elf.txt"), "not an ELF file");
	expect_error(fixture("sym_trunc.elf"), "truncated");
	expect_error(fixtures(), "is a directory, not an ELF file");
}

static void test_stripped(void **state)
{
	(void)state;
	const char *elf = fixture("sym_stripped.elf");
	char err[256];
	struct symbolizer *s = symbolizer_open(elf, err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(symbolizer_has_symbols(s), 0);
	assert_int_equal(symbolizer_has_dwarf(s), 0);
	uint64_t start, size;
	assert_int_equal(symbolizer_find_function(s, "main", &start, &size), -1);
	/* the entry point is code; nothing names it, as addr2line agrees */
	char *hdr = run("readelf -h %s | awk '/Entry point/ { print $4 }'", elf);
	uint64_t entry = strtoull(hdr, NULL, 16);
	struct sym_result r;
	assert_int_equal(symbolizer_lookup(s, entry, &r), 0);
	assert_null(r.symbol);
	assert_int_equal(r.nframes, 0);
	char *a2l = run("addr2line -f -e %s 0x%" PRIx64, elf, entry);
	assert_string_equal(a2l, "??\n??:0\n");
	free(a2l);
	free(hdr);
	symbolizer_close(s);
}

static void test_build_id(void **state)
{
	(void)state;
	const char *elf = fixture("sym_dw5.elf");
	char *want = run("readelf -n %s | awk '/Build ID/ { print $3 }'", elf);
	want[strcspn(want, "\n")] = 0;
	assert_true(strlen(want) >= 16);
	char err[256], got[129] = "";
	struct symbolizer *s = symbolizer_open(elf, err, sizeof(err));
	assert_non_null(s);
	const uint8_t *id;
	size_t len;
	symbolizer_build_id(s, &id, &len);
	for (size_t i = 0; i < len && i < 64; i++)
		sprintf(got + 2 * i, "%02x", id[i]);
	assert_string_equal(got, want);
	assert_int_equal(symbolizer_machine(s), 62 /* EM_X86_64 */);
	free(want);
	symbolizer_close(s);
}

/* nm -S's address and size for a name (first line), 0 if absent. */
static int nm_symbol(const char *elf, const char *name, char type, uint64_t *addr,
		     uint64_t *size)
{
	char *out = run("nm -S %s | awk '$4 == \"%s\" && $3 == \"%c\" { print $1, $2; exit }'",
			elf, name, type);
	int n = sscanf(out, "%" SCNx64 " %" SCNx64, addr, size);
	free(out);
	return n == 2;
}

static void test_find_function(void **state)
{
	(void)state;
	const char *elf = fixture("sym_dw5.elf");
	char err[256];
	struct symbolizer *s = symbolizer_open(elf, err, sizeof(err));
	assert_non_null(s);
	const char *names[] = { "compute", "branchy", "main", "other_entry", "other_loop" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		uint64_t a, z, start, size;
		assert_true(nm_symbol(elf, names[i], 'T', &a, &z));
		assert_int_equal(symbolizer_find_function(s, names[i], &start, &size), 0);
		assert_int_equal(start, a);
		assert_int_equal(size, z);
	}
	uint64_t start, size, cstart, csize;
	assert_int_equal(symbolizer_find_function(s, "compute", &cstart, &csize), 0);
	assert_int_equal(symbolizer_find_function(s, "sym_alias_weak", &start, &size), 0);
	assert_int_equal(start, cstart);
	/* a static helper() in each CU: one of the two local symbols */
	uint64_t h1, hz1, h2, hz2;
	assert_int_equal(symbolizer_find_function(s, "helper", &start, &size), 0);
	char *both = run("nm -S %s | awk '$4 == \"helper\" { print $1, $2 }'", elf);
	assert_int_equal(sscanf(both, "%" SCNx64 " %" SCNx64 " %" SCNx64 " %" SCNx64, &h1, &hz1,
				&h2, &hz2), 4);
	assert_true((start == h1 && size == hz1) || (start == h2 && size == hz2));
	free(both);
	/* zero-size assembly symbol: extends to the next symbol */
	assert_int_equal(symbolizer_find_function(s, "sym_asm_nosize", &start, &size), 0);
	assert_true(size >= 4);
	struct sym_result r;
	assert_int_equal(symbolizer_lookup(s, start + size - 1, &r), 0);
	assert_string_equal(r.symbol, "sym_asm_nosize");
	assert_int_equal(r.sym_start, start);
	assert_int_equal(symbolizer_lookup(s, start + size, &r), 0);
	assert_true(!r.symbol || strcmp(r.symbol, "sym_asm_nosize"));
	/* an address in compute is compute or its global alias, never the weak alias */
	assert_int_equal(symbolizer_lookup(s, cstart + 3, &r), 0);
	assert_non_null(r.symbol);
	assert_true(!strcmp(r.symbol, "compute") || !strcmp(r.symbol, "sym_alias_global"));
	assert_int_equal(r.sym_start, cstart);
	assert_int_equal(r.sym_size, csize);
	assert_int_equal(symbolizer_find_function(s, "no_such_function", &start, &size), -1);
	symbolizer_close(s);
}

static void test_read_matches_section_bytes(void **state)
{
	(void)state;
	const char *elf = fixture("sym_dw4.elf");
	char *hdr = run("readelf -SW %s | awk '$2 == \".text\" { print $4, $6 }'", elf);
	uint64_t addr, size;
	assert_int_equal(sscanf(hdr, "%" SCNx64 " %" SCNx64, &addr, &size), 2);
	char tmp[] = "/tmp/bmprof-text-XXXXXX";
	int fd = mkstemp(tmp);
	assert_true(fd >= 0);
	close(fd);
	free(run("objcopy -O binary --only-section=.text %s %s", elf, tmp));
	FILE *f = fopen(tmp, "rb");
	assert_non_null(f);
	uint8_t *want = malloc(size), *got = malloc(size);
	assert_int_equal(fread(want, 1, size, f), size);
	fclose(f);
	unlink(tmp);
	char err[256];
	struct symbolizer *s = symbolizer_open(elf, err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(symbolizer_read(s, addr, got, size), 0);
	assert_memory_equal(got, want, size);
	assert_int_equal(symbolizer_read(s, addr + 7, got, 9), 0);
	assert_memory_equal(got, want + 7, 9);
	assert_int_equal(symbolizer_read(s, 0, got, 4), -1);
	/* in the file: .text is, up to its end; .bss is read as zeros but is not */
	assert_int_equal(symbolizer_in_file(s, addr, size), 1);
	assert_int_equal(symbolizer_in_file(s, addr, (uint64_t)1 << 55), 0);
	assert_int_equal(symbolizer_in_file(s, 0, 4), 0);
	char *bss = run("readelf -SW %s | awk '$2 == \".bss\" { print $4 }'", elf);
	uint64_t bss_addr;
	assert_int_equal(sscanf(bss, "%" SCNx64, &bss_addr), 1);
	assert_int_equal(symbolizer_read(s, bss_addr, got, 4), 0);
	assert_int_equal(symbolizer_in_file(s, bss_addr, 4), 0);
	free(bss);
	free(want);
	free(got);
	free(hdr);
	symbolizer_close(s);
}

struct rows {
	uint64_t addr[4096];
	const char *file[4096];
	unsigned line[4096];
	size_t n;
};

static void on_row(void *ctx, uint64_t addr, const char *file, unsigned line)
{
	struct rows *r = ctx;
	assert_true(r->n < 4096);
	r->addr[r->n] = addr;
	r->file[r->n] = file;
	r->line[r->n++] = line;
}

static void test_lines(void **state)
{
	(void)state;
	char err[256];
	struct symbolizer *s = symbolizer_open(fixture("sym_dw5.elf"), err, sizeof(err));
	assert_non_null(s);
	uint64_t start, size;
	assert_int_equal(symbolizer_find_function(s, "compute", &start, &size), 0);
	struct rows *r = calloc(1, sizeof(*r));
	assert_int_equal(symbolizer_lines(s, start, start + size, on_row, r), 0);
	assert_true(r->n > 10);
	assert_int_equal(r->addr[0], start);
	for (size_t i = 0; i < r->n; i++) {
		assert_true(r->addr[i] >= start && r->addr[i] < start + size);
		if (i)
			assert_true(r->addr[i] > r->addr[i - 1]);
		/* each row is what a lookup at its address reports for the innermost frame */
		struct sym_result res;
		assert_int_equal(symbolizer_lookup(s, r->addr[i], &res), 0);
		assert_true(res.nframes > 0);
		assert_string_equal(res.frames[0].file, r->file[i]);
		assert_int_equal(res.frames[0].line, r->line[i]);
	}
	/* a range starting inside a row reports that row at the range start */
	size_t k = 0;
	while (k + 1 < r->n && r->addr[k + 1] == r->addr[k] + 1)
		k++;
	assert_true(k + 1 < r->n);
	struct rows *r2 = calloc(1, sizeof(*r2));
	assert_int_equal(symbolizer_lines(s, r->addr[k] + 1, start + size, on_row, r2), 0);
	assert_int_equal(r2->addr[0], r->addr[k] + 1);
	assert_int_equal(r2->line[0], r->line[k]);
	assert_int_equal(r2->n, r->n - k);
	free(r);
	free(r2);
	symbolizer_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dwarf5_matches_addr2line),
		cmocka_unit_test(test_dwarf4_matches_addr2line),
		cmocka_unit_test(test_libdw_walk_matches_addr2line),
		cmocka_unit_test(test_many_cus_match_addr2line),
		cmocka_unit_test(test_fixture_has_inlines_and_discriminators),
		cmocka_unit_test(test_cache_and_ids),
		cmocka_unit_test(test_spans_match_lookups),
		cmocka_unit_test(test_shared_per_file),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_stripped),
		cmocka_unit_test(test_build_id),
		cmocka_unit_test(test_find_function),
		cmocka_unit_test(test_read_matches_section_bytes),
		cmocka_unit_test(test_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
