/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness for the DWARF type walker and data-type attribution
 * (host/symbol/dtype.h): the input is opened as an ELF (through a memfd) and, when it has
 * DWARF, the globals' addresses (start, middle, last byte, one past), words from the input
 * and its functions' instructions are attributed (dtype_addr, dtype_insn, dtype_reg over
 * every register at a few displacements), and the layouts of some struct names are read.
 * Checked for any input: open fails with a one-line reason or succeeds; every answer has a
 * known class, terminated strings, a type for an object or scalar, an offset inside its
 * type's size; a layout's fields lie in their cache lines and its holes add up. Time and
 * memory are libFuzzer's (-timeout, -rss_limit_mb): a cycle in the types must end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "symbol/dtype.h"
#include "symbol/dtype_internal.h"

#define CHECK(c)                                                                          \
	do {                                                                              \
		if (!(c)) {                                                               \
			fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #c); \
			abort();                                                          \
		}                                                                         \
	} while (0)

static void check_str(const char *s, size_t cap)
{
	CHECK(strnlen(s, cap) < cap);
}

static void check_answer(const struct dtype_answer *a)
{
	char buf[DTYPE_NAME_MAX + DTYPE_PATH_MAX + 32];

	CHECK((unsigned)a->cls < DTYPE__NCLASS && a->cls != DTYPE_UNVERIFIABLE);
	check_str(a->var, sizeof(a->var));
	check_str(a->type, sizeof(a->type));
	check_str(a->member, sizeof(a->member));
	check_str(a->member_type, sizeof(a->member_type));
	check_str(a->expr, sizeof(a->expr));
	if (a->cls == DTYPE_OBJECT || a->cls == DTYPE_SCALARS) {
		CHECK(a->type[0]);
		CHECK(a->type_size && a->offset < a->type_size);
	}
	dtype_format(a, buf, sizeof(buf));
	check_str(buf, sizeof(buf));
}

static uint64_t input_word(const uint8_t *data, size_t size, size_t at)
{
	uint64_t v = 0;

	for (size_t i = 0; i < 8 && at + i < size; i++)
		v |= (uint64_t)data[at + i] << (8 * i);
	return v;
}

static void layout(struct dtype *d, const char *name)
{
	struct dtype_layout l;
	char err[256];
	uint64_t holes = 0;

	err[0] = 0;
	if (dtype_layout(d, name, &l, err, sizeof(err)) < 0) {
		CHECK(err[0] && !strchr(err, '\n'));
		return;
	}
	CHECK(l.n <= DTYPE_MAX_FIELDS && (l.n == 0 || l.fields));
	for (size_t i = 0; i < l.n; i++) {
		const struct dtype_field *f = &l.fields[i];
		check_str(f->name, sizeof(f->name));
		check_str(f->type, sizeof(f->type));
		CHECK(f->line == f->offset / DTYPE_CACHE_LINE);
		holes += f->hole;
	}
	CHECK(holes == l.holes);
	dtype_layout_free(&l);
}

static void exercise(struct symbolizer *s, struct dtype *d, const uint8_t *data, size_t size)
{
	struct dtype_answer a;
	static const int64_t disps[] = { 0, 8, 56, -16 };
	size_t nf = symbolizer_nfunctions(s);

	for (size_t i = 0; i < d->nglobals && i < 32; i++) {
		const struct dt_global *g = &d->globals[i];
		uint64_t at[] = { g->addr, g->addr + g->size / 2, g->addr + g->size - 1,
				  g->addr + g->size };
		for (size_t k = 0; k < 4; k++) {
			CHECK(dtype_addr(d, at[k], &a) == 0);
			check_answer(&a);
		}
	}
	for (size_t k = 0; k < 3; k++) {
		CHECK(dtype_addr(d, input_word(data, size, size * k / 3), &a) == 0);
		check_answer(&a);
	}
	for (size_t i = 0; i < nf && i < 12; i++) {
		const char *name;
		uint64_t start, fsize;

		if (symbolizer_function(s, i, &name, &start, &fsize) < 0)
			continue;
		/* every byte offset of the first 48: instruction starts and the middles */
		for (uint64_t pc = start; pc < start + fsize && pc < start + 48; pc++) {
			struct dtype_mem m;

			if (dtype_insn_mem(d, pc, &m) == 0)
				CHECK(m.base < 32 && m.index < 32);
			CHECK(dtype_insn(d, pc, &a) == 0);
			check_answer(&a);
		}
		for (unsigned r = 0; r < 33; r++) {
			CHECK(dtype_reg(d, start + fsize / 2, r, disps[r % 4], r & 1, &a) == 0);
			check_answer(&a);
		}
	}
	layout(d, "node");
	layout(d, "struct arc");
	layout(d, "union u");
	if (size > 8) {
		char name[9];
		memcpy(name, data + size - 8, 8);
		name[8] = 0;
		layout(d, name);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	char err[512];
	struct symbolizer *s;
	struct dtype *d;

	if (fd < 0) {
		fd = memfd_create("fuzz_dtype", MFD_CLOEXEC);
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
	err[0] = 0;
	d = dtype_open(s, err, sizeof(err));
	if (!d) {
		CHECK(err[0] && !strchr(err, '\n'));
	} else {
		exercise(s, d, data, size);
		dtype_close(d);
	}
	symbolizer_close(s);
	return 0;
}
