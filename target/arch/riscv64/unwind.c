/* SPDX-License-Identifier: BSD-2-Clause */
/* The RISC-V unwind's first step (the sampler's leaf_caller op). With frame pointers GCC
 * makes a frame `addi sp,sp,-N; sd ra,N-8(sp); sd s0,N-16(sp); addi s0,sp,N` (the stores in
 * either order, compressed or not), so the record { caller's s0, ra } is just below s0,
 * and takes it down with `ld ra; ld s0; addi sp,sp,N; ret`. A leaf saves s0 alone (at
 * s0-8, where a record has ra) and keeps its return address in ra, and the scheduler
 * moves the loads into the body: in a leaf s0 may be the caller's from early on.
 *
 * Where the pc is in such code cannot be told from the instruction there, so the code
 * ahead of it is read, on the path that falls through conditional branches and follows
 * plain jumps, until the function ends. A `ret` or a prologue instruction (of this
 * function, or of the one a tail call jumps to) ends it: s0 and ra then hold the caller's
 * values unless an `ld s0` or `ld ra` from the stack came first, whose slot holds them
 * instead. A call first means a body with its own frame record: the chain from s0 is
 * complete. Code that writes sp otherwise, jumps through a register, or goes on for too
 * long leaves it open: then a word at s0-8 that is a stack address above s0 is a leaf's
 * saved s0 (a record has a return address there), and otherwise ra is offered as a
 * candidate (BMPROF_STACKF_LR_MAYBE) when a call comes just before it. Instructions are
 * read only inside e->code, stack words only inside e->stack or e->ram. */
#include "bmprof.h"
#include "rv_unwind.h"

#define SCAN_MAX 128   /* instructions read ahead of the pc at most */
#define REG_RA 1
#define REG_SP 2
#define REG_S0 8

enum { OPEN, BODY, END };

struct insn {
	uint32_t i;
	unsigned len;
};

struct scan {
	uint64_t pc;
	int64_t sp_delta;            /* sp ahead, less sp at the pc */
	int64_t ra_slot, s0_slot;    /* from sp at the pc, where have_ra, have_s0 */
	int have_ra, have_s0;
};

static int read_half(const struct bmprof_unwind_env *e, uint64_t a, uint32_t *h)
{
	if ((a & 1) || !bmprof_in_range(&e->code, a, 2))
		return 0;
	*h = *(const volatile uint16_t *)(uintptr_t)a;
	return 1;
}

static int fetch(const struct bmprof_unwind_env *e, uint64_t pc, struct insn *in)
{
	uint32_t hi;

	if (!read_half(e, pc, &in->i))
		return 0;
	in->len = (in->i & 3) == 3 ? 4 : 2;
	if (in->len == 4) {
		if (!read_half(e, pc + 2, &hi))
			return 0;
		in->i |= hi << 16;
	}
	return 1;
}

static int read_stack(const struct bmprof_unwind_env *e, uint64_t a, uint64_t *v)
{
	if ((a & 7) || (!bmprof_in_range(&e->stack, a, 8) && !bmprof_in_range(&e->ram, a, 8)))
		return 0;
	*v = *(const volatile uint64_t *)(uintptr_t)a;
	return 1;
}

static unsigned bits(uint32_t i, unsigned lo, unsigned n) { return i >> lo & ((1u << n) - 1); }

static int64_t sext(uint32_t v, unsigned n) { return (int64_t)((uint64_t)v << (64 - n)) >> (64 - n); }

/* What one instruction does to the frame, as far as the scan needs it. */
enum kind {
	K_OTHER,       /* nothing that matters */
	K_PROLOGUE,    /* addi sp,sp,-N; sd ra|s0,X(sp); addi s0,sp,N */
	K_RET,
	K_SP_ADD,      /* addi sp,sp,+N: imm */
	K_LD_RA, K_LD_S0,   /* ld ra|s0,imm(sp) */
	K_CALL,
	K_JUMP,        /* jal x0: imm is the offset */
	K_OPEN,        /* jr through another register, or sp written otherwise */
};

struct op {
	enum kind k;
	int64_t imm;
};

static struct op addi_sp(int64_t imm)
{
	return (struct op){ imm < 0 ? K_PROLOGUE : K_SP_ADD, imm };
}

static struct op decode32(uint32_t i)
{
	unsigned opc = i & 0x7F, rd = bits(i, 7, 5), f3 = bits(i, 12, 3), rs1 = bits(i, 15, 5);
	int64_t imm_i = sext(i >> 20, 12);

	switch (opc) {
	case 0x13:   /* OP-IMM */
		if (f3 == 0 && rd == REG_SP && rs1 == REG_SP)
			return addi_sp(imm_i);
		if (f3 == 0 && rd == REG_S0 && rs1 == REG_SP)
			return (struct op){ K_PROLOGUE, 0 };
		break;
	case 0x23:   /* STORE */
		if (f3 == 3 && rs1 == REG_SP && (bits(i, 20, 5) == REG_RA || bits(i, 20, 5) == REG_S0))
			return (struct op){ K_PROLOGUE, 0 };
		return (struct op){ K_OTHER, 0 };
	case 0x03:   /* LOAD */
		if (f3 == 3 && rs1 == REG_SP && rd == REG_RA)
			return (struct op){ K_LD_RA, imm_i };
		if (f3 == 3 && rs1 == REG_SP && rd == REG_S0)
			return (struct op){ K_LD_S0, imm_i };
		break;
	case 0x67:   /* JALR */
		if (rd == REG_RA || rd == 5)
			return (struct op){ K_CALL, 0 };
		return (struct op){ rd == 0 && rs1 == REG_RA && imm_i == 0 ? K_RET : K_OPEN, 0 };
	case 0x6F: { /* JAL */
		int64_t off = sext(bits(i, 31, 1) << 20 | bits(i, 12, 8) << 12 | bits(i, 20, 1) << 11 |
				   bits(i, 21, 10) << 1, 21);
		if (rd == REG_RA || rd == 5)
			return (struct op){ K_CALL, 0 };
		return (struct op){ rd == 0 ? K_JUMP : K_OPEN, off };
	}
	case 0x63:   /* BRANCH */
	case 0x07:   /* LOAD-FP */
	case 0x27:   /* STORE-FP */
	case 0x0F:   /* MISC-MEM */
	case 0x43: case 0x47: case 0x4B: case 0x4F: case 0x53:   /* FP */
		return (struct op){ K_OTHER, 0 };
	}
	return (struct op){ rd == REG_SP ? K_OPEN : K_OTHER, 0 };
}

static struct op decode16(uint32_t h)
{
	unsigned q = h & 3, f3 = bits(h, 13, 3), rd = bits(h, 7, 5), rs2 = bits(h, 2, 5);
	int64_t imm6 = sext(bits(h, 12, 1) << 5 | bits(h, 2, 5), 6);

	if (q == 0) {
		if (f3 == 0 && bits(h, 2, 3) == 0 && bits(h, 5, 8))   /* c.addi4spn s0, sp, N */
			return (struct op){ K_PROLOGUE, 0 };
		return (struct op){ K_OTHER, 0 };
	}
	if (q == 1) {
		if (f3 == 0 && rd == REG_SP)                             /* c.addi sp, imm */
			return addi_sp(imm6);
		if (f3 == 3 && rd == REG_SP)                             /* c.addi16sp */
			return addi_sp(sext(bits(h, 12, 1) << 9 | bits(h, 3, 2) << 7 |
					    bits(h, 5, 1) << 6 | bits(h, 2, 1) << 5 |
					    bits(h, 6, 1) << 4, 10));
		if (f3 == 2 && rd == REG_SP)                             /* c.li sp */
			return (struct op){ K_OPEN, 0 };
		if (f3 == 5)                                             /* c.j */
			return (struct op){ K_JUMP,
					    sext(bits(h, 12, 1) << 11 | bits(h, 8, 1) << 10 |
						 bits(h, 9, 2) << 8 | bits(h, 6, 1) << 7 |
						 bits(h, 7, 1) << 6 | bits(h, 2, 1) << 5 |
						 bits(h, 11, 1) << 4 | bits(h, 3, 3) << 1, 12) };
		return (struct op){ K_OTHER, 0 };
	}
	/* quadrant 2 */
	if (f3 == 3 && (rd == REG_RA || rd == REG_S0))               /* c.ldsp */
		return (struct op){ rd == REG_RA ? K_LD_RA : K_LD_S0,
				    bits(h, 12, 1) << 5 | bits(h, 5, 2) << 3 | bits(h, 2, 3) << 6 };
	if (f3 == 7 && (rs2 == REG_RA || rs2 == REG_S0))             /* c.sdsp */
		return (struct op){ K_PROLOGUE, 0 };
	if (f3 == 4) {
		if (rs2 == 0 && rd) {                                    /* c.jr, c.jalr */
			if (bits(h, 12, 1))
				return (struct op){ K_CALL, 0 };
			return (struct op){ rd == REG_RA ? K_RET : K_OPEN, 0 };
		}
		if (rd == REG_SP)                                        /* c.mv, c.add sp */
			return (struct op){ K_OPEN, 0 };
	}
	if (f3 <= 3 && f3 != 1 && rd == REG_SP)                      /* c.slli, c.lwsp, c.ldsp sp */
		return (struct op){ K_OPEN, 0 };
	return (struct op){ K_OTHER, 0 };
}

static struct op decode(uint32_t insn, unsigned len)
{
	return len == 4 ? decode32(insn) : decode16(insn);
}

/* From s->pc to the function's end: END (the slots in s), BODY or OPEN. */
static int scan(const struct bmprof_unwind_env *e, struct scan *s)
{
	struct insn in;

	for (unsigned n = 0; n < SCAN_MAX; n++) {
		struct op o;
		if (!fetch(e, s->pc, &in))
			return OPEN;
		o = decode(in.i, in.len);
		switch (o.k) {
		case K_PROLOGUE:
		case K_RET:
			return END;
		case K_CALL:
			return BODY;
		case K_OPEN:
			return OPEN;
		case K_SP_ADD:
			s->sp_delta += o.imm;
			break;
		case K_LD_RA:
			if (!s->have_ra)
				s->ra_slot = s->sp_delta + o.imm;
			s->have_ra = 1;
			break;
		case K_LD_S0:
			if (!s->have_s0)
				s->s0_slot = s->sp_delta + o.imm;
			s->have_s0 = 1;
			break;
		case K_JUMP:
			s->pc += (uint64_t)o.imm;
			continue;
		case K_OTHER:
			break;
		}
		s->pc += in.len;
	}
	return OPEN;
}

/* ra returns from a call: a jal/jalr ra just before it, or a c.jalr. */
static int after_call(const struct bmprof_unwind_env *e, uint64_t ra)
{
	struct insn in;
	uint32_t h;

	if (fetch(e, ra - 4, &in) && in.len == 4 && decode(in.i, 4).k == K_CALL)
		return 1;
	return read_half(e, ra - 2, &h) && (h & 3) != 3 && decode(h, 2).k == K_CALL;
}

static int open_case(const struct bmprof_regs *r, const struct bmprof_unwind_env *e,
		     uint64_t *caller, uint64_t *fp)
{
	uint64_t w;

	if (r->fp && read_stack(e, r->fp - 8, &w) && w > r->fp && !(w & 7) &&
	    (bmprof_in_range(&e->stack, w, 0) || bmprof_in_range(&e->ram, w, 0))) {
		*fp = w;
		*caller = r->lr;
		return r->lr ? 1 : 0;
	}
	*caller = r->lr;
	return r->lr && after_call(e, r->lr) ? 2 : 0;
}

int rv_leaf_caller(const struct bmprof_regs *r, const struct bmprof_unwind_env *e,
		   uint64_t *caller, uint64_t *fp)
{
	struct scan s = { .pc = r->pc };

	switch (scan(e, &s)) {
	case BODY:
		return 0;
	case OPEN:
		return open_case(r, e, caller, fp);
	}
	*caller = r->lr;
	if (s.have_ra && !read_stack(e, r->sp + (uint64_t)s.ra_slot, caller))
		return 0;
	if (s.have_s0 && !read_stack(e, r->sp + (uint64_t)s.s0_slot, fp))
		return 0;
	return *caller ? 1 : 0;
}
