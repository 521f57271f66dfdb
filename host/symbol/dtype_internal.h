/* SPDX-License-Identifier: BSD-2-Clause */
/* Internals of the data-type attribution (host/symbol/dtype*.c). */
#ifndef BMPROF_DTYPE_INTERNAL_H
#define BMPROF_DTYPE_INTERNAL_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbol/dtype.h"
#include "symbol/sym_internal.h"

/* A global or static variable with a fixed address. */
struct dt_global {
	uint64_t addr, size;
	Dwarf_Off die;          /* the DIE with the location (its name and type may come
				   through DW_AT_specification / DW_AT_abstract_origin) */
};

/* One decoded instruction, as the register-move walk sees it (DWARF register numbers). */
enum dt_kind {
	DT_OTHER = 0,
	DT_MOV,         /* dst = src (whole register) */
	DT_LEA,         /* dst = src + imm (no index) */
	DT_ADDI,        /* dst = src + imm (x86 add/sub $imm: src is dst) */
	DT_LOAD,        /* dst = *(src + imm), a whole-register load, no index */
	DT_LOADABS,     /* dst = *(imm) */
	DT_ABS,         /* dst = imm: an address (x86 lea rip, mov $imm; AArch64 adrp, adr) */
	DT_CALL,
	DT_BRANCH,      /* an unconditional or indirect jump, or a stop: target when direct */
	DT_COND,        /* a conditional branch: falls through, target when direct */
	DT_RET,
};

struct dt_ins {
	uint64_t addr;
	uint64_t target;        /* DT_BRANCH, DT_COND: direct target, 0 if indirect */
	int64_t imm;
	uint32_t writes;        /* DWARF registers 0..31 the instruction writes */
	uint8_t size, kind;
	uint8_t indexed;        /* DT_LEA: an index register is added too (value unknown) */
	int8_t dst, src;
	int8_t dst2;            /* DT_LOAD of a pair (AArch64 ldp): the second register,
				   loaded from imm + 8; -1 otherwise */
};

struct dt_func {
	uint64_t lo, hi;        /* the decoded function [lo, hi) */
	struct dt_ins *ins;
	size_t n;
	uint64_t *starts;       /* sorted block starts (branch targets) */
	size_t nstarts;
};

struct dtype {
	struct symbolizer *s;
	Dwarf *dw;
	Dwarf_CFI *cfi_eh, *cfi_debug;
	int machine;
	bool have_gp;                  /* RISC-V: the ELF's __global_pointer$, gp's value */
	uint64_t gp;
	struct dt_global *globals;     /* sorted by addr */
	size_t nglobals;
	struct dt_func fn;             /* the last function decoded */
	Dwarf_Die last_sub;            /* the last outermost subprogram holding a pc */
	bool have_sub;
	size_t csh;                    /* capstone handle (disasm_handle), 0 until needed */
	struct disasm *dis;
};

/* A type walk's step budget: every typedef, qualifier, member, array level and name part
 * costs one; at zero the walk stops where it is. */
struct dt_budget {
	int left;
};

static inline bool dt_spend(struct dt_budget *b)
{
	return b->left-- > 0;
}

/* Offsets from DWARF and instructions added and subtracted as two's complement: a damaged
 * file's numbers wrap instead of overflowing. */
static inline int64_t dt_add(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

static inline int64_t dt_sub(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a - (uint64_t)b);
}

/* dtype_type.c */
/* DW_AT_type of die (through specification / abstract_origin): 0, or -1 (void). */
int dt_type_of(Dwarf_Die *die, Dwarf_Die *out);
/* Type without typedefs and qualifiers: 0, or -1 (void, or too deep). */
int dt_strip(Dwarf_Die *type, Dwarf_Die *out, struct dt_budget *b);
/* Size in bytes: 0 and *size, or -1 when unknown (void, incomplete, function). */
int dt_size(Dwarf_Die *type, uint64_t *size, struct dt_budget *b);
/* C spelling of a type ("struct node *", "long int", "cost_t"); strip: typedefs and
 * qualifiers left out at every level. */
void dt_name(Dwarf_Die *type, bool strip, char *buf, size_t len, struct dt_budget *b);
/* Whether a stripped type is a scalar (base, enum, pointer, reference). */
bool dt_scalar(Dwarf_Die *stripped);
/* DW_AT_name through specification / abstract_origin; NULL if none. */
const char *dt_die_name(Dwarf_Die *die);

/* The walk from a type at an offset down to the member there. */
struct dt_walk {
	char path[DTYPE_PATH_MAX];     /* "stats.checksum", "[3].cost" */
	Dwarf_Die leaf;                /* the innermost member's (or the type's) type */
	bool have_leaf;
	uint64_t leaf_off, leaf_size;  /* its place in the top type */
	bool inside;                   /* offset fell inside a member (not in a hole) */
};
/* Walk stripped type t to offset off; indexed: the first array level met has an unknown
 * index (shown "[]", the offset taken within one element). */
void dt_walk_at(Dwarf_Die *t, uint64_t off, bool indexed, struct dt_walk *w,
		struct dt_budget *b);
/* Append printf-style text to a bounded buffer (cut, never overrun). */
void dt_append(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* An object found: a type at an offset, from a variable. Fills out's type fields. */
struct dt_found {
	Dwarf_Die type;                /* stripped */
	uint64_t offset;
	bool indexed;
	const char *var;
	char prefix[DTYPE_PATH_MAX];   /* expr before the member path: "arcs", "n->" */
	enum dtype_how how;
	int reg;
	uint64_t var_addr;
};
/* Classify and fill out from f (DTYPE_OBJECT, DTYPE_SCALARS, or DTYPE_UNIDENTIFIED when
 * the offset is outside the type or the type has no size); walk gets the leaf (for
 * following a loaded pointer). */
void dt_answer(struct dt_found *f, struct dtype_answer *out, struct dt_walk *walk,
	       struct dt_budget *b);

/* dtype_open.c */
/* The global holding addr, or NULL. */
const struct dt_global *dt_global_at(const struct dtype *d, uint64_t addr);

/* dtype_loc.c: the core of dtype_reg, at pc, for (reg + disp); moves: follow register
 * moves back when the locations say nothing. walk receives the leaf on success. */
int dt_reg(struct dtype *d, uint64_t pc, int reg, int64_t disp, bool indexed, bool moves,
	   struct dtype_answer *out, struct dt_walk *walk, struct dt_budget *b);
/* The core of dtype_addr; indexed: ea is a displacement to which an unknown index is
 * added (the first array level met shows "[]"). */
int dt_addr(struct dtype *d, uint64_t ea, bool indexed, struct dtype_answer *out,
	    struct dt_walk *walk, struct dt_budget *b);
/* The subprogram DIE whose entry is pc: 0, or -1. */
int dt_function_at(struct dtype *d, uint64_t pc, Dwarf_Die *fn);
/* Whether some CU with a subprogram holds pc (DWARF describes the code there). */
bool dt_pc_has_dwarf(struct dtype *d, uint64_t pc);

/* dtype_moves.c */
/* Decode the function holding pc (cached in d->fn): 0, or -1 (no symbol, unreadable). */
int dt_func_at(struct dtype *d, uint64_t pc);
/* Index of the instruction at pc in d->fn, or -1. */
long dt_ins_index(const struct dtype *d, uint64_t pc);
/* Index of the first instruction of the straight-line code ending at instruction i: back
 * to a branch target, or to what follows an unconditional jump or a return (through the
 * fall-through of conditional branches, whose code before certainly ran). */
size_t dt_block_start(const struct dtype *d, size_t i);
/* Follow (reg + disp) back from instruction i of d->fn. */
int dt_moves(struct dtype *d, size_t i, int reg, int64_t disp, bool indexed,
	     struct dtype_answer *out, struct dt_walk *walk, struct dt_budget *b);
void dt_func_free(struct dt_func *f);

/* dtype_rv.c: RISC-V, from the 32-bit instruction w (compressed ones expanded) at addr:
 * o's kind, dst, src and imm for the walk (left DT_OTHER for anything else); and its
 * memory operand, 0, or -1 when it makes no access. gp (x3) is the linker's
 * __global_pointer$ where the ELF defines it: gp-relative addresses are fixed. */
void dt_kind_rv(const struct dtype *d, uint32_t w, uint64_t addr, struct dt_ins *o);
int dt_mem_rv(const struct dtype *d, uint32_t w, struct dtype_mem *mem);
/* The value of ELF symbol __global_pointer$ into *gp: 0, or -1 when there is none. */
int dt_rv_gp(Elf *elf, uint64_t *gp);

#endif
