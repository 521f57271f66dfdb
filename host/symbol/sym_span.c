/* SPDX-License-Identifier: BSD-2-Clause */
/* How far a symbolizer answer holds (symbolizer_lookup_span): from an address, the span
 * over which everything the answer is made of stays the same: the function symbol, the
 * section, the CUs whose ranges hold the address, in each CU tried before the one that
 * answers (and in that one) the line row and the function segment, and the symbol-table
 * fallback. Every address in the span resolves alike, so a sorted list of addresses is
 * resolved one span at a time. */
#include "symbol/sym_internal.h"

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* a + n, UINT64_MAX if that wraps. */
static uint64_t end_of(uint64_t a, uint64_t n)
{
	return a + n < a ? UINT64_MAX : a + n;
}

/* The first element of sorted a[0..n) above addr, or UINT64_MAX. */
static uint64_t next_above(const uint64_t *a, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (a[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n ? a[lo] : UINT64_MAX;
}

/* Where sym_func_at's answer changes: the end of the function holding addr, or the start
 * of the next one. */
static uint64_t func_end(const struct symbolizer *s, uint64_t addr)
{
	size_t lo = 0, hi = s->nfuncs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->funcs[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	uint64_t end = lo < s->nfuncs ? s->funcs[lo].addr : UINT64_MAX;
	if (lo) {
		const struct sym_func *f = &s->funcs[lo - 1];
		if (addr - f->addr < f->size)
			end = min64(end, end_of(f->addr, f->size));
	}
	return end;
}

/* Where sym_fallback_at's answer in section shndx changes: the next candidate above addr. */
static uint64_t fallback_end(const struct symbolizer *s, uint64_t addr, size_t shndx)
{
	size_t lo = 0, hi = s->nfb;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct sym_fallback *f = &s->fb[mid];
		if (f->shndx < shndx || (f->shndx == shndx && f->addr <= addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->nfb && s->fb[lo].shndx == shndx ? s->fb[lo].addr : UINT64_MAX;
}

uint64_t sym_span_end(struct symbolizer *s, uint64_t addr)
{
	uint64_t end = min64(func_end(s, addr), sym_section_span_end(s, addr));
	const struct sym_section *sec = sym_section_at(s, addr);

	if (!sec)
		return end;
	end = min64(end, fallback_end(s, addr, sec->index));
	if (!s->dw || !s->cus_indexed)
		return end;
	end = min64(end, sym_cu_span_end(s, addr));
	uint32_t cand[SYM_MAX_CANDIDATES];
	size_t nc = sym_candidate_cus(s, addr, cand, SYM_MAX_CANDIDATES);
	for (size_t i = 0; i < nc; i++) {
		struct sym_cu *c = &s->cus[cand[i]];
		if (c->decoded <= 0)
			continue;
		end = min64(end, next_above(c->row_addr, c->nrows, addr));
		end = min64(end, next_above(c->seg_addr, c->nsegs, addr));
		if (sym_line_find(c, addr) != SYM_NONE || sym_die_find(c, addr) != SYM_NONE)
			break;
	}
	return end;
}
