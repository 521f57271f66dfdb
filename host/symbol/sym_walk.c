/* SPDX-License-Identifier: BSD-2-Clause */
/* Answers for addresses in increasing order (sym_internal.h): every table a lookup searches
 * (functions, section intervals, CU intervals, each CU's line rows and function segments)
 * is sorted, so a cursor per table, moved forward by galloping, finds what a binary search
 * would, in a step or two for addresses close together. */
#include <stdlib.h>

#include "symbol/sym_internal.h"

/* The first index from c on whose key is above addr, keys a[i] every stride bytes from
 * base, in increasing order; every key below c is at or below addr. */
static size_t upper_from(const void *base, size_t stride, size_t n, uint64_t addr, size_t c)
{
#define KEY(i) (*(const uint64_t *)((const char *)base + (i) * stride))
	if (c >= n || KEY(c) > addr)
		return c;
	size_t lo = c, step = 1;   /* KEY(lo) <= addr */
	while (lo + step < n && KEY(lo + step) <= addr) {
		lo += step;
		step <<= 1;
	}
	size_t hi = lo + step < n ? lo + step : n;
	for (lo++; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;
		if (KEY(mid) <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
#undef KEY
}

int sym_walk_init(struct sym_walk *w, const struct symbolizer *s)
{
	*w = (struct sym_walk){ 0 };
	w->row = calloc(s->ncus ? s->ncus : 1, sizeof(*w->row));
	w->seg = calloc(s->ncus ? s->ncus : 1, sizeof(*w->seg));
	return w->row && w->seg ? 0 : -1;
}

void sym_walk_free(struct sym_walk *w)
{
	free(w->row);
	free(w->seg);
}

static const struct sym_func *func_at(const struct symbolizer *s, struct sym_walk *w,
				      uint64_t addr)
{
	w->fn = upper_from(s->funcs, sizeof(*s->funcs), s->nfuncs, addr, w->fn);
	if (!w->fn)
		return NULL;
	const struct sym_func *f = &s->funcs[w->fn - 1];
	return addr - f->addr < f->size ? f : NULL;
}

/* find_cu, by cursors: the first CU to try with a line row or a function at addr. */
static const struct sym_cu *cu_at(struct symbolizer *s, struct sym_walk *w, uint64_t addr,
				  uint32_t *li, uint32_t *fi)
{
	if (!s->dw || !s->cus_indexed)
		return NULL;
	size_t iv = upper_from(s->cu_iv_lo, sizeof(uint64_t), s->ncu_iv, addr, w->cuiv);
	if (iv != w->cuiv || !w->have_cand) {
		/* the CUs to try change only from one interval to the next */
		w->cuiv = iv;
		w->ncand = 0;
		if (iv)
			for (uint32_t k = s->cu_iv_first[iv - 1];
			     k < s->cu_iv_first[iv] && w->ncand < SYM_MAX_CANDIDATES; k++)
				w->cand[w->ncand++] = s->cu_iv_cus[k];
		for (size_t k = 0; k < s->ncu_norange && w->ncand < SYM_MAX_CANDIDATES; k++)
			w->cand[w->ncand++] = s->cu_norange[k];
		w->have_cand = 1;
	}
	for (size_t i = 0; i < w->ncand; i++) {
		uint32_t id = w->cand[i];
		const struct sym_cu *c = &s->cus[id];
		if (c->decoded <= 0)
			continue;
		size_t r = w->row[id] = upper_from(c->row_addr, sizeof(uint64_t), c->nrows, addr,
						   w->row[id]);
		size_t g = w->seg[id] = upper_from(c->seg_addr, sizeof(uint64_t), c->nsegs, addr,
						   w->seg[id]);
		*li = r && !c->rows[r - 1].end ? (uint32_t)(r - 1) : SYM_NONE;
		*fi = g ? c->seg_fn[g - 1] : SYM_NONE;
		if (*li != SYM_NONE || *fi != SYM_NONE)
			return c;
	}
	return NULL;
}

int sym_walk_answer(struct symbolizer *s, struct sym_walk *w, struct arena *a, uint64_t addr,
		    struct sym_result *r)
{
	const struct sym_func *fn = func_at(s, w, addr);
	if (fn) {
		r->symbol = fn->name;
		r->sym_start = fn->addr;
		r->sym_size = fn->size;
	}
	w->sec = upper_from(s->sec_iv_lo, sizeof(uint64_t), s->nsec_iv, addr, w->sec);
	const struct sym_section *sec = w->sec ? s->sec_iv[w->sec - 1] : NULL;
	if (!sec) {
		w->cu = NULL;
		return 0;
	}
	uint32_t li = SYM_NONE, fi = SYM_NONE;
	const struct sym_cu *cu = cu_at(s, w, addr, &li, &fi);
	if (!cu) {
		w->cu = NULL;
		return sym_symtab_frame(s, a, addr, sec, r);
	}
	/* the same row and function as the last answer: the same frames, unless a name came
	 * from the symbol table (it depends on the address) */
	if (cu == w->cu && li == w->li && fi == w->fi && sec == w->last_sec) {
		r->frames = w->frames;
		r->nframes = w->nframes;
		return 0;
	}
	if (sym_dwarf_frames(s, a, cu, li, fi, addr, sec, r) < 0)
		return -1;
	const struct sym_fn *f = fi != SYM_NONE ? &cu->fns[fi] : NULL;
	w->cu = f && f->linkage ? cu : NULL;
	w->li = li;
	w->fi = fi;
	w->last_sec = sec;
	w->frames = r->frames;
	w->nframes = r->nframes;
	return 0;
}
