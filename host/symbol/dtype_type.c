/* SPDX-License-Identifier: BSD-2-Clause */
/* The DWARF type walker: stripping typedefs and qualifiers, sizes, C spellings, and the
 * member at an offset through nested structs, unions and arrays. Every step spends from a
 * budget, so a cycle in malformed DWARF (a typedef of itself, a struct holding itself)
 * ends when the budget does. */
#include <dwarf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "symbol/dtype_internal.h"

void dt_append(char *buf, size_t len, const char *fmt, ...)
{
	size_t at = strnlen(buf, len);
	va_list ap;

	if (at + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + at, len - at, fmt, ap);
	va_end(ap);
}

const char *dt_die_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;

	if (!dwarf_attr_integrate(die, DW_AT_name, &a))
		return NULL;
	return dwarf_formstring(&a);
}

int dt_type_of(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute a;

	if (!dwarf_attr_integrate(die, DW_AT_type, &a) || !dwarf_formref_die(&a, out))
		return -1;
	return 0;
}

static bool qualifier(int tag)
{
	return tag == DW_TAG_typedef || tag == DW_TAG_const_type ||
	       tag == DW_TAG_volatile_type || tag == DW_TAG_restrict_type ||
	       tag == DW_TAG_atomic_type || tag == DW_TAG_immutable_type ||
	       tag == DW_TAG_packed_type || tag == DW_TAG_shared_type;
}

int dt_strip(Dwarf_Die *type, Dwarf_Die *out, struct dt_budget *b)
{
	Dwarf_Die cur = *type;

	while (qualifier(dwarf_tag(&cur))) {
		if (!dt_spend(b) || dt_type_of(&cur, &cur) < 0)
			return -1;
	}
	*out = cur;
	return 0;
}

bool dt_scalar(Dwarf_Die *t)
{
	switch (dwarf_tag(t)) {
	case DW_TAG_base_type:
	case DW_TAG_enumeration_type:
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
	case DW_TAG_ptr_to_member_type:
		return true;
	}
	return false;
}

static int udata(Dwarf_Die *die, int name, uint64_t *v)
{
	Dwarf_Attribute a;
	Dwarf_Word w;

	if (!dwarf_attr_integrate(die, name, &a) || dwarf_formudata(&a, &w) != 0)
		return -1;
	*v = w;
	return 0;
}

static int sdata(Dwarf_Die *die, int name, int64_t *v)
{
	Dwarf_Attribute a;
	Dwarf_Sword w;

	if (!dwarf_attr_integrate(die, name, &a) || dwarf_formsdata(&a, &w) != 0)
		return -1;
	*v = w;
	return 0;
}

/* Elements of one array dimension (subrange or enumeration DIE); -1 when unbounded. */
static int64_t dim_count(Dwarf_Die *sub)
{
	uint64_t c;
	int64_t lo = 0, hi;

	if (udata(sub, DW_AT_count, &c) == 0)
		return c > INT64_MAX ? -1 : (int64_t)c;
	uint64_t span;

	if (sdata(sub, DW_AT_upper_bound, &hi) != 0)
		return -1;
	(void)sdata(sub, DW_AT_lower_bound, &lo);
	if (hi < lo)
		return (uint64_t)lo - (uint64_t)hi == 1 ? 0 : -1;
	span = (uint64_t)hi - (uint64_t)lo;
	return span >= INT64_MAX / 2 ? -1 : (int64_t)span + 1;
}

#define DT_MAX_DIMS 8

/* An array type's dimensions (at most DT_MAX_DIMS): how many, counts (-1: unbounded). */
static int dims(Dwarf_Die *arr, int64_t *count, struct dt_budget *b)
{
	Dwarf_Die c;
	int n = 0;

	if (dwarf_child(arr, &c) != 0)
		return 0;
	do {
		int tag = dwarf_tag(&c);
		if (tag != DW_TAG_subrange_type && tag != DW_TAG_enumeration_type)
			continue;
		if (n == DT_MAX_DIMS || !dt_spend(b))
			break;
		count[n++] = dim_count(&c);
	} while (dwarf_siblingof(&c, &c) == 0);
	return n;
}

static int address_size(Dwarf_Die *die)
{
	uint8_t asz = 8;

	if (dwarf_cu_info(die->cu, NULL, NULL, NULL, NULL, NULL, &asz, NULL) != 0 ||
	    (asz != 4 && asz != 8))
		asz = 8;
	return asz;
}

int dt_size(Dwarf_Die *type, uint64_t *size, struct dt_budget *b)
{
	Dwarf_Die t, elem;
	int64_t count[DT_MAX_DIMS];
	uint64_t esz, v;
	int n, tag;

	if (dt_strip(type, &t, b) < 0 || !dt_spend(b))
		return -1;
	tag = dwarf_tag(&t);
	if (tag == DW_TAG_array_type) {
		if (udata(&t, DW_AT_byte_size, &v) == 0) {
			*size = v;
			return 0;
		}
		if (dt_type_of(&t, &elem) < 0 || dt_size(&elem, &esz, b) < 0)
			return -1;
		n = dims(&t, count, b);
		for (int i = 0; i < n; i++) {
			if (count[i] < 0)
				return -1;
			if (count[i] && esz > UINT64_MAX / (uint64_t)count[i])
				return -1;
			esz *= (uint64_t)count[i];
		}
		*size = esz;
		return 0;
	}
	if (udata(&t, DW_AT_byte_size, &v) == 0) {
		*size = v;
		return 0;
	}
	if (tag == DW_TAG_pointer_type || tag == DW_TAG_reference_type ||
	    tag == DW_TAG_rvalue_reference_type) {
		*size = (uint64_t)address_size(&t);
		return 0;
	}
	if (tag == DW_TAG_enumeration_type && dt_type_of(&t, &elem) == 0)
		return dt_size(&elem, size, b);
	return -1;
}

static const char *keyword(int tag)
{
	switch (tag) {
	case DW_TAG_structure_type: return "struct";
	case DW_TAG_union_type: return "union";
	case DW_TAG_class_type: return "class";
	case DW_TAG_enumeration_type: return "enum";
	}
	return NULL;
}

/* The name without pointer and array suffixes into buf; suffixes appended after. */
static void name_into(Dwarf_Die *type, bool strip, char *buf, size_t len, struct dt_budget *b)
{
	Dwarf_Die t = *type, inner;
	const char *nm, *kw;
	int tag;

	if (!dt_spend(b)) {
		dt_append(buf, len, "...");
		return;
	}
	tag = dwarf_tag(&t);
	nm = dt_die_name(&t);
	if (nm && !*nm)
		nm = NULL;   /* an empty name in a damaged string table */
	kw = keyword(tag);
	switch (tag) {
	case DW_TAG_typedef:
		if (!strip && nm) {
			dt_append(buf, len, "%s", nm);
			return;
		}
		/* fall through */
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type:
	case DW_TAG_immutable_type:
	case DW_TAG_packed_type:
	case DW_TAG_shared_type:
		if (!strip && tag == DW_TAG_const_type)
			dt_append(buf, len, "const ");
		else if (!strip && tag == DW_TAG_volatile_type)
			dt_append(buf, len, "volatile ");
		if (dt_type_of(&t, &inner) < 0) {
			dt_append(buf, len, "void");
			return;
		}
		name_into(&inner, strip, buf, len, b);
		return;
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		if (dt_type_of(&t, &inner) < 0)
			dt_append(buf, len, "void");
		else
			name_into(&inner, strip, buf, len, b);
		dt_append(buf, len, tag == DW_TAG_pointer_type ? " *" : " &");
		return;
	case DW_TAG_array_type: {
		int64_t count[DT_MAX_DIMS];
		int n;

		if (dt_type_of(&t, &inner) < 0)
			dt_append(buf, len, "void");
		else
			name_into(&inner, strip, buf, len, b);
		n = dims(&t, count, b);
		for (int i = 0; i < n; i++) {
			if (count[i] < 0)
				dt_append(buf, len, "[]");
			else
				dt_append(buf, len, "[%" PRId64 "]", count[i]);
		}
		return;
	}
	case DW_TAG_subroutine_type:
		dt_append(buf, len, "<function>");
		return;
	}
	if (kw)
		dt_append(buf, len, "%s %s", kw, nm ? nm : "<anonymous>");
	else
		dt_append(buf, len, "%s", nm ? nm : "<unnamed>");
}

void dt_name(Dwarf_Die *type, bool strip, char *buf, size_t len, struct dt_budget *b)
{
	if (!len)
		return;
	buf[0] = 0;
	name_into(type, strip, buf, len, b);
}

/* A member's offset in bytes and its bit-field place (bit offset from the start of the
 * struct, width; 0 when not a bit-field). 0, or -1 when it has no offset we can read. */
static int member_place(Dwarf_Die *m, uint64_t *off, unsigned *bitoff, unsigned *bits)
{
	Dwarf_Attribute a;
	uint64_t v;

	*bitoff = *bits = 0;
	if (udata(m, DW_AT_bit_size, &v) == 0 && v > 0 && v < 65536)
		*bits = (unsigned)v;
	if (udata(m, DW_AT_data_bit_offset, &v) == 0) {
		*off = v / 8;
		*bitoff = (unsigned)(v > UINT32_MAX ? UINT32_MAX : v);
		return 0;
	}
	*off = 0;
	if (dwarf_attr_integrate(m, DW_AT_data_member_location, &a)) {
		Dwarf_Word w;
		Dwarf_Op *ops;
		size_t n;

		if (dwarf_formudata(&a, &w) == 0)
			*off = w;
		else if (dwarf_getlocation(&a, &ops, &n) == 0 && n == 1 &&
			 ops[0].atom == DW_OP_plus_uconst)
			*off = ops[0].number;
		else
			return -1;
	}
	if (*bits) {
		/* DWARF 2/3: DW_AT_bit_offset counts from the storage unit's high bit */
		uint64_t unit, bo;
		if (udata(m, DW_AT_byte_size, &unit) == 0 && udata(m, DW_AT_bit_offset, &bo) == 0 &&
		    unit <= 16 && bo + *bits <= unit * 8 && *off < UINT32_MAX / 8)
			*bitoff = (unsigned)(*off * 8 + unit * 8 - bo - *bits);
		else
			*bitoff = (unsigned)(*off < UINT32_MAX / 8 ? *off * 8 : 0);
		*off = *bitoff / 8;
	}
	return 0;
}

/* The bytes [off, off + size) member m covers; open: its size is not known (a flexible
 * array member), it covers what follows. */
static int member_span(Dwarf_Die *m, uint64_t *off, uint64_t *size, bool *open,
		       Dwarf_Die *type)
{
	struct dt_budget own = { DTYPE_MAX_DEPTH };
	unsigned bitoff, bits;

	*open = false;
	if (member_place(m, off, &bitoff, &bits) < 0 || dt_type_of(m, type) < 0)
		return -1;
	if (bits) {
		*off = bitoff / 8;
		*size = (bitoff % 8 + bits + 7) / 8;
		return 0;
	}
	if (dt_size(type, size, &own) < 0) {
		*size = 0;
		*open = true;
	}
	return 0;
}

static bool aggregate(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_class_type;
}

/* In struct t, the member holding off: 0 with it, its type, offset and size. A member of
 * unknown size (flexible array) holds everything from its start when no other does; one
 * of size 0 holds nothing. */
static int member_at(Dwarf_Die *t, uint64_t off, Dwarf_Die *m, Dwarf_Die *mt, uint64_t *moff,
		     uint64_t *msize)
{
	Dwarf_Die c, ty, fm, ft;
	uint64_t fo = 0;
	bool have_open = false;
	unsigned seen = 0;

	if (dwarf_child(t, &c) != 0)
		return -1;
	do {
		int tag = dwarf_tag(&c);
		uint64_t o, sz;
		bool open;

		if (tag != DW_TAG_member && tag != DW_TAG_inheritance)
			continue;
		if (++seen > DTYPE_MAX_FIELDS)
			break;
		if (member_span(&c, &o, &sz, &open, &ty) < 0 || off < o)
			continue;
		if (open && !have_open) {
			have_open = true;
			fm = c;
			ft = ty;
			fo = o;
		}
		if (!open && off - o < sz) {
			*m = c;
			*mt = ty;
			*moff = o;
			*msize = sz;
			return 0;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	if (!have_open)
		return -1;
	*m = fm;
	*mt = ft;
	*moff = fo;
	*msize = 0;
	return 0;
}

void dt_walk_at(Dwarf_Die *type, uint64_t off, bool indexed, struct dt_walk *w,
		struct dt_budget *b)
{
	Dwarf_Die t;
	uint64_t base = 0, size;

	memset(w, 0, sizeof(*w));
	if (dt_strip(type, &t, b) < 0)
		return;
	w->leaf = t;
	w->have_leaf = true;
	w->inside = true;
	w->leaf_size = dt_size(&t, &size, b) == 0 ? size : 0;
	for (;;) {
		int tag = dwarf_tag(&t);
		Dwarf_Die m, mt, elem;

		if (!dt_spend(b))
			return;   /* a struct holding itself, in a damaged file */

		if (aggregate(tag)) {
			uint64_t moff, msize;
			const char *nm;

			if (member_at(&t, off, &m, &mt, &moff, &msize) < 0)
				return;   /* a hole: the object, no member */
			nm = dwarf_tag(&m) == DW_TAG_inheritance ? NULL : dt_die_name(&m);
			if (nm && !*nm)
				nm = NULL;
			if (dwarf_tag(&m) == DW_TAG_inheritance) {
				char bn[DTYPE_NAME_MAX];
				struct dt_budget nb = { 8 };
				dt_name(&mt, true, bn, sizeof(bn), &nb);
				dt_append(w->path, sizeof(w->path), "%s(%s)", w->path[0] ? "." : "", bn);
			} else if (nm) {
				dt_append(w->path, sizeof(w->path), "%s%s", w->path[0] ? "." : "", nm);
			}
			base += moff;
			off -= moff;
			if (dt_strip(&mt, &t, b) < 0)
				return;
			w->leaf = t;
			w->leaf_off = base;
			w->leaf_size = msize;
			continue;
		}
		if (tag == DW_TAG_array_type) {
			int64_t count[DT_MAX_DIMS];
			uint64_t esz, stride[DT_MAX_DIMS];
			int n;

			if (dt_type_of(&t, &elem) < 0 || dt_size(&elem, &esz, b) < 0 || !esz)
				return;
			n = dims(&t, count, b);
			if (!n) {
				n = 1;
				count[0] = -1;
			}
			stride[n - 1] = esz;
			for (int i = n - 1; i > 0; i--) {
				/* an inner dimension unbounded or empty: no stride for the outer */
				if (count[i] <= 0 || stride[i] > UINT64_MAX / (uint64_t)count[i])
					return;
				stride[i - 1] = stride[i] * (uint64_t)count[i];
			}
			for (int i = 0; i < n; i++) {
				uint64_t k = off / stride[i];
				if (!dt_spend(b))
					return;
				if (indexed) {
					dt_append(w->path, sizeof(w->path), "[]");
					indexed = false;
				} else {
					if (count[i] >= 0 && k >= (uint64_t)count[i]) {
						w->inside = false;
						return;
					}
					dt_append(w->path, sizeof(w->path), "[%" PRIu64 "]", k);
				}
				base += k * stride[i];
				off -= k * stride[i];
			}
			if (dt_strip(&elem, &t, b) < 0)
				return;
			w->leaf = t;
			w->leaf_off = base;
			w->leaf_size = esz;
			continue;
		}
		return;
	}
}

/* The type name the answer aggregates by: outer array levels peeled. */
static void peel_arrays(Dwarf_Die *t, struct dt_budget *b)
{
	Dwarf_Die e;

	while (dwarf_tag(t) == DW_TAG_array_type && dt_spend(b) && dt_type_of(t, &e) == 0 &&
	       dt_strip(&e, &e, b) == 0)
		*t = e;
}

void dt_answer(struct dt_found *f, struct dtype_answer *out, struct dt_walk *walk,
	       struct dt_budget *b)
{
	struct dt_walk w;
	Dwarf_Die t = f->type;
	uint64_t off = f->offset, size = 0, esz;
	bool have_size;

	memset(out, 0, sizeof(*out));
	out->reg = f->reg;
	out->how = f->how;
	out->var_addr = f->var_addr;
	snprintf(out->var, sizeof(out->var), "%s", f->var ? f->var : "");
	have_size = dt_size(&t, &size, b) == 0;
	/* the aggregate Sun charges: an array object's element type, the offset in one */
	if (dwarf_tag(&t) == DW_TAG_array_type) {
		Dwarf_Die e = t;
		peel_arrays(&e, b);
		if (dt_size(&e, &esz, b) == 0 && esz && (!have_size || off < size)) {
			dt_walk_at(&t, off, f->indexed, &w, b);
			off %= esz;
			t = e;
			size = esz;
		} else {
			dt_walk_at(&t, off, f->indexed, &w, b);
		}
	} else {
		dt_walk_at(&t, off, f->indexed, &w, b);
	}
	dt_name(&t, true, out->type, sizeof(out->type), &(struct dt_budget){ DTYPE_MAX_DEPTH });
	out->type_size = size;
	out->offset = off;
	snprintf(out->expr, sizeof(out->expr), "%s", f->prefix);
	{
		size_t pl = strlen(f->prefix);
		bool joined = !pl || f->prefix[pl - 1] == '.' || f->prefix[pl - 1] == '>';
		dt_append(out->expr, sizeof(out->expr), "%s%s",
			  !joined && w.path[0] && w.path[0] != '[' ? "." : "", w.path);
	}
	{
		/* the member path within the aggregate: after the outer array indices */
		const char *p = w.path;
		if (dwarf_tag(&f->type) == DW_TAG_array_type)
			while (*p == '[') {
				const char *e = strchr(p, ']');
				if (!e)
					break;
				p = e + 1;
			}
		if (*p == '.')
			p++;
		snprintf(out->member, sizeof(out->member), "%s", p);
	}
	if (w.have_leaf) {
		dt_name(&w.leaf, true, out->member_type, sizeof(out->member_type),
			&(struct dt_budget){ DTYPE_MAX_DEPTH });
		out->member_off = w.leaf_off % (size ? size : UINT64_MAX);
		out->member_size = w.leaf_size;
	}
	if (walk)
		*walk = w;
	if (!have_size || !size || off >= size || !w.inside) {
		out->cls = DTYPE_UNIDENTIFIED;
		return;
	}
	out->cls = dt_scalar(&t) ? DTYPE_SCALARS : DTYPE_OBJECT;
}
