/* SPDX-License-Identifier: BSD-2-Clause */
/* DWARF units and function DIEs: the CU address index (libdw), and per CU the tree of
 * subprograms and inlined subroutines (sym_scan.c, or the libdw walk here when the scanner
 * declines) flattened into elementary address intervals, each with the function addr2line
 * picks there (the smallest single range containing the address; on a tie the later DIE). */
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/sym_internal.h"

static int cmp_cu_range(const void *a, const void *b)
{
	const struct sym_cu_range *x = a, *y = b;
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->cu < y->cu ? -1 : x->cu > y->cu;
}

static uint64_t udata_or(Dwarf_Die *die, unsigned name, uint64_t absent)
{
	Dwarf_Attribute a;
	Dwarf_Word v;
	if (!dwarf_attr(die, name, &a) || dwarf_formudata(&a, &v) != 0)
		return absent;
	return v;
}

static int add_cu(Dwarf_Die *cudie, struct sym_cu *cu, uint32_t idx, struct vec *ranges,
		  struct vec *norange)
{
	Dwarf_Attribute a;
	cu->die_off = dwarf_dieoffset(cudie);
	cu->comp_dir = dwarf_formstring(dwarf_attr(cudie, DW_AT_comp_dir, &a));
	cu->lang = dwarf_srclang(cudie);
	if (dwarf_attr(cudie, DW_AT_stmt_list, &a) && dwarf_formudata(&a, &cu->stmt_off) == 0)
		cu->has_stmt = true;
	Dwarf_Addr base = 0;
	cu->base_addr = dwarf_lowpc(cudie, &base) == 0 ? base : 0;
	cu->rnglists_base = udata_or(cudie, DW_AT_rnglists_base, 0);
	cu->addr_base = udata_or(cudie, DW_AT_addr_base, udata_or(cudie, DW_AT_GNU_addr_base, 0));
	cu->str_offsets_base = udata_or(cudie, DW_AT_str_offsets_base, 0);
	Dwarf_Addr lo, hi;
	ptrdiff_t it = 0;
	size_t before = ranges->n;
	while ((it = dwarf_ranges(cudie, it, &base, &lo, &hi)) > 0) {
		if (hi <= lo)
			continue;
		struct sym_cu_range *r = vec_push(ranges);
		if (!r)
			return -1;
		*r = (struct sym_cu_range){ lo, hi, idx };
	}
	if (ranges->n == before) {
		uint32_t *n = vec_push(norange);
		if (!n)
			return -1;
		*n = idx;
	}
	return 0;
}

int sym_cu_index(struct symbolizer *s)
{
	struct vec cus = { .elem = sizeof(struct sym_cu) };
	struct vec ranges = { .elem = sizeof(struct sym_cu_range) };
	struct vec norange = { .elem = sizeof(uint32_t) };
	Dwarf_Off off = 0, next, abbrev;
	size_t hsz;
	Dwarf_Half version;
	uint8_t asz, osz;
	int rc = 0;
	s->cus_indexed = true;
	while (rc == 0 && dwarf_next_unit(s->dw, off, &next, &hsz, &version, &abbrev, &asz, &osz,
					  NULL, NULL) == 0) {
		Dwarf_Die cudie;
		int tag = dwarf_offdie(s->dw, off + hsz, &cudie) ? dwarf_tag(&cudie) : -1;
		if (tag == DW_TAG_compile_unit || tag == DW_TAG_partial_unit ||
		    tag == DW_TAG_skeleton_unit) {
			struct sym_cu *cu = vec_push(&cus);
			if (!cu) {
				rc = -1;
				break;
			}
			*cu = (struct sym_cu){ .unit_off = off, .unit_end = next, .abbrev_off = abbrev,
					       .version = version, .addr_size = asz,
					       .offset_size = osz };
			rc = add_cu(&cudie, cu, (uint32_t)(cus.n - 1), &ranges, &norange);
		}
		off = next;
	}
	s->cus = cus.data;
	s->ncus = cus.n;
	s->cu_ranges = ranges.data;
	s->ncu_ranges = ranges.n;
	s->cu_norange = norange.data;
	s->ncu_norange = norange.n;
	if (rc)
		return -1;
	if (s->ncu_ranges)
		qsort(s->cu_ranges, s->ncu_ranges, sizeof(*s->cu_ranges), cmp_cu_range);
	s->cu_range_maxhi = malloc((s->ncu_ranges ? s->ncu_ranges : 1) * sizeof(uint64_t));
	if (!s->cu_range_maxhi)
		return -1;
	uint64_t m = 0;
	for (size_t i = 0; i < s->ncu_ranges; i++) {
		if (s->cu_ranges[i].hi > m)
			m = s->cu_ranges[i].hi;
		s->cu_range_maxhi[i] = m;
	}
	return sym_cu_intervals(s);
}

/* Languages whose DW_AT_name addr2line treats as the linkage name (binutils mangle_style 0). */
bool sym_plain_names(int lang)
{
	switch (lang) {
	case DW_LANG_C89:
	case DW_LANG_C:
	case DW_LANG_C99:
	case DW_LANG_C11:
	case DW_LANG_Cobol74:
	case DW_LANG_Cobol85:
	case DW_LANG_Fortran77:
	case DW_LANG_Fortran90:
	case DW_LANG_Fortran95:
	case DW_LANG_Fortran03:
	case DW_LANG_Fortran08:
	case DW_LANG_Pascal83:
	case DW_LANG_Modula2:
	case DW_LANG_PLI:
	case DW_LANG_UPC:
	case DW_LANG_Mips_Assembler:
		return true;
	default:
		return lang == 0x2c /* DW_LANG_C17 */;
	}
}

struct walker {
	struct symbolizer *s;
	struct sym_cu *cu;
	struct vec *fns;        /* struct sym_fn */
	struct vec *ranges;     /* struct fn_range */
};

static struct fn_name name_of(Dwarf_Die *src, int lang)
{
	Dwarf_Attribute a;
	struct fn_name n = { NULL, false };
	const char *link = dwarf_formstring(dwarf_attr_integrate(src, DW_AT_linkage_name, &a));
	if (!link)
		link = dwarf_formstring(dwarf_attr_integrate(src, DW_AT_MIPS_linkage_name, &a));
	if (link) {
		n.name = link;
		n.linkage = true;
	} else {
		n.name = dwarf_formstring(dwarf_attr_integrate(src, DW_AT_name, &a));
		n.linkage = n.name && sym_plain_names(lang);
	}
	return n;
}

struct fn_name sym_die_name_at(struct symbolizer *s, const struct sym_cu *cu, uint64_t off)
{
	sym_lock(s);
	if (!s->names.elem)
		s->names.elem = sizeof(struct fn_name);
	struct fn_name n = { NULL, false };
	uint32_t *slot = u64map_slot(&s->name_cache, off);
	if (slot && *slot != SYM_NONE) {
		n = ((struct fn_name *)s->names.data)[*slot];
		sym_unlock(s);
		return n;
	}
	Dwarf_Die die;
	if (dwarf_offdie(s->dw, off, &die))
		n = name_of(&die, cu->lang);
	struct fn_name *p = slot ? vec_push(&s->names) : NULL;
	if (p) {
		*p = n;
		*slot = (uint32_t)(s->names.n - 1);
	}
	sym_unlock(s);
	return n;
}

/* The name through abstract_origin / specification, cached by the DIE it comes from. */
static struct fn_name die_name(struct walker *w, Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Die origin, *src = die;
	if (dwarf_attr(die, DW_AT_abstract_origin, &a) && dwarf_formref_die(&a, &origin))
		src = &origin;
	return sym_die_name_at(w->s, w->cu, dwarf_dieoffset(src));
}

static uint32_t udata_attr(Dwarf_Die *die, unsigned name, uint32_t absent)
{
	Dwarf_Attribute a;
	Dwarf_Word v;
	if (!dwarf_attr(die, name, &a) || dwarf_formudata(&a, &v) != 0)
		return absent;
	return (uint32_t)v;
}

static int add_fn(struct walker *w, Dwarf_Die *die, int tag, uint32_t parent, uint32_t *idx)
{
	struct sym_fn *f = vec_push(w->fns);
	if (!f)
		return -1;
	*idx = (uint32_t)(w->fns->n - 1);
	struct fn_name n = die_name(w, die);
	bool inl = tag == DW_TAG_inlined_subroutine;
	*f = (struct sym_fn){
		.name = n.name,
		.linkage = n.linkage,
		.inlined = inl,
		.parent = inl ? parent : SYM_NONE,
		.call_file = inl ? udata_attr(die, DW_AT_call_file, SYM_NONE) : SYM_NONE,
		.call_line = inl ? udata_attr(die, DW_AT_call_line, 0) : 0,
		.call_column = inl ? udata_attr(die, DW_AT_call_column, 0) : 0,
	};
	Dwarf_Addr base, lo, hi;
	ptrdiff_t it = 0;
	while ((it = dwarf_ranges(die, it, &base, &lo, &hi)) > 0) {
		if (hi <= lo)
			continue;
		struct fn_range *r = vec_push(w->ranges);
		if (!r)
			return -1;
		*r = (struct fn_range){ lo, hi, *idx };
	}
	return 0;
}

/* Compilers nest functions and blocks a few dozen deep; a damaged file can nest a DIE per
 * byte, which would overflow the stack here and cost libdw a subtree skip per level. What
 * lies deeper than this is ignored. */
#define MAX_DIE_DEPTH 256

static int walk(struct walker *w, Dwarf_Die *parent, uint32_t fn, unsigned depth)
{
	Dwarf_Die c;
	if (depth >= MAX_DIE_DEPTH || dwarf_child(parent, &c) != 0)
		return 0;
	do {
		int tag = dwarf_tag(&c);
		uint32_t idx;
		switch (tag) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
		case DW_TAG_entry_point:
			if (add_fn(w, &c, tag, fn, &idx) < 0)
				return -1;
			if (dwarf_haschildren(&c) > 0 && walk(w, &c, idx, depth + 1) < 0)
				return -1;
			break;
		case DW_TAG_lexical_block:
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_try_block:
		case DW_TAG_catch_block:
			if (dwarf_haschildren(&c) > 0 && walk(w, &c, fn, depth + 1) < 0)
				return -1;
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return 0;
}

/* Heap of active ranges ordered by (length, later DIE first). */
static bool heap_less(const struct fn_range *a, const struct fn_range *b)
{
	uint64_t la = a->hi - a->lo, lb = b->hi - b->lo;
	return la != lb ? la < lb : a->fn > b->fn;
}

static void heap_push(struct fn_range *h, size_t *n, struct fn_range r)
{
	size_t i = (*n)++;
	while (i && heap_less(&r, &h[(i - 1) / 2])) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = r;
}

static void heap_pop(struct fn_range *h, size_t *n)
{
	struct fn_range last = h[--*n];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= *n)
			break;
		if (c + 1 < *n && heap_less(&h[c + 1], &h[c]))
			c++;
		if (!heap_less(&h[c], &last))
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n)
		h[i] = last;
}

static int build_segments(struct symbolizer *s, struct sym_cu *cu, struct vec *ranges)
{
	struct fn_range *r = ranges->data;
	size_t n = ranges->n;
	if (!n)
		return 0;
	sym_sort_ranges(r, n);
	uint64_t *his = malloc(n * sizeof(*his));
	struct fn_range *heap = malloc(n * sizeof(*heap));
	cu->seg_addr = arena_alloc(&s->arena, 2 * n * sizeof(*cu->seg_addr));
	cu->seg_fn = arena_alloc(&s->arena, 2 * n * sizeof(*cu->seg_fn));
	if (!his || !heap || !cu->seg_addr || !cu->seg_fn) {
		free(his);
		free(heap);
		return -1;
	}
	/* The boundaries are the starts (in order already) merged with the sorted ends. */
	for (size_t i = 0; i < n; i++)
		his[i] = r[i].hi;
	sym_sort_u64(his, n);
	size_t nh = 0, next = 0, end = 0, ns = 0;
	while (next < n || end < n) {
		uint64_t p = end == n || (next < n && r[next].lo < his[end]) ? r[next].lo : his[end];
		while (next < n && r[next].lo <= p)
			heap_push(heap, &nh, r[next++]);
		while (end < n && his[end] <= p)
			end++;
		while (nh && heap[0].hi <= p)
			heap_pop(heap, &nh);
		uint32_t best = nh ? heap[0].fn : SYM_NONE;
		if (ns && cu->seg_fn[ns - 1] == best)
			continue;
		cu->seg_addr[ns] = p;
		cu->seg_fn[ns++] = best;
	}
	cu->nsegs = ns;
	free(his);
	free(heap);
	return 0;
}

int sym_die_walk(struct symbolizer *s, struct sym_cu *cu, struct vec *fns, struct vec *ranges)
{
	Dwarf_Die cudie;
	sym_lock(s);
	struct walker w = { s, cu, fns, ranges };
	int rc = dwarf_offdie(s->dw, cu->die_off, &cudie) ? walk(&w, &cudie, SYM_NONE, 0) : -1;
	sym_unlock(s);
	return rc;
}

int sym_die_decode(struct symbolizer *s, struct sym_cu *cu)
{
	struct vec fns = { .elem = sizeof(struct sym_fn) };
	struct vec ranges = { .elem = sizeof(struct fn_range) };
	int rc = s->no_scan ? -1 : sym_scan_cu(s, cu, &fns, &ranges);
	if (rc < 0) {
		fns.n = ranges.n = 0;
		rc = sym_die_walk(s, cu, &fns, &ranges);
	}
	if (!rc)
		rc = build_segments(s, cu, &ranges);
	if (!rc && fns.n) {
		cu->fns = arena_alloc(&s->arena, fns.n * sizeof(*cu->fns));
		if (cu->fns) {
			memcpy(cu->fns, fns.data, fns.n * sizeof(*cu->fns));
			cu->nfns = fns.n;
		} else {
			rc = -1;
		}
	}
	vec_free(&fns);
	vec_free(&ranges);
	return rc;
}

uint32_t sym_die_find(const struct sym_cu *cu, uint64_t addr)
{
	size_t lo = 0, hi = cu->nsegs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cu->seg_addr[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? cu->seg_fn[lo - 1] : SYM_NONE;
}
