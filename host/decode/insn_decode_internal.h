/* SPDX-License-Identifier: BSD-2-Clause */
/* Shared by host/decode/insn_decode.c (the driver), host/decode/insn_x86.c, host/decode/insn_a64.c (one
 * instruction's flow, class, memory access and registers from capstone's details) and
 * host/decode/insn_jtab.c (x86-64 jump tables), and host/decode/insn_rv.c (RISC-V,
 * decoded by the project's own RISC-V decoder). */
#ifndef BMPROF_INSN_DECODE_INTERNAL_H
#define BMPROF_INSN_DECODE_INTERNAL_H

#include <capstone/capstone.h>
#include <stddef.h>
#include <stdint.h>

#include "insn.h"
#include "decode/insn_decode.h"

/* No register, or rip (operand facts). */
#define XREG_NONE 0xff
#define XREG_RIP 0xfe

/* What the jump-table matchers need to know of an operand. Types are capstone's common
 * CS_OP_REG, CS_OP_IMM, CS_OP_MEM; registers are insn.h numbers. */
struct opnd_facts {
	uint8_t type;
	uint8_t reg;             /* REG: XREG_NONE if unnumbered */
	uint8_t base, index;     /* MEM: XREG_NONE or XREG_RIP */
	uint8_t scale;           /* MEM: x86 index scale */
	uint8_t ext, shift;      /* AArch64: extend (ARM64_EXT_*), LSL amount */
	int64_t imm;             /* IMM: the value; MEM: the displacement */
};

/* An instruction as the jump-table matchers see it. */
struct insn_facts {
	unsigned id;             /* X86_INS_*, ARM64_INS_* */
	uint8_t nops;
	uint8_t cc;              /* AArch64 condition */
	struct opnd_facts op[3]; /* the first operands (x86: AT&T order, source first) */
};

/* Fill the flow, class, memory and register fields of o from capstone's decoding of in
 * (details on), and the facts the jump-table matchers use. */
void insn_x86_fill(csh h, const cs_insn *in, struct insn *o, struct insn_facts *xf);
void insn_a64_fill(csh h, const cs_insn *in, struct insn *o, struct insn_facts *af);
/* Cortex-M Thumb (insn_thumb.c): no jump-table facts beyond the instruction id. */
void insn_thumb_fill(csh h, const cs_insn *in, struct insn *o, struct insn_facts *tf);

/* RISC-V (insn_rv.c, without capstone): the instruction at code[0..len) at addr, all of
 * o's fields filled, text included; its size (2 or 4), or 0 when len is shorter than it.
 * prev carries the last instruction's auipc (reg 0: it was none) from one call to the
 * next, for the targets of `auipc; jalr` calls and to tell `tail` jumps. */
struct rv_auipc {
	uint8_t reg;
	uint64_t value;
};
unsigned insn_rv_fill(const uint8_t *code, size_t len, uint64_t addr, struct rv_auipc *prev,
		      struct insn *o);
/* The bytes a RISC-V load, store or atomic (32-bit form w) accesses; 0 for others. */
unsigned insn_rv_mem_size(uint32_t w);

/* o->text from a mnemonic and its operands, as bmprof annotate lays them out. */
void insn_set_text(struct insn *o, const char *mnemonic, const char *operands);

/* The x86-64 register number (insn.h numbering) of a capstone register, or -1. */
int insn_x86_regnum(unsigned reg);
/* The AArch64 register number of a capstone register, or -1 (zero registers, pc). */
int insn_a64_regnum(unsigned reg);

/* What the jump-table matchers look up about a procedure, made once for it: looking it up
 * by walking back from every indirect jump made a long procedure quadratic. */
#define JTAB_GPRS 16
struct jtab_index {
	int32_t *entered;           /* [n]: the nearest branch before instruction i to it; -1 */
	uint32_t *wr[JTAB_GPRS];    /* x86-64 general registers: the instructions writing one,
				     * in address order, but those whose value just leaves the
				     * procedure (an epilogue's pop before a return) */
	size_t nwr[JTAB_GPRS];
};
/* 0, or -1 out of memory. */
int insn_jtab_index(struct jtab_index *ix, const struct insn *insns, size_t n);
void insn_jtab_index_free(struct jtab_index *ix);

/* Recover the jump table of the indirect jump insns[j] (of insns[0..n), xf alongside, ix
 * made for them) from the instructions before it: 0 with the targets (instruction starts
 * inside [lo, hi), deduplicated, malloc'd) in *targets, or -1 when the idiom is not
 * recognised or an entry is not such a target. */
int insn_x86_jump_table(const struct insn *insns, const struct insn_facts *xf, size_t n,
			const struct jtab_index *ix, size_t j, uint64_t lo, uint64_t hi,
			insn_read_fn read, void *ctx, uint64_t **targets, size_t *ntargets);

/* The same for AArch64's "cmp; b.hi; adrp; add; ldrb/ldrh/ldr; adr; add ext #2; br". */
int insn_a64_jump_table(const struct insn *insns, const struct insn_facts *af, size_t n,
			const struct jtab_index *ix, size_t j, uint64_t lo, uint64_t hi,
			insn_read_fn read, void *ctx, uint64_t **targets, size_t *ntargets);

/* Whether the indirect jump insns[j] is a tail call: through a pointer in memory at a
 * fixed address (jmp *p(%rip)), or right after the frame is torn down (leave, pop,
 * add $N,%rsp). */
int insn_x86_tail_call(const struct insn *insns, const struct insn_facts *xf, size_t j);

#endif
