/* SPDX-License-Identifier: BSD-2-Clause */
/* A block's memory accesses for the harness (bhive_access.h), from the address
 * expressions host/decode/memop_*.c make of capstone's details. */
#include <capstone/capstone.h>
#include <string.h>

#include "bhive/bhive_access.h"
#include "decode/insn_decode_internal.h"
#include "decode/memop_decode.h"
#include "memop.h"

/* x86-64 register numbers as the harness saves them (insn.h order) */
static uint8_t harness_reg(unsigned dwarf)
{
	unsigned r = dwarf == MEMOP_NOREG ? MEMOP_NOREG :
		memop_insn_reg_of_dwarf(BMPROF_ARCH_X86_64, dwarf);
	return r < 16 ? (uint8_t)r : BHIVE_ACC_NOREG;
}

static int same_address(const struct memop_access *a, const struct memop_access *b)
{
	return a->base == b->base && a->index == b->index && a->shift == b->shift &&
	       a->disp == b->disp && a->addr32 == b->addr32 && a->why == b->why;
}

/* An fs: or gs: operand: memop does not describe it past the segment */
static int x86_segment(const cs_insn *in, struct bhive_in_access *d)
{
	const cs_x86 *x = &in->detail->x86;

	for (unsigned i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];
		if (op->type != X86_OP_MEM)
			continue;
		int b = op->mem.base == X86_REG_INVALID ? -2 : insn_x86_regnum(op->mem.base);
		int k = op->mem.index == X86_REG_INVALID ? -2 : insn_x86_regnum(op->mem.index);
		if (b == -1 || k == -1 || b >= 16 || k >= 16 || op->mem.disp != (int32_t)op->mem.disp)
			return 0;
		d->flags = op->mem.segment == X86_REG_FS ? BHIVE_ACC_FS : BHIVE_ACC_GS;
		d->flags |= x->addr_size == 4 ? BHIVE_ACC_ADDR32 : 0;
		d->base = b < 0 ? BHIVE_ACC_NOREG : (uint8_t)b;
		d->index = k < 0 ? BHIVE_ACC_NOREG : (uint8_t)k;
		d->shift = op->mem.scale == 8 ? 3 : op->mem.scale == 4 ? 2 : op->mem.scale == 2;
		d->disp = (int32_t)op->mem.disp;
		return 1;
	}
	return 0;
}

/* x86-64 instructions whose access is not the one memop describes: cmps reads at rsi and
 * rdi; bt, bts, btr, btc with a register bit offset reach past their operand */
static int x86_other_address(const cs_insn *in)
{
	switch (in->id) {
	case X86_INS_CMPSB: case X86_INS_CMPSW: case X86_INS_CMPSD: case X86_INS_CMPSQ:
	case X86_INS_BT: case X86_INS_BTS: case X86_INS_BTR: case X86_INS_BTC:
		return 1;
	default:
		return 0;
	}
}

/* The instruction's one access into d: 1, or 0 when it has none, it is not one address,
 * or it is larger than a line (fxsave, xsave: not one access the line rule applies to) */
static int describe(int a64, csh h, const cs_insn *in, const struct insn *o,
		    struct bhive_in_access *d)
{
	struct memop m;
	const struct memop_access *a;

	if (!a64 && x86_other_address(in))
		return 0;
	if (a64)
		memop_a64_fill(h, in, o, &m);
	else
		memop_x86_fill(h, in, o, &m);
	if (m.ld.valid && m.st.valid && !same_address(&m.ld, &m.st))
		return 0;
	a = m.ld.valid ? &m.ld : &m.st;
	if (!a->valid || !a->size || a->size > BHIVE_LINE || (m.flags & MEMOP_F_REP))
		return 0;
	memset(d, 0, sizeof *d);
	d->at = (uint16_t)o->addr;
	d->len = o->size;
	d->size = a->size;
	d->base = d->index = BHIVE_ACC_NOREG;
	if (a64)
		return 1;   /* the harness has the address from FAR_EL1 */
	if (a->why == MEMOP_SEGMENT)
		return x86_segment(in, d);
	if (a->why != MEMOP_OK || a->disp != (int32_t)a->disp)
		return 0;
	d->disp = (int32_t)a->disp;
	if (a->base == MEMOP_NOREG && a->index == MEMOP_NOREG) {
		/* rip-relative (resolved from address 0: end + disp32) or absolute */
		const cs_x86 *x = &in->detail->x86;
		for (unsigned i = 0; i < x->op_count; i++)
			if (x->operands[i].type == X86_OP_MEM &&
			    x->operands[i].mem.base == X86_REG_RIP)
				d->flags = BHIVE_ACC_RIP;
	}
	d->base = harness_reg(a->base);
	d->index = harness_reg(a->index);
	if ((a->base != MEMOP_NOREG && d->base == BHIVE_ACC_NOREG) ||
	    (a->index != MEMOP_NOREG && d->index == BHIVE_ACC_NOREG))
		return 0;
	d->shift = a->shift;
	d->flags |= a->addr32 ? BHIVE_ACC_ADDR32 : 0;
	return 1;
}

unsigned bhive_accesses(int a64, const uint8_t *code, size_t len, struct bhive_in_access *out,
			unsigned max)
{
	const uint8_t *p = code;
	uint64_t addr = 0;
	size_t left = len;
	unsigned n = 0;
	cs_insn *in;
	csh h;

	if (cs_open(a64 ? CS_ARCH_ARM64 : CS_ARCH_X86, a64 ? CS_MODE_ARM : CS_MODE_64, &h) !=
	    CS_ERR_OK)
		return 0;
	cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
	in = cs_malloc(h);
	while (left && n < max) {
		struct insn o;
		struct insn_facts f;
		const uint8_t *at = p;
		memset(&o, 0, sizeof o);
		o.addr = (uint64_t)(p - code);
		if (!cs_disasm_iter(h, &p, &left, &addr, in)) {
			if (!a64 || left < 4)
				break;
			p = at + 4, left -= 4, addr += 4;   /* an A64 word capstone does not know */
			continue;
		}
		o.size = (uint8_t)in->size;
		if (a64)
			insn_a64_fill(h, in, &o, &f);
		else
			insn_x86_fill(h, in, &o, &f);
		if (describe(a64, h, in, &o, &out[n]))
			n++;
	}
	cs_free(in, 1);
	cs_close(&h);
	return n;
}

int bhive_accesses_fixed(const uint8_t *code, size_t len, const struct bhive_in_access *acc,
			 unsigned n)
{
	struct insn_regs wr = { { 0, 0 } };
	const uint8_t *p = code;
	uint64_t addr = 0;
	size_t left = len;
	int fixed = 1;
	cs_insn *in;
	csh h;

	if (cs_open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK)
		return 0;
	cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
	in = cs_malloc(h);
	while (left) {
		struct insn o;
		struct insn_facts f;
		memset(&o, 0, sizeof o);
		o.addr = (uint64_t)(p - code);
		if (!cs_disasm_iter(h, &p, &left, &addr, in)) {
			fixed = 0;
			break;
		}
		o.size = (uint8_t)in->size;
		insn_x86_fill(h, in, &o, &f);
		wr.w[0] |= o.wr.w[0];
		wr.w[1] |= o.wr.w[1];
	}
	cs_free(in, 1);
	cs_close(&h);
	for (unsigned i = 0; i < n && fixed; i++)
		if ((acc[i].base < 16 && insn_regs_has(&wr, acc[i].base)) ||
		    (acc[i].index < 16 && insn_regs_has(&wr, acc[i].index)))
			fixed = 0;
	return fixed;
}

const struct bhive_in_access *bhive_access_at(const struct bhive_in_access *acc, unsigned n,
					      long offset)
{
	for (unsigned i = 0; i < n; i++)
		if (acc[i].at == offset)
			return &acc[i];
	return NULL;
}
