/* SPDX-License-Identifier: BSD-2-Clause */
/* One x86-64 instruction's memory accesses as address expressions (analysis/memop.h),
 * from capstone's details and the instruction record insn_x86_fill made. Accesses that
 * capstone shows no operand for (push, pop, call, ret, leave) are made from rsp and rbp;
 * string instructions advance rsi/rdi by their size, the direction flag taken as clear
 * (as the ABI leaves it at every call and return). */
#include <string.h>

#include "decode/memop_decode.h"
#include "decode/insn_decode_internal.h"
#include "wire.h"

#define RSP 7u
#define RBP 6u
#define RSI 4u
#define RDI 5u

static unsigned dwarf(unsigned capstone_reg)
{
	int n = insn_x86_regnum(capstone_reg);
	return n < 0 ? MEMOP_NOREG : memop_dwarf_of_insn_reg(BMPROF_ARCH_X86_64, (unsigned)n);
}

static void clear(struct memop_access *a)
{
	memset(a, 0, sizeof(*a));
	a->base = a->index = a->post_reg = a->post_index = MEMOP_NOREG;
}

/* A memory operand as an address expression. */
static void describe(const cs_insn *in, const struct insn *o, const cs_x86_op *op,
		     struct memop_access *a)
{
	const cs_x86 *x = &in->detail->x86;
	clear(a);
	a->valid = 1;
	a->size = op->size;
	a->disp = op->mem.disp;
	a->addr32 = x->addr_size == 4;
	if (op->mem.segment == X86_REG_FS || op->mem.segment == X86_REG_GS) {
		a->why = MEMOP_SEGMENT;
		return;
	}
	if (op->mem.base == X86_REG_RIP || op->mem.base == X86_REG_EIP) {
		a->disp = (int64_t)(o->addr + o->size) + op->mem.disp;
		if (a->addr32)
			a->disp = (int64_t)(uint32_t)a->disp;
	} else if (op->mem.base != X86_REG_INVALID) {
		a->base = (uint8_t)dwarf(op->mem.base);
		if (a->base == MEMOP_NOREG)
			a->why = MEMOP_FORM;   /* a 16-bit or other unnumbered base */
	}
	if (op->mem.index != X86_REG_INVALID && op->mem.index != X86_REG_RIZ &&
	    op->mem.index != X86_REG_EIZ) {
		unsigned d = dwarf(op->mem.index);
		if (d == MEMOP_NOREG) {
			a->why = MEMOP_VECTOR_INDEX;
			return;
		}
		a->index = (uint8_t)d;
		a->shift = op->mem.scale == 8 ? 3 : op->mem.scale == 4 ? 2 : op->mem.scale == 2;
	}
}

/* [rsp + disp], after which rsp == ea + post_off. */
static void stack(struct memop_access *a, int64_t disp, int64_t post_off, unsigned size)
{
	clear(a);
	a->valid = 1;
	a->base = RSP;
	a->disp = disp;
	a->size = (uint16_t)size;
	a->post_reg = RSP;
	a->post_off = post_off;
}

static const cs_x86_op *mem_operand(const cs_x86 *x, unsigned nth)
{
	for (unsigned i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_MEM && !nth--)
			return &x->operands[i];
	return NULL;
}

/* The string operand based on register dreg (rsi or rdi). */
static int string_access(const cs_insn *in, const struct insn *o, unsigned dreg,
			 struct memop_access *a)
{
	const cs_x86 *x = &in->detail->x86;
	for (unsigned k = 0; k < 2; k++) {
		const cs_x86_op *op = mem_operand(x, k);
		if (!op || dwarf(op->mem.base) != dreg)
			continue;
		describe(in, o, op, a);
		if (a->why == MEMOP_OK) {
			a->disp = 0;
			a->post_reg = (uint8_t)dreg;
			a->post_off = op->size;
			if (o->rep)
				a->why = MEMOP_REP;
		}
		return 1;
	}
	return 0;
}

static void string(const cs_insn *in, const struct insn *o, const char *name, struct memop *m)
{
	static const struct { const char *prefix; uint8_t ld, st; } t[] = {
		{ "movs", RSI, RDI }, { "cmps", RSI, MEMOP_NOREG }, { "lods", RSI, MEMOP_NOREG },
		{ "outs", RSI, MEMOP_NOREG }, { "scas", RDI, MEMOP_NOREG },
		{ "stos", MEMOP_NOREG, RDI }, { "ins", MEMOP_NOREG, RDI },
	};
	if (o->rep)
		m->flags |= MEMOP_F_REP;
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		if (strncmp(name, t[i].prefix, strlen(t[i].prefix)))
			continue;
		if (t[i].ld != MEMOP_NOREG)
			string_access(in, o, t[i].ld, &m->ld);
		if (t[i].st != MEMOP_NOREG)
			string_access(in, o, t[i].st, &m->st);
		return;
	}
}

/* push, pop, call, ret, leave, pushf, popf: 1 if handled. */
static int stack_op(const cs_insn *in, const struct insn *o, struct memop *m)
{
	const cs_x86 *x = &in->detail->x86;
	const cs_x86_op *mem = mem_operand(x, 0);
	unsigned size = x->op_count && x->operands[0].size ? x->operands[0].size : 8;

	switch (in->id) {
	case X86_INS_PUSH:
	case X86_INS_PUSHF:
	case X86_INS_PUSHFQ:
	case X86_INS_PUSHFD:
		stack(&m->st, -(int64_t)size, 0, size);
		if (mem)
			describe(in, o, mem, &m->ld);
		return 1;
	case X86_INS_CALL:
		stack(&m->st, -8, 0, 8);
		if (mem)
			describe(in, o, mem, &m->ld);
		return 1;
	case X86_INS_POP:
	case X86_INS_POPF:
	case X86_INS_POPFQ:
	case X86_INS_POPFD:
		stack(&m->ld, 0, size, size);
		if (x->op_count && x->operands[0].type == X86_OP_REG &&
		    dwarf(x->operands[0].reg) == RSP)
			m->ld.post_reg = MEMOP_NOREG;   /* pop %rsp: rsp is the loaded value */
		if (mem) {
			describe(in, o, mem, &m->st);
			if (m->st.base == RSP || m->st.index == RSP)
				m->st.why = MEMOP_FORM;   /* addressed with rsp already moved */
		}
		return 1;
	case X86_INS_RET:
		stack(&m->ld, 0, 8 + (x->op_count && x->operands[0].type == X86_OP_IMM ?
				      x->operands[0].imm : 0), 8);
		return 1;
	case X86_INS_LEAVE:
		/* rsp = rbp; rbp = pop: the load is at the old rbp, rsp ends 8 past it */
		clear(&m->ld);
		m->ld.valid = 1;
		m->ld.base = RBP;
		m->ld.size = 8;
		m->ld.post_reg = RSP;
		m->ld.post_off = 8;
		return 1;
	}
	return 0;
}

static int rmw(unsigned id)
{
	return id == X86_INS_XCHG || id == X86_INS_CMPXCHG || id == X86_INS_CMPXCHG8B ||
	       id == X86_INS_CMPXCHG16B || id == X86_INS_XADD;
}

void memop_x86_fill(csh h, const cs_insn *in, const struct insn *o, struct memop *m)
{
	const cs_x86 *x = &in->detail->x86;
	const cs_x86_op *mem = mem_operand(x, 0);
	uint8_t kinds = o->mem;

	clear(&m->ld);
	clear(&m->st);
	m->flags = 0;
	if (!kinds && !(mem && rmw(in->id)))
		return;
	if (stack_op(in, o, m))
		return;
	if (o->cls == IC_STRING) {
		string(in, o, cs_insn_name(h, in->id), m);
		return;
	}
	if (mem && rmw(in->id))
		kinds = INSN_MEM_LOAD | INSN_MEM_STORE;
	if (!mem) {
		/* xlat, enter and the like: an access with no operand to describe */
		if (kinds & INSN_MEM_LOAD)
			clear(&m->ld), m->ld.valid = 1, m->ld.why = MEMOP_FORM;
		if (kinds & INSN_MEM_STORE)
			clear(&m->st), m->st.valid = 1, m->st.why = MEMOP_FORM;
		return;
	}
	if (kinds & INSN_MEM_LOAD)
		describe(in, o, mem, &m->ld);
	if (kinds & INSN_MEM_STORE)
		describe(in, o, mem, &m->st);
}
