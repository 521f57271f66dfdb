/* SPDX-License-Identifier: BSD-2-Clause */
/* 32-bit Arm mapping symbols (the Arm ELF ABI's $a, $t and $d, each maybe with a ".suffix"):
 * where code and data alternate inside a section. A $d starts data (a literal pool, a
 * tbb/tbh table) that runs to the next mapping symbol of its section, or to the section's
 * end; annotate and the decoder show and skip it as data, as objdump does. */
#include <stdlib.h>
#include <string.h>

#include "symbol/sym_internal.h"

/* 'a', 't' or 'd' for a mapping symbol's name; 0 for any other name. */
int sym_armmap_kind(const char *name)
{
	if (name[0] != '$' || !strchr("atd", name[1]) || (name[2] && name[2] != '.'))
		return 0;
	return name[1];
}

int sym_armmap_add(struct symbolizer *s, uint64_t addr, uint64_t sec_end, size_t shndx,
		   int kind)
{
	if (s->narmmap == s->carmmap) {
		size_t cap = s->carmmap ? 2 * s->carmmap : 64;
		struct sym_armmap *v = realloc(s->armmap, cap * sizeof(*v));

		if (!v)
			return -1;
		s->armmap = v;
		s->carmmap = cap;
	}
	s->armmap[s->narmmap++] = (struct sym_armmap){ addr, sec_end, shndx, (char)kind };
	s->armmap_sorted = false;
	return 0;
}

static int cmp_map(const void *pa, const void *pb)
{
	const struct sym_armmap *a = pa, *b = pb;

	if (a->shndx != b->shndx)
		return a->shndx < b->shndx ? -1 : 1;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return (a->kind == 'd') - (b->kind == 'd');   /* code first at one address */
}

long symbolizer_data_ranges(struct symbolizer *s, uint64_t lo, uint64_t hi,
			    struct sym_range **out)
{
	struct sym_range *v = NULL;
	size_t n = 0, cap = 0;

	*out = NULL;
	if (!s->narmmap)
		return 0;
	if (!s->armmap_sorted) {
		qsort(s->armmap, s->narmmap, sizeof(*s->armmap), cmp_map);
		s->armmap_sorted = true;
	}
	for (size_t i = 0; i < s->narmmap; i++) {
		const struct sym_armmap *m = &s->armmap[i];
		uint64_t end = m->sec_end;
		size_t j;

		if (m->kind != 'd' || m->addr >= hi)
			continue;
		/* to the next mapping symbol of its section (objdump starts its data over at
		 * each: a .word never spans one) */
		for (j = i + 1; j < s->narmmap && s->armmap[j].shndx == m->shndx; j++)
			if (s->armmap[j].addr > m->addr) {
				end = s->armmap[j].addr;
				break;
			}
		if (end <= lo || (n && v[n - 1].hi > m->addr))   /* a second name for one place */
			continue;
		if (n == cap) {
			struct sym_range *t;

			cap = cap ? 2 * cap : 16;
			t = realloc(v, cap * sizeof(*v));
			if (!t) {
				free(v);
				return -1;
			}
			v = t;
		}
		v[n++] = (struct sym_range){ m->addr > lo ? m->addr : lo, end < hi ? end : hi };
	}
	*out = v;
	return (long)n;
}
