/* SPDX-License-Identifier: BSD-2-Clause */
/* One AArch64 instruction's memory access as an address expression (analysis/memop.h),
 * from capstone's details and the instruction record insn_a64_fill made: base register
 * plus immediate, or plus a register index extended (uxtw, sxtw) and shifted; pre-index
 * ([xn, #i]!: xn after == ea) and post-index ([xn], #i or [xn], xm: xn after == ea + i or
 * ea + xm) writeback; literal loads (the pc-relative address, resolved); pairs, exclusive,
 * acquire/release and atomic forms (the base only). The size is the data registers'
 * (both of a pair) or the mnemonic's (ldrb, ldrsh, ldrsw, ...). */
#include <string.h>

#include "decode/memop_decode.h"
#include "decode/insn_decode_internal.h"

static unsigned dwarf(unsigned capstone_reg)
{
	int n = insn_a64_regnum(capstone_reg);
	return n < 0 || n > 31 ? MEMOP_NOREG : (unsigned)n;
}

static void clear(struct memop_access *a)
{
	memset(a, 0, sizeof(*a));
	a->base = a->index = a->post_reg = a->post_index = MEMOP_NOREG;
}

static unsigned vas_bytes(int vas)
{
	switch (vas) {
	case ARM64_VAS_8B: case ARM64_VAS_4H: case ARM64_VAS_2S: case ARM64_VAS_1D:
		return 8;
	case ARM64_VAS_INVALID:
		return 0;
	default:
		return 16;
	}
}

static unsigned reg_bytes(const cs_arm64_op *op)
{
	unsigned r = op->reg;
	if (r >= ARM64_REG_W0 && r <= ARM64_REG_W30)
		return 4;
	if (r == ARM64_REG_WZR || r == ARM64_REG_WSP)
		return 4;
	if ((r >= ARM64_REG_X0 && r <= ARM64_REG_X28) || r == ARM64_REG_X29 ||
	    r == ARM64_REG_X30 || r == ARM64_REG_XZR || r == ARM64_REG_SP)
		return 8;
	if (r >= ARM64_REG_B0 && r <= ARM64_REG_B31)
		return 1;
	if (r >= ARM64_REG_H0 && r <= ARM64_REG_H31)
		return 2;
	if (r >= ARM64_REG_S0 && r <= ARM64_REG_S31)
		return 4;
	if (r >= ARM64_REG_D0 && r <= ARM64_REG_D31)
		return 8;
	if (r >= ARM64_REG_Q0 && r <= ARM64_REG_Q31)
		return 16;
	if (r >= ARM64_REG_V0 && r <= ARM64_REG_V31) {
		if (op->vector_index >= 0) {
			static const unsigned lane[] = { 0, 1, 2, 4, 8 };
			return op->vess < 5 ? lane[op->vess] : 0;
		}
		return vas_bytes(op->vas);
	}
	return 0;
}

static int ends(const char *m, const char *s)
{
	size_t n = strlen(m), k = strlen(s);
	return n >= k && !strcmp(m + n - k, s);
}

static int store_exclusive(const char *m)
{
	return !strncmp(m, "stxr", 4) || !strncmp(m, "stlxr", 5) || !strncmp(m, "stxp", 4) ||
	       !strncmp(m, "stlxp", 5);
}

/* Bytes of one element by the mnemonic, or 0 to go by the registers. */
static unsigned mnemonic_bytes(const char *m)
{
	if (m[0] != 'l' && m[0] != 's')
		return 0;
	if (ends(m, "sw") || !strcmp(m, "ldpsw"))
		return 4;
	if (ends(m, "b") || ends(m, "sb"))
		return 1;
	if (ends(m, "h") || ends(m, "sh"))
		return 2;
	return 0;
}

/* The data size: the registers the access transfers, by the mnemonic where it says. */
static unsigned data_size(const cs_arm64 *a, const char *m, unsigned mem_at, int atomic)
{
	unsigned each = mnemonic_bytes(m), total = 0, nregs = 0;
	for (unsigned i = 0; i < mem_at; i++) {
		if (a->operands[i].type != ARM64_OP_REG)
			continue;
		if (i == 0 && store_exclusive(m))
			continue;   /* the status register */
		if (atomic && nregs)
			break;      /* ldadd/swp/cas Rs, Rt: one element of Rs's size */
		nregs++;
		total += reg_bytes(&a->operands[i]);
	}
	if (each)
		return each * (nregs ? nregs : 1);
	return total;
}

/* ldr x0, label: the operand is the resolved address. */
static void literal(const cs_arm64 *a, const char *mn, struct memop_access *acc)
{
	const cs_arm64_op *lit = a->op_count ? &a->operands[a->op_count - 1] : NULL;
	if (lit && lit->type == ARM64_OP_IMM) {
		acc->disp = lit->imm;
		acc->size = (uint16_t)data_size(a, mn, a->op_count - 1, 0);
	} else {
		acc->why = MEMOP_FORM;
	}
}

/* [xn, #i]! leaves xn at the address; [xn], #i or [xn], xm leaves it past it. A loaded
 * register that is also the base holds data afterwards: no relation. */
static void writeback(const cs_arm64 *a, unsigned mem_at, int load, struct memop_access *acc)
{
	const cs_arm64_op *post = mem_at + 1 < a->op_count ? &a->operands[mem_at + 1] : NULL;
	acc->post_reg = acc->base;
	if (post && post->type == ARM64_OP_IMM) {
		acc->post_off = post->imm;
	} else if (post && post->type == ARM64_OP_REG) {
		acc->post_index = (uint8_t)dwarf(post->reg);
		if (acc->post_index == MEMOP_NOREG)
			acc->post_reg = MEMOP_NOREG;
	}
	for (unsigned i = 0; load && i < mem_at; i++)
		if (a->operands[i].type == ARM64_OP_REG && dwarf(a->operands[i].reg) == acc->base)
			acc->post_reg = MEMOP_NOREG;
}

/* [base, #imm], [base, index, extend #shift], with writeback. */
static void addressed(const cs_arm64 *a, const char *mn, unsigned mem_at, uint8_t mem,
		      struct memop_access *acc)
{
	const cs_arm64_op *op = &a->operands[mem_at];
	int atomic = mem == (INSN_MEM_LOAD | INSN_MEM_STORE);
	acc->size = (uint16_t)data_size(a, mn, mem_at, atomic);
	acc->base = (uint8_t)dwarf(op->mem.base);
	acc->disp = op->mem.disp;
	if (acc->base == MEMOP_NOREG)
		acc->why = MEMOP_FORM;
	if (op->mem.index != ARM64_REG_INVALID && op->mem.index != ARM64_REG_XZR &&
	    op->mem.index != ARM64_REG_WZR) {
		acc->index = (uint8_t)dwarf(op->mem.index);
		if (acc->index == MEMOP_NOREG)
			acc->why = MEMOP_FORM;
		acc->ext = op->ext == ARM64_EXT_UXTW ? MEMOP_EXT_UXTW :
			   op->ext == ARM64_EXT_SXTW ? MEMOP_EXT_SXTW : MEMOP_EXT_NONE;
		if (op->shift.type == ARM64_SFT_LSL)
			acc->shift = (uint8_t)op->shift.value;
	}
	if (a->writeback && acc->why == MEMOP_OK)
		writeback(a, mem_at, (mem & INSN_MEM_LOAD) != 0, acc);
}

void memop_a64_fill(csh h, const cs_insn *in, const struct insn *o, struct memop *m)
{
	const cs_arm64 *a = &in->detail->arm64;
	struct memop_access acc;
	unsigned mem_at = a->op_count;
	(void)h;

	clear(&m->ld);
	clear(&m->st);
	m->flags = 0;
	if (!o->mem)
		return;
	for (unsigned i = 0; i < a->op_count && mem_at == a->op_count; i++)
		if (a->operands[i].type == ARM64_OP_MEM)
			mem_at = i;
	clear(&acc);
	acc.valid = 1;
	if (mem_at == a->op_count)
		literal(a, in->mnemonic, &acc);
	else
		addressed(a, in->mnemonic, mem_at, o->mem, &acc);
	if (o->mem & INSN_MEM_LOAD)
		m->ld = acc;
	if (o->mem & INSN_MEM_STORE)
		m->st = acc;
}
