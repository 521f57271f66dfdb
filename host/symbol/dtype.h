/* SPDX-License-Identifier: BSD-2-Clause */
/* Data-type attribution for data-space profiling: which data object, of which type, and
 * which member of it a memory access touched, from the image's DWARF (docs/data-space.md).
 *
 * Two ways in, as in Linux perf's data-type profiling:
 *   dtype_addr  an effective address inside a global or static object (DW_OP_addr);
 *   dtype_reg   an access through a base register at a pc: the variable or parameter whose
 *               location at that pc is the register (DW_OP_regN: it holds a pointer, the
 *               access is into the pointee), or places the variable in memory relative to
 *               it (DW_OP_bregN, DW_OP_fbreg through the frame base and the call-frame
 *               information); where the location lists say nothing, simple register moves
 *               before the pc in its basic block are followed back (mov, lea, add/sub of a
 *               constant, a load of a pointer member, adrp+add, x86 rip-relative, the
 *               pointer a direct call returns).
 * dtype_insn decodes the instruction at a pc and does whichever applies.
 *
 * Every answer is classified in the categories of Itzkowitz et al., "Memory Profiling using
 * Hardware Counters" (SC'03): a typed object, <Scalars>, or one of the five parts of
 * <Unknown>. Type walks are bounded (DTYPE_MAX_DEPTH steps: cycles in malformed DWARF end
 * there) and answers use fixed-size buffers (names are cut, never overrun).
 *
 * One thread at a time: a struct dtype uses its symbolizer's libdw handle and keeps the
 * last function it decoded.
 */
#ifndef BMPROF_DTYPE_H
#define BMPROF_DTYPE_H

#include <stddef.h>
#include <stdint.h>

struct symbolizer;

enum dtype_class {
	/* An aggregate (struct, union, class, array of them) identified: type, offset and
	 * the member at the offset. */
	DTYPE_OBJECT = 0,
	/* <Scalars>: the object identified is a scalar (base type, enum, pointer), or the
	 * access is through a pointer to a scalar. */
	DTYPE_SCALARS,
	/* The five parts of <Unknown>. */
	/* (Unspecified): the pc has DWARF, but the compiler gave the access no symbolic
	 * reference: no variable or parameter is located in (or relative to) its base
	 * register at that pc, and no register move in its basic block leads to one; or an
	 * instruction with a memory operand given only by an index register. */
	DTYPE_UNSPECIFIED,
	/* (Unresolvable): the trigger pc or its memory operand could not be determined: the
	 * backtracking found no memory instruction, or the instruction at the pc is not a
	 * memory access or cannot be decoded. */
	DTYPE_UNRESOLVABLE,
	/* (Unascertainable): the code at the pc has no DWARF (a module built without -g:
	 * no compilation unit covers the pc), so nothing can be said about the access. */
	DTYPE_UNASCERTAINABLE,
	/* (Unidentified): a variable was found but its type does not identify the object (a
	 * void or incomplete pointee, an integer used as a pointer, a displacement outside
	 * the pointee), or the effective address lies in no global or static object (heap,
	 * stack temporaries): most likely a compiler temporary. */
	DTYPE_UNIDENTIFIED,
	/* (Unverifiable): the candidate trigger pc cannot be validated: a branch target lies
	 * between it and the delivered pc, so which instruction caused the event is not
	 * known (Sun's <branch target>). Never returned by this library: set by the
	 * backtracking that finds the candidate. */
	DTYPE_UNVERIFIABLE,
	DTYPE__NCLASS
};

/* "<Scalars>", "(Unspecified)", ... as Sun's tables name them; "" for DTYPE_OBJECT. */
const char *dtype_class_name(enum dtype_class c);
/* Whether c is one of the parts of <Unknown>. */
int dtype_class_unknown(enum dtype_class c);

/* How the object was found. */
enum dtype_how {
	DTYPE_VIA_NONE = 0,
	DTYPE_VIA_GLOBAL,    /* the address is inside a global or static variable */
	DTYPE_VIA_REG,       /* a pointer variable is in the base register (DW_OP_regN) */
	DTYPE_VIA_MEM,       /* a variable is in memory relative to the base register
				(DW_OP_bregN, DW_OP_fbreg) */
	DTYPE_VIA_MOVES,     /* through register moves back in the block to one of those */
};

#define DTYPE_NAME_MAX 128
#define DTYPE_PATH_MAX 256
/* Type-walk steps (typedef, qualifier, member, array level) of one query, and register
 * moves followed back. */
#define DTYPE_MAX_DEPTH 32
#define DTYPE_MAX_MOVES 64

struct dtype_answer {
	enum dtype_class cls;
	enum dtype_how how;
	/* The variable or parameter ("arcs", "n"); "" if none. For DTYPE_VIA_MOVES the
	 * variable the moves lead to, with the member loaded on the way in path. */
	char var[DTYPE_NAME_MAX];
	/* The type of the object accessed, typedefs and qualifiers stripped and outer array
	 * levels peeled: "struct node", "struct arc", "long int"; "" if not known. This,
	 * with offset, is what data-space views aggregate by (Sun's {structure:node}). */
	char type[DTYPE_NAME_MAX];
	uint64_t type_size;
	uint64_t offset;                 /* bytes into an object of that type */
	/* The member at offset, through nested structs, unions and arrays: "orientation",
	 * "stats.checksum", "p[1].y"; "" when the access is to the object as a whole. */
	char member[DTYPE_PATH_MAX];
	char member_type[DTYPE_NAME_MAX];     /* the innermost member's type */
	uint64_t member_off, member_size;     /* its place in type */
	/* The access as source would write it: "arcs[3].cost", "n->orientation",
	 * "a->tail->potential", "local[1].flow". */
	char expr[DTYPE_PATH_MAX];
	uint64_t var_addr;                    /* DTYPE_VIA_GLOBAL: where the variable starts */
	int reg;                              /* the register the variable was found in, -1 */
};

/* Sun's form of the answer: "{struct node}.+56 orientation", "{struct arc}.+0 cost",
 * "<Scalars>", "(Unspecified)". Returns buf. */
char *dtype_format(const struct dtype_answer *a, char *buf, size_t len);

struct dtype;

/* Over an open symbolizer (which must outlive it): NULL with a one-line reason in err when
 * the ELF has no DWARF ("stripped" or "built without -g") or no DWARF type information,
 * or out of memory. Indexes the global and static variables. */
struct dtype *dtype_open(struct symbolizer *s, char *err, size_t errlen);
void dtype_close(struct dtype *d);
/* How many global and static variables with an address the index holds. */
size_t dtype_nglobals(const struct dtype *d);

/* (a) The object holding effective address ea (link-time): DTYPE_OBJECT or DTYPE_SCALARS
 * with how DTYPE_VIA_GLOBAL, or DTYPE_UNIDENTIFIED when no variable holds it. 0, or -1
 * out of memory. */
int dtype_addr(struct dtype *d, uint64_t ea, struct dtype_answer *out);

/* (b) An access at pc through DWARF register reg (analysis/regfile.h numbering) plus disp.
 * indexed: the operand also has an index register, whose value is not known: the offset
 * then counts modulo the element the pointer points to. 0 with out filled, or -1 out of
 * memory. */
int dtype_reg(struct dtype *d, uint64_t pc, unsigned reg, int64_t disp, int indexed,
	      struct dtype_answer *out);

/* The memory operand of the instruction at pc. */
struct dtype_mem {
	int base;          /* DWARF register, -1 if none */
	int index;         /* DWARF register, -1 if none */
	int64_t disp;
	int absolute;      /* the address is fixed (x86 rip-relative or absolute): addr */
	uint64_t addr;
	unsigned size;     /* bytes accessed, 0 if not known */
	int load, store;
};
/* Decode the instruction at pc: 0 with its memory operand, -1 when it cannot be read or
 * decoded or has no memory operand (then *mem has base -1). */
int dtype_insn_mem(struct dtype *d, uint64_t pc, struct dtype_mem *mem);
/* The instruction at pc decoded and attributed: dtype_addr for a fixed address, dtype_reg
 * for a base register, DTYPE_UNRESOLVABLE when it is no memory access. A displacement that
 * is a global's address with an index register (arcs(,%rax,8)), or with a base register
 * the locations do not name and a displacement of 64 KiB or more, is that global with an
 * unknown index ("arcs[].tail"), in code without DWARF too. 0, or -1 out of memory. */
int dtype_insn(struct dtype *d, uint64_t pc, struct dtype_answer *out);

/* A struct, union or class type's layout, as pahole prints it. */
struct dtype_field {
	char name[DTYPE_NAME_MAX];       /* "" for an anonymous member */
	char type[DTYPE_NAME_MAX];
	uint64_t offset, size;           /* bytes; a bit-field: its storage bytes */
	unsigned bit_offset, bit_size;   /* bit-field: bits from the start of the struct,
					    width; 0, 0 otherwise */
	uint64_t hole;                   /* padding bytes before this member */
	unsigned line;                   /* cache line (64 bytes) it starts in */
	int crosses;                     /* it spans a cache-line boundary */
};
struct dtype_layout {
	char type[DTYPE_NAME_MAX];       /* "struct node" */
	uint64_t size;
	size_t n;
	struct dtype_field *fields;      /* malloc'd: dtype_layout_free */
	uint64_t holes;                  /* padding bytes between members */
	uint64_t tail;                   /* padding bytes after the last member */
	unsigned lines;                  /* cache lines the type spans from offset 0 */
};
#define DTYPE_CACHE_LINE 64
#define DTYPE_MAX_FIELDS 4096
/* The layout of the complete struct, union or class named name ("node", "struct node",
 * "union u"): the first definition in DWARF order. 0, or -1 with a one-line reason in
 * err (no such type, out of memory). */
int dtype_layout(struct dtype *d, const char *name, struct dtype_layout *out, char *err,
		 size_t errlen);
void dtype_layout_free(struct dtype_layout *l);

#endif
