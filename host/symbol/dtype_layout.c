/* SPDX-License-Identifier: BSD-2-Clause */
/* A struct's layout as pahole shows it: members with offsets and sizes, the holes between
 * them, and where cache lines begin. */
#include <dwarf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/dtype_internal.h"

static bool aggregate(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_class_type;
}

static bool keyword_matches(const char *kw, int tag)
{
	if (!kw)
		return true;
	return (!strcmp(kw, "struct") && tag == DW_TAG_structure_type) ||
	       (!strcmp(kw, "union") && tag == DW_TAG_union_type) ||
	       (!strcmp(kw, "class") && tag == DW_TAG_class_type);
}

/* The first complete definition of the named aggregate, CU-level or in a namespace. */
static int find_type(struct dtype *d, const char *kw, const char *name, Dwarf_Die *out)
{
	Dwarf_Off off = 0, next;
	size_t hsz;
	uint64_t steps = d->s->debug_info_len + 1;

	while (dwarf_nextcu(d->dw, off, &next, &hsz, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, c;

		if (dwarf_offdie(d->dw, off + hsz, &cu) && dwarf_child(&cu, &c) == 0) {
			do {
				int tag = dwarf_tag(&c);
				const char *nm;
				Dwarf_Attribute a;

				if (!steps--)
					return -1;
				if (!aggregate(tag) || !keyword_matches(kw, tag) ||
				    dwarf_attr(&c, DW_AT_declaration, &a))
					continue;
				nm = dwarf_diename(&c);
				if (nm && !strcmp(nm, name)) {
					*out = c;
					return 0;
				}
			} while (dwarf_siblingof(&c, &c) == 0);
		}
		if (next <= off)
			break;
		off = next;
	}
	return -1;
}

/* dt_walk_at's member reading, for each member in order. */
static int member_info(Dwarf_Die *m, struct dtype_field *f)
{
	Dwarf_Attribute a;
	Dwarf_Word w;
	Dwarf_Die t;
	struct dt_budget b = { DTYPE_MAX_DEPTH };
	const char *nm = dwarf_diename(m);

	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", nm ? nm : "");
	if (dt_type_of(m, &t) == 0) {
		dt_name(&t, false, f->type, sizeof(f->type), &b);
		b.left = DTYPE_MAX_DEPTH;
		if (dt_size(&t, &f->size, &b) < 0)
			f->size = 0;
	} else {
		snprintf(f->type, sizeof(f->type), "void");
	}
	if (dwarf_attr(m, DW_AT_bit_size, &a) && dwarf_formudata(&a, &w) == 0 && w && w < 65536)
		f->bit_size = (unsigned)w;
	if (dwarf_attr(m, DW_AT_data_bit_offset, &a) && dwarf_formudata(&a, &w) == 0) {
		f->offset = w / 8;
		if (f->bit_size)
			f->bit_offset = (unsigned)(w > UINT32_MAX ? UINT32_MAX : w);
	} else if (dwarf_attr(m, DW_AT_data_member_location, &a)) {
		Dwarf_Op *ops;
		size_t n;

		if (dwarf_formudata(&a, &w) == 0)
			f->offset = w;
		else if (dwarf_getlocation(&a, &ops, &n) == 0 && n == 1 &&
			 ops[0].atom == DW_OP_plus_uconst)
			f->offset = ops[0].number;
		if (f->bit_size && f->offset < UINT32_MAX / 8) {
			Dwarf_Word unit, bo;
			if (dwarf_attr(m, DW_AT_byte_size, &a) && dwarf_formudata(&a, &unit) == 0 &&
			    dwarf_attr(m, DW_AT_bit_offset, &a) && dwarf_formudata(&a, &bo) == 0 &&
			    unit <= 16 && bo + f->bit_size <= unit * 8)
				f->bit_offset = (unsigned)(f->offset * 8 + unit * 8 - bo - f->bit_size);
			else
				f->bit_offset = (unsigned)(f->offset * 8);
		}
	}
	if (f->bit_size) {
		f->offset = f->bit_offset / 8;
		f->size = (f->bit_offset % 8 + f->bit_size + 7) / 8;
	}
	return 0;
}

int dtype_layout(struct dtype *d, const char *name, struct dtype_layout *out, char *err,
		 size_t errlen)
{
	const char *kw = NULL, *nm = name;
	Dwarf_Die t, c;
	struct dt_budget b = { DTYPE_MAX_DEPTH };
	uint64_t end = 0;
	size_t cap = 0;

	memset(out, 0, sizeof(*out));
	if (!strncmp(name, "struct ", 7) || !strncmp(name, "union ", 6) ||
	    !strncmp(name, "class ", 6)) {
		kw = name[0] == 's' ? "struct" : name[0] == 'u' ? "union" : "class";
		nm = name + strlen(kw) + 1;
	}
	if (find_type(d, kw, nm, &t) < 0) {
		snprintf(err, errlen, "no struct, union or class named '%s' is defined in the "
			 "DWARF", name);
		return -1;
	}
	dt_name(&t, true, out->type, sizeof(out->type), &b);
	b.left = DTYPE_MAX_DEPTH;
	if (dt_size(&t, &out->size, &b) < 0)
		out->size = 0;
	if (dwarf_child(&t, &c) == 0) {
		do {
			struct dtype_field *f;
			int tag = dwarf_tag(&c);

			if (tag != DW_TAG_member && tag != DW_TAG_inheritance)
				continue;
			if (out->n == DTYPE_MAX_FIELDS)
				break;
			if (out->n == cap) {
				size_t nc = cap ? cap * 2 : 16;
				void *p = realloc(out->fields, nc * sizeof(*out->fields));
				if (!p) {
					dtype_layout_free(out);
					snprintf(err, errlen, "out of memory reading '%s'", name);
					return -1;
				}
				out->fields = p;
				cap = nc;
			}
			f = &out->fields[out->n++];
			member_info(&c, f);
			if (dwarf_tag(&t) != DW_TAG_union_type && f->offset > end) {
				f->hole = f->offset - end;
				out->holes += f->hole;
			}
			f->line = (unsigned)(f->offset / DTYPE_CACHE_LINE);
			f->crosses = f->size > 0 &&
				     (f->offset + f->size - 1) / DTYPE_CACHE_LINE != f->line;
			if (f->offset + f->size > end)
				end = f->offset + f->size;
		} while (dwarf_siblingof(&c, &c) == 0);
	}
	if (out->size > end)
		out->tail = out->size - end;
	out->lines = (unsigned)((out->size + DTYPE_CACHE_LINE - 1) / DTYPE_CACHE_LINE);
	return 0;
}

void dtype_layout_free(struct dtype_layout *l)
{
	free(l->fields);
	l->fields = NULL;
	l->n = 0;
}
