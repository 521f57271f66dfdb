/* SPDX-License-Identifier: BSD-2-Clause */
/* Opening the data-type attribution over a symbolizer, and the index of global and static
 * variables (DW_OP_addr, DW_OP_addrx locations) by address. */
#include <dwarf.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/disasm.h"
#include "symbol/dtype_internal.h"

/* Scopes deeper than this are not searched for variables. */
#define DT_MAX_NEST 64

static int location_addr(Dwarf_Attribute *loc, uint64_t *addr)
{
	Dwarf_Op *ops;
	size_t n;
	Dwarf_Attribute res;
	Dwarf_Addr a;

	if (dwarf_getlocation(loc, &ops, &n) != 0 || n < 1)
		return -1;
	/* DW_OP_addr, optionally DW_OP_stack_value-free; a TLS or computed address is not
	 * one place */
	if (n != 1)
		return -1;
	if (ops[0].atom == DW_OP_addr) {
		*addr = ops[0].number;
		return 0;
	}
	if ((ops[0].atom == DW_OP_addrx || ops[0].atom == DW_OP_GNU_addr_index) &&
	    dwarf_getlocation_attr(loc, &ops[0], &res) == 0 && dwarf_formaddr(&res, &a) == 0) {
		*addr = a;
		return 0;
	}
	return -1;
}

static int add_global(struct dtype *d, Dwarf_Die *die, struct vec *v)
{
	Dwarf_Attribute loc;
	Dwarf_Die type;
	struct dt_global *g;
	uint64_t addr, size = 0;
	struct dt_budget b = { DTYPE_MAX_DEPTH };

	if (!dwarf_attr(die, DW_AT_location, &loc) || location_addr(&loc, &addr) < 0)
		return 0;
	if (dt_type_of(die, &type) < 0 || dt_size(&type, &size, &b) < 0 || !size)
		size = 1;
	g = vec_push(v);
	if (!g)
		return -1;
	*g = (struct dt_global){ addr, size, dwarf_dieoffset(die) };
	return 0;
}

static bool scope_tag(int tag)
{
	return tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block ||
	       tag == DW_TAG_inlined_subroutine || tag == DW_TAG_namespace ||
	       tag == DW_TAG_module;
}

/* Every variable DIE with a fixed address, in CU-level and nested scopes. The number of
 * steps is bounded by the size of .debug_info (every DIE takes a byte at least), so a
 * sibling chain that loops in a damaged file ends. */
static int index_cu(struct dtype *d, Dwarf_Die *cu, struct vec *v, uint64_t *steps)
{
	Dwarf_Die st[DT_MAX_NEST], cur, child;
	int depth = 0;

	if (dwarf_child(cu, &cur) != 0)
		return 0;
	for (;;) {
		int tag = dwarf_tag(&cur);

		if (!(*steps)--)
			return 0;
		if (tag == DW_TAG_variable && add_global(d, &cur, v) < 0)
			return -1;
		if (scope_tag(tag) && depth < DT_MAX_NEST && dwarf_child(&cur, &child) == 0) {
			st[depth++] = cur;
			cur = child;
			continue;
		}
		while (dwarf_siblingof(&cur, &cur) != 0) {
			if (!depth)
				return 0;
			cur = st[--depth];
		}
	}
}

static int cmp_global(const void *a, const void *b)
{
	const struct dt_global *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->die < y->die ? -1 : x->die > y->die;
}

static int index_globals(struct dtype *d)
{
	struct vec v = { .elem = sizeof(struct dt_global) };
	Dwarf_Off off = 0, next;
	size_t hsz;
	uint64_t steps = d->s->debug_info_len + 1;

	while (dwarf_nextcu(d->dw, off, &next, &hsz, NULL, NULL, NULL) == 0 && steps) {
		Dwarf_Die cu;

		if (dwarf_offdie(d->dw, off + hsz, &cu) && index_cu(d, &cu, &v, &steps) < 0) {
			vec_free(&v);
			return -1;
		}
		if (next <= off)
			break;
		off = next;
	}
	d->globals = v.data;
	d->nglobals = v.n;
	if (d->nglobals > 1)
		qsort(d->globals, d->nglobals, sizeof(*d->globals), cmp_global);
	return 0;
}

const struct dt_global *dt_global_at(const struct dtype *d, uint64_t addr)
{
	size_t lo = 0, hi = d->nglobals;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (d->globals[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* the nearest start at or below addr first; a few more back for an enclosing one */
	for (size_t i = lo, k = 0; i-- > 0 && k < 8; k++) {
		const struct dt_global *g = &d->globals[i];
		if (addr - g->addr < g->size)
			return g;
	}
	return NULL;
}

struct dtype *dtype_open(struct symbolizer *s, char *err, size_t errlen)
{
	struct dtype *d;

	if (!s->dw) {
		snprintf(err, errlen, "no DWARF for data types: %s%s",
			 symbolizer_has_symbols(s) ? "" : "it is stripped; ",
			 symbolizer_has_symbols(s) ? symbolizer_no_dwarf_why(s) :
			 "use the unstripped ELF, built with -g");
		return NULL;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		snprintf(err, errlen, "out of memory opening the DWARF types");
		return NULL;
	}
	d->s = s;
	d->dw = s->dw;
	d->machine = s->machine;
	if ((!s->cus_indexed && sym_cu_index(s) < 0) || index_globals(d) < 0) {
		snprintf(err, errlen, "out of memory indexing the DWARF variables");
		dtype_close(d);
		return NULL;
	}
	if (!s->ncus) {
		snprintf(err, errlen, "no DWARF compilation units: data types need an image "
			 "built with -g");
		dtype_close(d);
		return NULL;
	}
	if (d->machine == EM_RISCV)
		d->have_gp = dt_rv_gp(s->elf, &d->gp) == 0;
	d->cfi_debug = dwarf_getcfi(d->dw);
	d->cfi_eh = dwarf_getcfi_elf(s->elf);
	return d;
}

void dtype_close(struct dtype *d)
{
	if (!d)
		return;
	if (d->cfi_eh)
		dwarf_cfi_end(d->cfi_eh);
	free(d->globals);
	dt_func_free(&d->fn);
	if (d->dis)
		disasm_close(d->dis);
	free(d);
}

size_t dtype_nglobals(const struct dtype *d)
{
	return d->nglobals;
}
