/* SPDX-License-Identifier: BSD-2-Clause */
/* RISC-V (RV64GC) memory accesses (memop_decode.h), from the instruction words of the
 * project's RISC-V decoding (symbol/rv_insn.h; compressed forms expanded there): every
 * access is base register + 12-bit displacement, with no index and no writeback. x0 as
 * the base makes the displacement the absolute address. */
#include "decode/memop_decode.h"
#include "symbol/rv_insn.h"

static void set_access(struct memop_access *a, unsigned base, int64_t disp, unsigned size)
{
	a->valid = 1;
	a->why = MEMOP_OK;
	a->base = base ? (uint8_t)base : MEMOP_NOREG;
	a->disp = disp;
	a->size = (uint16_t)size;
}

/* The bytes a floating-point load or store's width field names; 0: a vector access. */
static unsigned fp_size(unsigned f3)
{
	return f3 >= 1 && f3 <= 4 ? 1u << f3 : 0;
}

static void fp_access(struct memop_access *a, uint32_t w, int64_t disp)
{
	unsigned size = fp_size(RV_F3(w));

	set_access(a, RV_RS1(w), disp, size);
	if (!size)
		a->why = MEMOP_FORM;   /* vector loads and stores: strides, segments, masks */
}

int memop_rv_fill(uint32_t w, struct memop *m)
{
	unsigned f3 = RV_F3(w), f5 = RV_F7(w) >> 2;

	switch (RV_OP(w)) {
	case 0x03:                              /* lb lh lw ld lbu lhu lwu */
		if (f3 == 7)
			return -1;
		set_access(&m->ld, RV_RS1(w), rv_imm_i(w), 1u << (f3 & 3));
		return 0;
	case 0x23:                              /* sb sh sw sd */
		if (f3 > 3)
			return -1;
		set_access(&m->st, RV_RS1(w), rv_imm_s(w), 1u << f3);
		return 0;
	case 0x07:                              /* flh flw fld flq, vector loads */
		fp_access(&m->ld, w, rv_imm_i(w));
		return 0;
	case 0x27:                              /* fsh fsw fsd fsq, vector stores */
		fp_access(&m->st, w, rv_imm_s(w));
		return 0;
	case 0x2f:                              /* lr, sc, amo*: no displacement */
		if (f3 != 2 && f3 != 3)
			return -1;
		if (f5 != 0x03)
			set_access(&m->ld, RV_RS1(w), 0, f3 == 3 ? 8 : 4);
		if (f5 != 0x02)
			set_access(&m->st, RV_RS1(w), 0, f3 == 3 ? 8 : 4);
		return 0;
	}
	return 0;
}

void memop_rv_sweep(const uint8_t *code, size_t len, const struct insn_func *f,
		    struct memop *m)
{
	for (size_t i = 0; i < f->n; i++) {
		const struct insn *o = &f->insns[i];
		uint64_t off = o->addr - f->start;
		uint32_t w;

		if (off >= len || (o->size != 2 && o->size != 4) ||
		    rv_fetch(code + off, len - off, &w) != o->size || !w)
			continue;   /* stays MEMOP_F_UNDECODED */
		m[i].flags = 0;
		if (memop_rv_fill(w, &m[i]))
			m[i].flags = MEMOP_F_UNDECODED;
	}
}
