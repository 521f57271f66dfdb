/* SPDX-License-Identifier: BSD-2-Clause */
/* Direct scan of a CU's DIEs for subprograms and inlined subroutines.
 *
 * Walking DIEs through libdw costs an abbrev-hash lookup under a lock and a generic
 * attribute search per call, several times the rest of the symbolizer together. This
 * decodes the CU's abbrev table once and reads the DIEs in one linear pass, skipping the
 * subtrees of DIEs that cannot hold code by their DW_AT_sibling. It reads the forms of
 * DWARF 2-5 and declines (-1, the caller then walks with libdw) on anything else. Names
 * that live on another DIE (abstract_origin, specification) are resolved through libdw,
 * once per target DIE. */
#include <dwarf.h>
#include <string.h>

#include "symbol/sym_internal.h"

enum { K_OTHER, K_FN, K_CONTAINER };

struct attr_spec {
	uint32_t name, form;
	int64_t implicit;
	int32_t size;           /* the value's size when fixed for the table's units, else -1 */
};

struct abbrev {
	uint32_t tag;
	uint32_t first, nattr;  /* attr specs in the table */
	int32_t fixed;          /* byte size of all attributes if fixed, else -1 */
	uint8_t kind;
	bool children, sibling;
};

struct sym_abbrev_table {
	struct abbrev *by_code;
	uint32_t ncodes;
	struct attr_spec *attrs;
};

struct unit {
	struct symbolizer *s;
	struct sym_cu *cu;
	unsigned addr_size, offset_size, version;
};

/* Size of a form's value when fixed for this unit, -1 when variable, -2 if unknown. */
static int form_size(unsigned form, const struct unit *u)
{
	switch (form) {
	case DW_FORM_flag_present:
	case DW_FORM_implicit_const:
		return 0;
	case DW_FORM_data1:
	case DW_FORM_ref1:
	case DW_FORM_flag:
	case DW_FORM_strx1:
	case DW_FORM_addrx1:
		return 1;
	case DW_FORM_data2:
	case DW_FORM_ref2:
	case DW_FORM_strx2:
	case DW_FORM_addrx2:
		return 2;
	case DW_FORM_strx3:
	case DW_FORM_addrx3:
		return 3;
	case DW_FORM_data4:
	case DW_FORM_ref4:
	case DW_FORM_strx4:
	case DW_FORM_addrx4:
	case DW_FORM_ref_sup4:
		return 4;
	case DW_FORM_data8:
	case DW_FORM_ref8:
	case DW_FORM_ref_sig8:
	case DW_FORM_ref_sup8:
		return 8;
	case DW_FORM_data16:
		return 16;
	case DW_FORM_addr:
		return (int)u->addr_size;
	case DW_FORM_ref_addr:
		return (int)(u->version <= 2 ? u->addr_size : u->offset_size);
	case DW_FORM_strp:
	case DW_FORM_line_strp:
	case DW_FORM_sec_offset:
	case DW_FORM_strp_sup:
	case DW_FORM_GNU_ref_alt:
	case DW_FORM_GNU_strp_alt:
		return (int)u->offset_size;
	case DW_FORM_string:
	case DW_FORM_block:
	case DW_FORM_block1:
	case DW_FORM_block2:
	case DW_FORM_block4:
	case DW_FORM_exprloc:
	case DW_FORM_sdata:
	case DW_FORM_udata:
	case DW_FORM_ref_udata:
	case DW_FORM_strx:
	case DW_FORM_addrx:
	case DW_FORM_loclistx:
	case DW_FORM_rnglistx:
	case DW_FORM_GNU_addr_index:
	case DW_FORM_GNU_str_index:
		return -1;
	default:
		return -2;
	}
}

static bool skip_form(struct rd *r, unsigned form, const struct unit *u)
{
	int n = form_size(form, u);
	if (n >= 0) {
		rd_skip(r, (uint64_t)n);
		return !r->err;
	}
	switch (form) {
	case DW_FORM_string:
		rd_cstr(r);
		break;
	case DW_FORM_block:
	case DW_FORM_exprloc:
		rd_skip(r, rd_uleb(r));
		break;
	case DW_FORM_block1:
		rd_skip(r, rd_uN(r, 1));
		break;
	case DW_FORM_block2:
		rd_skip(r, rd_uN(r, 2));
		break;
	case DW_FORM_block4:
		rd_skip(r, rd_uN(r, 4));
		break;
	case DW_FORM_sdata:
	case DW_FORM_udata:
	case DW_FORM_ref_udata:
	case DW_FORM_strx:
	case DW_FORM_addrx:
	case DW_FORM_loclistx:
	case DW_FORM_rnglistx:
	case DW_FORM_GNU_addr_index:
	case DW_FORM_GNU_str_index:
		rd_uleb(r);
		break;
	default:
		return false; /* DW_FORM_indirect and unknown forms */
	}
	return !r->err;
}

static int kind_of(uint32_t tag)
{
	switch (tag) {
	case DW_TAG_subprogram:
	case DW_TAG_inlined_subroutine:
	case DW_TAG_entry_point:
		return K_FN;
	case DW_TAG_lexical_block:
	case DW_TAG_namespace:
	case DW_TAG_module:
	case DW_TAG_try_block:
	case DW_TAG_catch_block:
		return K_CONTAINER;
	default:
		return K_OTHER;
	}
}

#define MAX_ABBREV_CODE (1u << 16)

static struct sym_abbrev_table *parse_abbrevs(struct symbolizer *s, const struct unit *u)
{
	struct rd r = { s->debug_abbrev + u->cu->abbrev_off, s->debug_abbrev + s->debug_abbrev_len,
			s->be, false };
	struct vec abs = { .elem = sizeof(struct abbrev) + sizeof(uint32_t) };
	struct vec specs = { .elem = sizeof(struct attr_spec) };
	struct sym_abbrev_table *t = NULL;
	uint32_t maxcode = 0;
	for (;;) {
		uint64_t code = rd_uleb(&r);
		if (r.err || !code)
			break;
		if (code >= MAX_ABBREV_CODE)
			goto out;
		struct abbrev a = { .tag = (uint32_t)rd_uleb(&r), .first = (uint32_t)specs.n };
		a.children = rd_uN(&r, 1) != 0;
		a.kind = (uint8_t)kind_of(a.tag);
		int fixed = 0;
		for (;;) {
			uint64_t name = rd_uleb(&r), form = rd_uleb(&r);
			int64_t implicit = form == DW_FORM_implicit_const ? rd_sleb(&r) : 0;
			if (r.err)
				goto out;
			if (!name && !form)
				break;
			struct attr_spec *sp = vec_push(&specs);
			if (!sp)
				goto out;
			int n = form_size((unsigned)form, u);
			if (n == -2)
				goto out;
			*sp = (struct attr_spec){ (uint32_t)name, (uint32_t)form, implicit, n };
			fixed = fixed < 0 || n < 0 ? -1 : fixed + n;
			a.sibling |= name == DW_AT_sibling;
		}
		a.fixed = fixed;
		a.nattr = (uint32_t)specs.n - a.first;
		unsigned char *slot = vec_push(&abs);
		if (!slot)
			goto out;
		memcpy(slot, &a, sizeof(a));
		uint32_t c = (uint32_t)code;
		memcpy(slot + sizeof(a), &c, sizeof(c));
		if (c > maxcode)
			maxcode = c;
	}
	if (r.err)
		goto out;
	t = arena_alloc(&s->arena, sizeof(*t));
	size_t nspec = specs.n ? specs.n : 1;
	struct abbrev *by_code = t ? arena_alloc(&s->arena, (maxcode + 1) * sizeof(*by_code)) : NULL;
	struct attr_spec *attrs = by_code ? arena_alloc(&s->arena, nspec * sizeof(*attrs)) : NULL;
	if (!attrs) {
		t = NULL;
		goto out;
	}
	memset(by_code, 0, (maxcode + 1) * sizeof(*by_code));
	if (specs.n)
		memcpy(attrs, specs.data, specs.n * sizeof(*attrs));
	for (size_t i = 0; i < abs.n; i++) {
		const unsigned char *p = (const unsigned char *)abs.data + i * abs.elem;
		uint32_t c;
		memcpy(&c, p + sizeof(struct abbrev), sizeof(c));
		memcpy(&by_code[c], p, sizeof(struct abbrev));
	}
	*t = (struct sym_abbrev_table){ by_code, maxcode + 1, attrs };
out:
	vec_free(&abs);
	vec_free(&specs);
	return t;
}

/* Abbrev tables are shared between units that use the same offset and sizes. */
static struct sym_abbrev_table *find_abbrev_table(struct symbolizer *s, const struct unit *u)
{
	if (u->cu->abbrev_off >= s->debug_abbrev_len)
		return NULL;
	uint64_t key = u->cu->abbrev_off ^ ((uint64_t)u->addr_size << 56) ^
		       ((uint64_t)u->offset_size << 60) ^ ((uint64_t)u->version << 48);
	if (!s->abbrevs.elem)
		s->abbrevs.elem = sizeof(struct sym_abbrev_table *);
	uint32_t *slot = u64map_slot(&s->abbrev_cache, key);
	if (!slot)
		return NULL;
	if (*slot != SYM_NONE)
		return ((struct sym_abbrev_table **)s->abbrevs.data)[*slot];
	struct sym_abbrev_table *t = parse_abbrevs(s, u);
	struct sym_abbrev_table **p = t ? vec_push(&s->abbrevs) : NULL;
	if (!p)
		return NULL;
	*p = t;
	*slot = (uint32_t)(s->abbrevs.n - 1);
	return t;
}

static struct sym_abbrev_table *abbrev_table(struct symbolizer *s, const struct unit *u)
{
	sym_lock(s);
	struct sym_abbrev_table *t = find_abbrev_table(s, u);
	sym_unlock(s);
	return t;
}

enum { V_NONE, V_CONST, V_ADDR, V_REF, V_STR, V_SECOFF, V_RNGLISTX, V_BAD };

struct val {
	int cls;
	uint64_t u;
	const char *str;
};

static uint64_t read_addrx(const struct unit *u, uint64_t idx, bool *ok)
{
	const struct symbolizer *s = u->s;
	uint64_t off = u->cu->addr_base + idx * u->addr_size;
	if (!s->debug_addr || off >= s->debug_addr_len || s->debug_addr_len - off < u->addr_size) {
		*ok = false;
		return 0;
	}
	struct rd r = { s->debug_addr + off, s->debug_addr + s->debug_addr_len, s->be, false };
	return rd_uN(&r, u->addr_size);
}

static const char *str_at(const uint8_t *sec, size_t len, uint64_t off)
{
	/* a section that ends in a NUL holds a whole string at every offset */
	if (!sec || off >= len || (sec[len - 1] && !memchr(sec + off, 0, len - off)))
		return NULL;
	return (const char *)sec + off;
}

static const char *read_strx(const struct unit *u, uint64_t idx)
{
	const struct symbolizer *s = u->s;
	uint64_t off = u->cu->str_offsets_base + idx * u->offset_size;
	if (!s->debug_str_offsets || off >= s->debug_str_offsets_len ||
	    s->debug_str_offsets_len - off < u->offset_size)
		return NULL;
	struct rd r = { s->debug_str_offsets + off, s->debug_str_offsets + s->debug_str_offsets_len,
			s->be, false };
	return str_at(s->debug_str, s->debug_str_len, rd_uN(&r, u->offset_size));
}

static bool read_val(struct rd *r, const struct attr_spec *sp, const struct unit *u,
		     struct val *v)
{
	const struct symbolizer *s = u->s;
	bool ok = true;
	v->str = NULL;
	v->u = 0;
	switch (sp->form) {
	case DW_FORM_addr:
		v->cls = V_ADDR;
		v->u = rd_uN(r, u->addr_size);
		break;
	case DW_FORM_addrx:
	case DW_FORM_GNU_addr_index:
		v->cls = V_ADDR;
		v->u = read_addrx(u, rd_uleb(r), &ok);
		break;
	case DW_FORM_addrx1:
	case DW_FORM_addrx2:
	case DW_FORM_addrx3:
	case DW_FORM_addrx4:
		v->cls = V_ADDR;
		v->u = read_addrx(u, rd_uN(r, (unsigned)form_size(sp->form, u)), &ok);
		break;
	case DW_FORM_data1:
	case DW_FORM_data2:
	case DW_FORM_data4:
	case DW_FORM_data8:
	case DW_FORM_flag:
		v->cls = V_CONST;
		v->u = rd_uN(r, (unsigned)form_size(sp->form, u));
		break;
	case DW_FORM_udata:
		v->cls = V_CONST;
		v->u = rd_uleb(r);
		break;
	case DW_FORM_sdata:
		v->cls = V_CONST;
		v->u = (uint64_t)rd_sleb(r);
		break;
	case DW_FORM_implicit_const:
		v->cls = V_CONST;
		v->u = (uint64_t)sp->implicit;
		break;
	case DW_FORM_ref1:
	case DW_FORM_ref2:
	case DW_FORM_ref4:
	case DW_FORM_ref8:
		v->cls = V_REF;
		v->u = u->cu->unit_off + rd_uN(r, (unsigned)form_size(sp->form, u));
		break;
	case DW_FORM_ref_udata:
		v->cls = V_REF;
		v->u = u->cu->unit_off + rd_uleb(r);
		break;
	case DW_FORM_ref_addr:
		v->cls = V_REF;
		v->u = rd_uN(r, (unsigned)form_size(sp->form, u));
		break;
	case DW_FORM_string:
		v->cls = V_STR;
		v->str = rd_cstr(r);
		break;
	case DW_FORM_strp:
		v->cls = V_STR;
		v->str = str_at(s->debug_str, s->debug_str_len, rd_uN(r, u->offset_size));
		break;
	case DW_FORM_line_strp:
		v->cls = V_STR;
		v->str = str_at(s->debug_line_str, s->debug_line_str_len, rd_uN(r, u->offset_size));
		break;
	case DW_FORM_strx:
	case DW_FORM_GNU_str_index:
		v->cls = V_STR;
		v->str = read_strx(u, rd_uleb(r));
		break;
	case DW_FORM_strx1:
	case DW_FORM_strx2:
	case DW_FORM_strx3:
	case DW_FORM_strx4:
		v->cls = V_STR;
		v->str = read_strx(u, rd_uN(r, (unsigned)form_size(sp->form, u)));
		break;
	case DW_FORM_sec_offset:
		v->cls = V_SECOFF;
		v->u = rd_uN(r, u->offset_size);
		break;
	case DW_FORM_rnglistx:
		v->cls = V_RNGLISTX;
		v->u = rd_uleb(r);
		break;
	default:
		v->cls = V_BAD;
		return skip_form(r, sp->form, u);
	}
	if (v->cls == V_STR && !v->str)
		ok = false;
	return ok && !r->err;
}

static int push_range(struct vec *ranges, uint64_t lo, uint64_t hi, uint32_t fn)
{
	if (hi <= lo)
		return 0;
	struct fn_range *p = vec_push(ranges);
	if (!p)
		return -1;
	*p = (struct fn_range){ lo, hi, fn };
	return 0;
}

/* DWARF 2-4 .debug_ranges list. */
static int ranges_v4(const struct unit *u, uint64_t off, uint32_t fn, struct vec *out)
{
	const struct symbolizer *s = u->s;
	if (!s->debug_ranges || off >= s->debug_ranges_len)
		return -1;
	struct rd r = { s->debug_ranges + off, s->debug_ranges + s->debug_ranges_len, s->be, false };
	uint64_t base = u->cu->base_addr;
	uint64_t max = u->addr_size >= 8 ? UINT64_MAX : (1ULL << (8 * u->addr_size)) - 1;
	for (;;) {
		uint64_t a = rd_uN(&r, u->addr_size), b = rd_uN(&r, u->addr_size);
		if (r.err)
			return -1;
		if (!a && !b)
			return 0;
		if (a == max)
			base = b;
		else if (push_range(out, base + a, base + b, fn) < 0)
			return -1;
	}
}

/* DWARF 5 .debug_rnglists list. */
static int ranges_v5(const struct unit *u, uint64_t off, uint32_t fn, struct vec *out)
{
	const struct symbolizer *s = u->s;
	if (!s->debug_rnglists || off >= s->debug_rnglists_len)
		return -1;
	struct rd r = { s->debug_rnglists + off, s->debug_rnglists + s->debug_rnglists_len, s->be,
			false };
	uint64_t base = u->cu->base_addr, lo, hi;
	bool ok = true;
	for (;;) {
		unsigned kind = (unsigned)rd_uN(&r, 1);
		switch (kind) {
		case DW_RLE_end_of_list:
			return r.err || !ok ? -1 : 0;
		case DW_RLE_base_addressx:
			base = read_addrx(u, rd_uleb(&r), &ok);
			continue;
		case DW_RLE_startx_endx:
			lo = read_addrx(u, rd_uleb(&r), &ok);
			hi = read_addrx(u, rd_uleb(&r), &ok);
			break;
		case DW_RLE_startx_length:
			lo = read_addrx(u, rd_uleb(&r), &ok);
			hi = lo + rd_uleb(&r);
			break;
		case DW_RLE_offset_pair:
			lo = base + rd_uleb(&r);
			hi = base + rd_uleb(&r);
			break;
		case DW_RLE_base_address:
			base = rd_uN(&r, u->addr_size);
			continue;
		case DW_RLE_start_end:
			lo = rd_uN(&r, u->addr_size);
			hi = rd_uN(&r, u->addr_size);
			break;
		case DW_RLE_start_length:
			lo = rd_uN(&r, u->addr_size);
			hi = lo + rd_uleb(&r);
			break;
		default:
			return -1;
		}
		if (r.err || !ok || push_range(out, lo, hi, fn) < 0)
			return -1;
	}
}

static int rnglistx_offset(const struct unit *u, uint64_t idx, uint64_t *off)
{
	const struct symbolizer *s = u->s;
	uint64_t base = u->cu->rnglists_base, at = base + idx * u->offset_size;
	if (!s->debug_rnglists || at >= s->debug_rnglists_len ||
	    s->debug_rnglists_len - at < u->offset_size)
		return -1;
	struct rd r = { s->debug_rnglists + at, s->debug_rnglists + s->debug_rnglists_len, s->be,
			false };
	*off = base + rd_uN(&r, u->offset_size);
	return 0;
}

struct fn_attrs {
	struct val low, high, ranges;
	uint64_t origin, spec;
	const char *name, *link;
	uint32_t call_file, call_line, call_column;
	bool has_origin, has_spec;
};

static bool read_fn_attrs(struct rd *r, const struct abbrev *ab, const struct attr_spec *specs,
			  const struct unit *u, struct fn_attrs *fa)
{
	for (uint32_t i = 0; i < ab->nattr; i++) {
		const struct attr_spec *sp = &specs[ab->first + i];
		struct val v;
		switch (sp->name) {
		case DW_AT_low_pc:
		case DW_AT_high_pc:
		case DW_AT_ranges:
		case DW_AT_abstract_origin:
		case DW_AT_specification:
		case DW_AT_name:
		case DW_AT_linkage_name:
		case DW_AT_MIPS_linkage_name:
		case DW_AT_call_file:
		case DW_AT_call_line:
		case DW_AT_call_column:
			if (!read_val(r, sp, u, &v))
				return false;
			break;
		default:
			if (sp->size >= 0)
				rd_skip(r, (uint64_t)sp->size);
			else if (!skip_form(r, sp->form, u))
				return false;
			continue;
		}
		switch (sp->name) {
		case DW_AT_low_pc:
			fa->low = v;
			break;
		case DW_AT_high_pc:
			fa->high = v;
			break;
		case DW_AT_ranges:
			fa->ranges = v;
			break;
		case DW_AT_abstract_origin:
			if (v.cls != V_REF)
				return false;
			fa->origin = v.u;
			fa->has_origin = true;
			break;
		case DW_AT_specification:
			if (v.cls != V_REF)
				return false;
			fa->spec = v.u;
			fa->has_spec = true;
			break;
		case DW_AT_name:
			fa->name = v.cls == V_STR ? v.str : NULL;
			break;
		case DW_AT_linkage_name:
		case DW_AT_MIPS_linkage_name:
			fa->link = v.cls == V_STR ? v.str : NULL;
			break;
		case DW_AT_call_file:
			fa->call_file = v.cls == V_CONST ? (uint32_t)v.u : SYM_NONE;
			break;
		case DW_AT_call_line:
			fa->call_line = v.cls == V_CONST ? (uint32_t)v.u : 0;
			break;
		case DW_AT_call_column:
			fa->call_column = v.cls == V_CONST ? (uint32_t)v.u : 0;
			break;
		}
	}
	return true;
}

static struct fn_name fn_name(struct unit *u, const struct fn_attrs *fa, uint64_t die_off)
{
	if (fa->link)
		return (struct fn_name){ fa->link, true };
	if (!fa->has_origin && !fa->has_spec)
		return (struct fn_name){ fa->name, fa->name && sym_plain_names(u->cu->lang) };
	/* libdw integrates the attributes, abstract_origin first */
	uint64_t from = fa->name ? die_off : fa->has_origin ? fa->origin : fa->spec;
	return sym_die_name_at(u->s, u->cu, from);
}

static int fn_ranges(const struct unit *u, const struct fn_attrs *fa, uint32_t idx,
		     struct vec *ranges)
{
	if (fa->low.cls == V_ADDR && fa->high.cls != V_NONE) {
		uint64_t hi = fa->high.cls == V_CONST ? fa->low.u + fa->high.u : fa->high.u;
		if (fa->high.cls != V_CONST && fa->high.cls != V_ADDR)
			return -1;
		return push_range(ranges, fa->low.u, hi, idx);
	}
	if (fa->ranges.cls == V_NONE)
		return 0;
	uint64_t off = fa->ranges.u;
	if (fa->ranges.cls == V_RNGLISTX) {
		if (rnglistx_offset(u, off, &off) < 0)
			return -1;
	} else if (fa->ranges.cls != V_SECOFF && fa->ranges.cls != V_CONST) {
		return -1;
	}
	return u->version >= 5 ? ranges_v5(u, off, idx, ranges) : ranges_v4(u, off, idx, ranges);
}

static int add_fn(struct unit *u, struct rd *r, const struct abbrev *ab,
		  const struct attr_spec *specs, uint32_t parent, uint64_t die_off,
		  struct vec *fns, struct vec *ranges, uint32_t *idx)
{
	struct fn_attrs fa = { .call_file = SYM_NONE };
	if (!read_fn_attrs(r, ab, specs, u, &fa))
		return -1;
	struct fn_name n = fn_name(u, &fa, die_off);
	struct sym_fn *f = vec_push(fns);
	if (!f)
		return -1;
	*idx = (uint32_t)(fns->n - 1);
	bool inl = ab->tag == DW_TAG_inlined_subroutine;
	*f = (struct sym_fn){
		.name = n.name,
		.linkage = n.linkage,
		.inlined = inl,
		.parent = inl ? parent : SYM_NONE,
		.call_file = inl ? fa.call_file : SYM_NONE,
		.call_line = inl ? fa.call_line : 0,
		.call_column = inl ? fa.call_column : 0,
	};
	return fn_ranges(u, &fa, *idx, ranges);
}

static bool skip_attrs(struct rd *r, const struct abbrev *ab, const struct attr_spec *specs,
		       const struct unit *u)
{
	if (ab->fixed >= 0) {
		rd_skip(r, (uint64_t)ab->fixed);
		return !r->err;
	}
	/* runs of fixed-size values are skipped at once */
	uint64_t run = 0;
	for (uint32_t i = 0; i < ab->nattr; i++) {
		const struct attr_spec *sp = &specs[ab->first + i];
		if (sp->size >= 0) {
			run += (uint64_t)sp->size;
			continue;
		}
		rd_skip(r, run);
		run = 0;
		if (!skip_form(r, sp->form, u))
			return false;
	}
	rd_skip(r, run);
	return !r->err;
}

/* Skip a DIE's attributes; its DW_AT_sibling target (0 if none). */
static bool sibling_of(struct rd *r, const struct abbrev *ab, const struct attr_spec *specs,
		       const struct unit *u, uint64_t *sib)
{
	*sib = 0;
	for (uint32_t i = 0; i < ab->nattr; i++) {
		const struct attr_spec *sp = &specs[ab->first + i];
		if (sp->name != DW_AT_sibling) {
			if (sp->size >= 0)
				rd_skip(r, (uint64_t)sp->size);
			else if (!skip_form(r, sp->form, u))
				return false;
			continue;
		}
		struct val v;
		if (!read_val(r, sp, u, &v) || v.cls != V_REF)
			return false;
		*sib = v.u;
	}
	return true;
}

#define SKIP (SYM_NONE - 1)

static int push_level(struct vec *stack, uint32_t fn)
{
	uint32_t *p = vec_push(stack);
	if (!p)
		return -1;
	*p = fn;
	return 0;
}

int sym_scan_cu(struct symbolizer *s, struct sym_cu *cu, struct vec *fns, struct vec *ranges)
{
	if (!s->debug_info || !s->debug_abbrev || cu->unit_end > s->debug_info_len ||
	    cu->die_off >= cu->unit_end || (cu->addr_size != 4 && cu->addr_size != 8) ||
	    (cu->offset_size != 4 && cu->offset_size != 8))
		return -1;
	struct unit u = { s, cu, cu->addr_size, cu->offset_size, cu->version };
	const struct sym_abbrev_table *t = abbrev_table(s, &u);
	if (!t)
		return -1;
	const uint8_t *base = s->debug_info;
	struct rd r = { base + cu->die_off, base + cu->unit_end, s->be, false };
	struct vec stack = { .elem = sizeof(uint32_t) };
	int rc = -1;
	uint64_t code = rd_uleb(&r);
	if (!code || code >= t->ncodes || !t->by_code[code].tag)
		goto out;
	const struct abbrev *ab = &t->by_code[code];
	if (!skip_attrs(&r, ab, t->attrs, &u))
		goto out;
	if (ab->children && push_level(&stack, SYM_NONE) < 0)
		goto out;
	while (stack.n && r.p < r.end) {
		uint64_t die_off = (uint64_t)(r.p - base);
		code = rd_uleb(&r);
		if (r.err)
			goto out;
		if (!code) {
			stack.n--;
			continue;
		}
		if (code >= t->ncodes || !t->by_code[code].tag)
			goto out;
		ab = &t->by_code[code];
		uint32_t top = ((uint32_t *)stack.data)[stack.n - 1], idx;
		uint64_t sib;
		if (top == SKIP || (ab->kind == K_OTHER && !ab->sibling)) {
			if (!skip_attrs(&r, ab, t->attrs, &u))
				goto out;
			if (ab->children && push_level(&stack, SKIP) < 0)
				goto out;
			continue;
		}
		switch (ab->kind) {
		case K_FN:
			if (add_fn(&u, &r, ab, t->attrs, top, die_off, fns, ranges, &idx) < 0)
				goto out;
			if (ab->children && push_level(&stack, idx) < 0)
				goto out;
			break;
		case K_CONTAINER:
			if (!skip_attrs(&r, ab, t->attrs, &u))
				goto out;
			if (ab->children && push_level(&stack, top) < 0)
				goto out;
			break;
		default:
			if (!sibling_of(&r, ab, t->attrs, &u, &sib))
				goto out;
			if (!ab->children)
				break;
			if (sib <= die_off || sib > cu->unit_end)
				goto out;
			r.p = base + sib;
			break;
		}
	}
	rc = 0;
out:
	vec_free(&stack);
	return rc;
}
