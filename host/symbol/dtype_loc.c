/* SPDX-License-Identifier: BSD-2-Clause */
/* Which variable a register names at a pc: the scopes holding the pc (subprogram,
 * inlined subroutines, lexical blocks), their variables' and parameters' locations at it
 * (location lists included), the frame base through the call-frame information; and the
 * global-address and register queries built on them. */
#include <dwarf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/dtype_internal.h"

#define DT_MAX_SCOPES 32

struct dt_scopes {
	Dwarf_Die die[DT_MAX_SCOPES];   /* outermost (the subprogram) first */
	int n;
	int sub;                        /* index of the innermost DW_TAG_subprogram */
};

static bool descend(int tag)
{
	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
	       tag == DW_TAG_lexical_block;
}

/* The chain of scopes of cu holding pc: 0 with at least the subprogram, or -1. Siblings
 * are scanned level by level, each level at most as many DIEs as .debug_info has bytes. */
static int scopes_in_cu(struct dtype *d, Dwarf_Die *cu, uint64_t pc, struct dt_scopes *sc)
{
	Dwarf_Die parent, c;
	uint64_t steps = d->s->debug_info_len + 1;
	Dwarf_Die ns[8];
	int nns = 0;

	/* from the subprogram already found, or the CU */
	parent = sc->n ? sc->die[sc->n - 1] : *cu;
	for (;;) {
		bool found = false;

		if (dwarf_child(&parent, &c) != 0)
			break;
		do {
			int tag = dwarf_tag(&c);

			if (!steps--)
				break;
			if ((tag == DW_TAG_namespace || tag == DW_TAG_module) && !sc->n && nns < 8)
				ns[nns++] = c;
			if (!descend(tag) || dwarf_haspc(&c, pc) != 1)
				continue;
			if (sc->n == DT_MAX_SCOPES)
				return sc->sub >= 0 ? 0 : -1;
			if (tag == DW_TAG_subprogram)
				sc->sub = sc->n;
			sc->die[sc->n++] = c;
			parent = c;
			found = true;
			break;
		} while (dwarf_siblingof(&c, &c) == 0);
		if (found)
			continue;
		/* C++: functions defined inside a namespace */
		if (!sc->n && nns) {
			parent = ns[--nns];
			continue;
		}
		break;
	}
	return sc->sub >= 0 ? 0 : -1;
}

/* The scopes at pc; the last outermost subprogram found is kept, so the next pc in the
 * same function does not search its CU again. */
static int scopes_at(struct dtype *d, uint64_t pc, struct dt_scopes *sc)
{
	uint32_t cand[SYM_MAX_CANDIDATES];
	size_t n;

	sc->n = 0;
	sc->sub = -1;
	if (d->have_sub && dwarf_haspc(&d->last_sub, pc) == 1) {
		sc->die[0] = d->last_sub;
		sc->n = 1;
		sc->sub = 0;
		return scopes_in_cu(d, NULL, pc, sc);
	}
	n = sym_candidate_cus(d->s, pc, cand, SYM_MAX_CANDIDATES);
	for (size_t i = 0; i < n; i++) {
		Dwarf_Die cu;

		if (cand[i] >= d->s->ncus || !dwarf_offdie(d->dw, d->s->cus[cand[i]].die_off, &cu))
			continue;
		sc->n = 0;
		sc->sub = -1;
		if (scopes_in_cu(d, &cu, pc, sc) == 0) {
			d->last_sub = sc->die[0];
			d->have_sub = dwarf_tag(&sc->die[0]) == DW_TAG_subprogram;
			return 0;
		}
	}
	return -1;
}

int dt_function_at(struct dtype *d, uint64_t pc, Dwarf_Die *fn)
{
	struct dt_scopes sc;
	Dwarf_Addr lo;

	if (scopes_at(d, pc, &sc) < 0 || dwarf_lowpc(&sc.die[sc.sub], &lo) != 0 || lo != pc)
		return -1;
	*fn = sc.die[sc.sub];
	return 0;
}

bool dt_pc_has_dwarf(struct dtype *d, uint64_t pc)
{
	struct dt_scopes sc;

	return scopes_at(d, pc, &sc) == 0;
}

/* Where a location puts a variable. */
enum dt_loc {
	LOC_NONE,
	LOC_REG,   /* its value is in reg */
	LOC_MEM,   /* it is in memory at reg + off */
	LOC_VAL,   /* its value is reg + off (a pointer to there) */
};

/* The CFA at pc as register + offset: 0, or -1. */
static int cfa_at(struct dtype *d, uint64_t pc, int *reg, int64_t *off)
{
	Dwarf_CFI *cfis[2] = { d->cfi_debug, d->cfi_eh };

	for (int i = 0; i < 2; i++) {
		Dwarf_Frame *fr = NULL;
		Dwarf_Op *ops;
		size_t n;
		int rc = -1;

		if (!cfis[i] || dwarf_cfi_addrframe(cfis[i], pc, &fr) != 0)
			continue;
		/* libdw gives a register-and-offset rule as DW_OP_bregx */
		if (dwarf_frame_cfa(fr, &ops, &n) == 0 && n == 1 && ops[0].atom == DW_OP_bregx &&
		    ops[0].number < 32) {
			*reg = (int)ops[0].number;
			*off = (int64_t)ops[0].number2;
			rc = 0;
		} else if (n == 1 && ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
			*reg = ops[0].atom - DW_OP_breg0;
			*off = (int64_t)ops[0].number;
			rc = 0;
		}
		free(fr);
		if (rc == 0)
			return 0;
	}
	return -1;
}

/* The frame base of subprogram sub at pc as register + offset: 0, or -1. */
static int frame_base(struct dtype *d, Dwarf_Die *sub, uint64_t pc, int *reg, int64_t *off)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t n;

	if (!dwarf_attr_integrate(sub, DW_AT_frame_base, &a) ||
	    dwarf_getlocation_addr(&a, pc, &ops, &n, 1) != 1 || n != 1)
		return -1;
	if (ops[0].atom == DW_OP_call_frame_cfa)
		return cfa_at(d, pc, reg, off);
	if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		*reg = ops[0].atom - DW_OP_breg0;
		*off = (int64_t)ops[0].number;
		return 0;
	}
	if (ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31) {
		*reg = ops[0].atom - DW_OP_reg0;
		*off = 0;
		return 0;
	}
	return -1;
}

struct dt_fb {
	bool tried, ok;
	int reg;
	int64_t off;
};

/* Where variable v is at pc. */
static enum dt_loc locate(struct dtype *d, Dwarf_Die *v, Dwarf_Die *sub, uint64_t pc,
			  struct dt_fb *fb, int *reg, int64_t *off)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t n;
	bool value;
	unsigned atom;

	if (!dwarf_attr(v, DW_AT_location, &a) || dwarf_getlocation_addr(&a, pc, &ops, &n, 1) != 1)
		return LOC_NONE;
	if (n == 0 || n > 2)
		return LOC_NONE;
	value = n == 2 && ops[1].atom == DW_OP_stack_value;
	if (n == 2 && !value)
		return LOC_NONE;
	atom = ops[0].atom;
	if (atom >= DW_OP_reg0 && atom <= DW_OP_reg31 && n == 1) {
		*reg = (int)(atom - DW_OP_reg0);
		return LOC_REG;
	}
	if (atom == DW_OP_regx && n == 1 && ops[0].number < 32) {
		*reg = (int)ops[0].number;
		return LOC_REG;
	}
	if (atom >= DW_OP_breg0 && atom <= DW_OP_breg31) {
		*reg = (int)(atom - DW_OP_breg0);
		*off = (int64_t)ops[0].number;
		return value ? LOC_VAL : LOC_MEM;
	}
	if (atom == DW_OP_bregx && ops[0].number < 32) {
		*reg = (int)ops[0].number;
		*off = (int64_t)ops[0].number2;
		return value ? LOC_VAL : LOC_MEM;
	}
	if (atom == DW_OP_fbreg) {
		if (!fb->tried) {
			fb->tried = true;
			fb->ok = frame_base(d, sub, pc, &fb->reg, &fb->off) == 0;
		}
		if (!fb->ok)
			return LOC_NONE;
		*reg = fb->reg;
		*off = dt_add(fb->off, (int64_t)ops[0].number);
		return value ? LOC_VAL : LOC_MEM;
	}
	return LOC_NONE;
}

/* A pointer variable's pointee: 0 with its stripped type, -1 if v is not a pointer. */
static int pointee(Dwarf_Die *v, Dwarf_Die *out, bool *is_ptr, struct dt_budget *b)
{
	Dwarf_Die t;

	*is_ptr = false;
	if (dt_type_of(v, &t) < 0 || dt_strip(&t, &t, b) < 0)
		return -1;
	if (dwarf_tag(&t) != DW_TAG_pointer_type && dwarf_tag(&t) != DW_TAG_reference_type &&
	    dwarf_tag(&t) != DW_TAG_rvalue_reference_type)
		return -1;
	*is_ptr = true;
	if (dt_type_of(&t, &t) < 0 || dt_strip(&t, &t, b) < 0)
		return -1;   /* void * */
	*out = t;
	return 0;
}

static void unidentified(struct dtype_answer *out, const char *var, int reg, enum dtype_how how)
{
	memset(out, 0, sizeof(*out));
	out->cls = DTYPE_UNIDENTIFIED;
	out->how = how;
	out->reg = reg;
	snprintf(out->var, sizeof(out->var), "%s", var ? var : "");
}

/* The access is through pointer variable v (in reg, pointing at reg + k): rel = disp - k
 * bytes into its pointee. */
static void through_pointer(Dwarf_Die *v, int reg, int64_t rel, bool indexed,
			    struct dtype_answer *out, struct dt_walk *walk, struct dt_budget *b)
{
	struct dt_found f = { .reg = reg, .how = DTYPE_VIA_REG, .indexed = indexed };
	const char *name = dt_die_name(v);
	uint64_t size = 0;
	bool is_ptr;

	f.var = name;
	if (pointee(v, &f.type, &is_ptr, b) < 0 || rel < 0) {
		unidentified(out, name, reg, DTYPE_VIA_REG);
		if (is_ptr && rel >= 0)   /* void *: say so */
			snprintf(out->type, sizeof(out->type), "void");
		return;
	}
	f.offset = (uint64_t)rel;
	if (dt_size(&f.type, &size, b) == 0 && size && f.offset >= size) {
		/* p[k].member with a constant k, or an unknown index */
		uint64_t k = f.offset / size;
		f.offset %= size;
		if (indexed)
			snprintf(f.prefix, sizeof(f.prefix), "%s[].", name ? name : "?");
		else
			snprintf(f.prefix, sizeof(f.prefix), "%s[%" PRIu64 "].", name ? name : "?", k);
		f.indexed = false;
	} else {
		snprintf(f.prefix, sizeof(f.prefix), "%s->", name ? name : "?");
	}
	dt_answer(&f, out, walk, b);
	if (dt_scalar(&f.type) && f.offset < size) {
		/* *p: the expression is the dereference */
		snprintf(out->expr, sizeof(out->expr), "*%s", name ? name : "?");
	}
}

/* The variable v in memory at reg + k: the access is rel = disp - k bytes into it. */
static void in_memory(Dwarf_Die *v, int reg, uint64_t rel, bool indexed, enum dtype_how how,
		      struct dtype_answer *out, struct dt_walk *walk, struct dt_budget *b)
{
	struct dt_found f = { .reg = reg, .how = how, .indexed = indexed, .offset = rel };

	f.var = dt_die_name(v);
	if (dt_type_of(v, &f.type) < 0 || dt_strip(&f.type, &f.type, b) < 0) {
		unidentified(out, f.var, reg, how);
		return;
	}
	snprintf(f.prefix, sizeof(f.prefix), "%s", f.var ? f.var : "?");
	dt_answer(&f, out, walk, b);
}

/* Search the scopes' variables for (reg + disp): 1 answered, 0 nothing found. */
static int search(struct dtype *d, struct dt_scopes *sc, uint64_t pc, int reg, int64_t disp,
		  bool indexed, struct dtype_answer *out, struct dt_walk *walk,
		  struct dt_budget *b)
{
	struct dt_fb fb = { 0 };
	Dwarf_Die *sub = &sc->die[sc->sub];

	for (int i = sc->n; i-- > 0;) {
		Dwarf_Die c;
		unsigned seen = 0;

		if (dwarf_child(&sc->die[i], &c) != 0)
			continue;
		do {
			int tag = dwarf_tag(&c), r;
			int64_t k = 0;
			uint64_t size;
			Dwarf_Die t;
			bool is_ptr;

			if (tag != DW_TAG_variable && tag != DW_TAG_formal_parameter)
				continue;
			if (++seen > DTYPE_MAX_FIELDS)
				break;
			switch (locate(d, &c, sub, pc, &fb, &r, &k)) {
			case LOC_REG:
				if (r != reg)
					break;
				through_pointer(&c, reg, disp, indexed, out, walk, b);
				return 1;
			case LOC_MEM:
				if (r != reg || disp < k || dt_type_of(&c, &t) < 0 ||
				    dt_size(&t, &size, b) < 0 || (uint64_t)dt_sub(disp, k) >= size)
					break;
				in_memory(&c, reg, (uint64_t)dt_sub(disp, k), indexed, DTYPE_VIA_MEM, out,
					  walk, b);
				return 1;
			case LOC_VAL:
				if (r != reg || disp < k || pointee(&c, &t, &is_ptr, b) < 0 ||
				    dt_size(&t, &size, b) < 0 || (uint64_t)dt_sub(disp, k) >= size)
					break;
				through_pointer(&c, reg, dt_sub(disp, k), indexed, out, walk, b);
				out->how = DTYPE_VIA_MEM;
				return 1;
			case LOC_NONE:
				break;
			}
		} while (dwarf_siblingof(&c, &c) == 0);
	}
	return 0;
}

int dt_reg(struct dtype *d, uint64_t pc, int reg, int64_t disp, bool indexed, bool moves,
	   struct dtype_answer *out, struct dt_walk *walk, struct dt_budget *b)
{
	struct dt_scopes sc;

	if (walk)
		walk->have_leaf = false;
	memset(out, 0, sizeof(*out));
	out->reg = -1;
	if (scopes_at(d, pc, &sc) < 0) {
		out->cls = DTYPE_UNASCERTAINABLE;
		return 0;
	}
	if (reg >= 0 && reg < 32 && search(d, &sc, pc, reg, disp, indexed, out, walk, b))
		return 0;
	if (moves && reg >= 0 && reg < 32 && dt_func_at(d, pc) == 0) {
		long i = dt_ins_index(d, pc);
		if (i >= 0)
			return dt_moves(d, (size_t)i, reg, disp, indexed, out, walk, b);
	}
	memset(out, 0, sizeof(*out));
	out->reg = -1;
	out->cls = DTYPE_UNSPECIFIED;
	return 0;
}

int dt_addr(struct dtype *d, uint64_t ea, bool indexed, struct dtype_answer *out,
	    struct dt_walk *walk, struct dt_budget *b)
{
	const struct dt_global *g = dt_global_at(d, ea);
	struct dt_found f = { .reg = -1, .how = DTYPE_VIA_GLOBAL, .indexed = indexed };
	Dwarf_Die v;

	if (walk)
		walk->have_leaf = false;
	if (!g || !dwarf_offdie(d->dw, g->die, &v)) {
		unidentified(out, NULL, -1, DTYPE_VIA_NONE);
		return 0;
	}
	f.var = dt_die_name(&v);
	f.var_addr = g->addr;
	f.offset = ea - g->addr;
	if (dt_type_of(&v, &f.type) < 0 || dt_strip(&f.type, &f.type, b) < 0) {
		unidentified(out, f.var, -1, DTYPE_VIA_GLOBAL);
		out->var_addr = g->addr;
		return 0;
	}
	snprintf(f.prefix, sizeof(f.prefix), "%s", f.var ? f.var : "?");
	dt_answer(&f, out, walk, b);
	return 0;
}

int dtype_addr(struct dtype *d, uint64_t ea, struct dtype_answer *out)
{
	struct dt_budget b = { DTYPE_MAX_DEPTH * 4 };

	return dt_addr(d, ea, false, out, NULL, &b);
}

int dtype_reg(struct dtype *d, uint64_t pc, unsigned reg, int64_t disp, int indexed,
	      struct dtype_answer *out)
{
	struct dt_budget b = { DTYPE_MAX_DEPTH * 4 };

	return dt_reg(d, pc, reg < 32 ? (int)reg : -1, disp, indexed != 0, true, out, NULL, &b);
}
