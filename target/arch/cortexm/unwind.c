/* SPDX-License-Identifier: BSD-2-Clause */
/* The Cortex-M call chain. GCC's Thumb-2 frame pointer (r7) does not point at a frame
 * record: the prologue pushes {..., r7, ..., lr} (other registers may sit between them, a
 * leaf may push r7 without lr), allocates the locals and then sets r7 = sp, so where the
 * saved r7 and lr are depends on each function's prologue. So each function's prologue is
 * read: the images are built with -funwind-tables (the .ARM.exidx table gives every
 * function's start; the linker marks code without one EXIDX_CANTUNWIND), -fno-shrink-wrap
 * (the whole prologue comes before the first branch) and -fno-omit-frame-pointer (r7 is
 * the frame's and nothing else's, so the frame is found from r7 even under alloca).
 *
 * From the function's start the instructions are simulated on a straight line: pushes, sp
 * and r7 adjustments and pops move sp and say where the caller's r7 and the return address
 * went; a plain branch (b, b.w) is followed. Reaching the pc that way gives its frame exactly (a pc in the prologue, or in a
 * function without branches). Else the pc is past the first branch: the frame there is
 * the body's, unless an epilogue has begun, which the code from the pc on tells: it is
 * simulated up to the return (pop {..., pc}, bx lr) if it gets there with no branch; a
 * branch first, with nothing changed on the way, means the body (GCC's epilogue has no
 * branch in it, though IT blocks: their conditional instructions are stepped over when
 * they leave sp, r7 and lr alone). Anything else (a write to sp, r7 or lr of another form
 * or under a condition, too long a scan) leaves the frame
 * unknown and the chain ends there, so it is short rather than wrong. Code is read only
 * inside e->code, stack words only inside e->stack or e->ram. */
#include "cm_unwind.h"

#define SCAN_MAX 256   /* instructions simulated at most, from the start or from the pc */

enum { OP_OTHER, OP_BRANCH, OP_B, OP_IT, OP_PUSH, OP_POP, OP_SP_ADD, OP_R7_SP, OP_SP_R7, OP_R7_ADD,
       OP_BX_LR, OP_UNKNOWN };

struct insn {
	uint8_t op, len;
	uint16_t mask;   /* OP_PUSH, OP_POP: registers r0..r15; OP_IT: its mask */
	int32_t imm;     /* OP_SP_ADD, OP_R7_SP, OP_R7_ADD; OP_B: the target less the pc */
};

static int read_half(const struct bmprof_unwind_env *e, uint64_t a, uint16_t *h)
{
	if ((a & 1) || !bmprof_in_range(&e->code, a, 2))
		return 0;
	*h = *(const volatile uint16_t *)(uintptr_t)a;
	return 1;
}

static uint32_t expand_imm(uint32_t v)   /* ThumbExpandImm */
{
	uint32_t b = v & 0xFF, rot;

	if (!(v >> 10)) {
		switch ((v >> 8) & 3) {
		case 0: return b;
		case 1: return b | b << 16;
		case 2: return b << 8 | b << 24;
		default: return b | b << 8 | b << 16 | b << 24;
		}
	}
	rot = v >> 7;
	b = 0x80 | (v & 0x7F);
	return b >> rot | b << (32 - rot);
}

static void decode16(uint16_t h, struct insn *in)
{
	unsigned rd = (h & 7) | ((h >> 4) & 8);

	in->len = 2;
	if ((h & 0xFE00) == 0xB400) {
		in->op = OP_PUSH;
		in->mask = (uint16_t)((h & 0xFF) | (h & 0x100 ? 1u << 14 : 0));
	} else if ((h & 0xFE00) == 0xBC00) {
		in->op = OP_POP;
		in->mask = (uint16_t)((h & 0xFF) | (h & 0x100 ? 1u << 15 : 0));
	} else if ((h & 0xFF00) == 0xB000) {
		in->op = OP_SP_ADD;
		in->imm = h & 0x80 ? -(int32_t)(h & 0x7F) * 4 : (int32_t)(h & 0x7F) * 4;
	} else if ((h & 0xFF00) == 0xAF00) {
		in->op = OP_R7_SP;
		in->imm = (int32_t)(h & 0xFF) * 4;
	} else if (h == 0x466F) {
		in->op = OP_R7_SP;
	} else if (h == 0x46BD) {
		in->op = OP_SP_R7;
	} else if ((h & 0xFF00) == 0x3700 || (h & 0xFF00) == 0x3F00) {
		in->op = OP_R7_ADD;
		in->imm = h & 0x0800 ? -(int32_t)(h & 0xFF) : (int32_t)(h & 0xFF);
	} else if (h == 0x4770) {
		in->op = OP_BX_LR;
	} else if ((h & 0xF800) == 0xE000) {
		in->op = OP_B;
		in->imm = 4 + ((int32_t)((uint32_t)(h & 0x7FF) << 21) >> 20);
	} else if ((h & 0xFF00) == 0xBF00 && (h & 0xF)) {
		in->op = OP_IT;
		in->mask = h & 0xF;
	} else if ((h & 0xFF00) == 0x4700 || (h & 0xF000) == 0xD000 || (h & 0xF500) == 0xB100) {
		in->op = OP_BRANCH;   /* bx, blx, b<c>, cbz, cbnz (udf, svc) */
	} else if (((h & 0xFF00) == 0x4400 || (h & 0xFF00) == 0x4600) &&
		   (rd == 7 || rd >= 13)) {
		in->op = OP_UNKNOWN;  /* add or mov to r7, sp, lr or pc */
	}
}

/* add/sub (immediate) T3/T4 on sp and r7 */
static void decode_addsub(uint16_t h1, uint16_t h2, struct insn *in)
{
	unsigned rn = h1 & 0xF, rd = (h2 >> 8) & 0xF;
	uint32_t v = ((h1 >> 10) & 1) << 11 | ((h2 >> 12) & 7) << 8 | (h2 & 0xFF);
	int wide = (h1 & 0xFB00) == 0xF200;
	int32_t imm = (int32_t)(wide ? v : expand_imm(v));

	if (h1 & 0x00A0)
		imm = -imm;   /* sub (T3 op 1101, T4 0xF2A0) */
	if (rd == 13 && rn == 13)
		in->op = OP_SP_ADD;
	else if (rd == 7 && rn == 13)
		in->op = OP_R7_SP;
	else if (rd == 7 && rn == 7)
		in->op = OP_R7_ADD;
	else if (rd == 7 || rd == 13 || rd == 14)
		in->op = OP_UNKNOWN;
	in->imm = imm;
}

static void decode32(uint16_t h1, uint16_t h2, struct insn *in)
{
	in->len = 4;
	if (h1 == 0xE92D) {
		in->op = OP_PUSH;          /* stmdb sp!, {...} */
		in->mask = h2;
	} else if (h1 == 0xE8BD) {
		in->op = OP_POP;           /* ldmia sp!, {...} */
		in->mask = h2;
	} else if (h1 == 0xF84D && (h2 & 0x0FFF) == 0x0D04) {
		in->op = OP_PUSH;          /* str rt, [sp, #-4]! */
		in->mask = (uint16_t)(1u << (h2 >> 12));
	} else if (h1 == 0xF85D && (h2 & 0x0FFF) == 0x0B04) {
		in->op = OP_POP;           /* ldr rt, [sp], #4 */
		in->mask = (uint16_t)(1u << (h2 >> 12));
	} else if ((h1 & 0xFFBF) == 0xED2D || (h1 & 0xFFBF) == 0xECBD) {
		in->op = OP_SP_ADD;        /* vpush, vpop */
		in->imm = (int32_t)(h2 & 0xFF) * 4;
		if (h1 & 0x0100)
			in->imm = -in->imm;
	} else if ((h1 & 0xFBE0) == 0xF100 || (h1 & 0xFBE0) == 0xF1A0 ||
		   (h1 & 0xFBF0) == 0xF200 || (h1 & 0xFBF0) == 0xF2A0) {
		if (!(h2 & 0x8000))
			decode_addsub(h1, h2, in);
		else
			in->op = OP_BRANCH;
	} else if ((h1 & 0xF800) == 0xF000 && (h2 & 0xD000) == 0x9000) {
		uint32_t sb = (h1 >> 10) & 1, i1 = !(((h2 >> 13) & 1) ^ sb),
			 i2 = !(((h2 >> 11) & 1) ^ sb);
		uint32_t v = sb << 24 | i1 << 23 | i2 << 22 | (h1 & 0x3FFu) << 12 | (h2 & 0x7FFu) << 1;
		in->op = OP_B;             /* b.w */
		in->imm = 4 + ((int32_t)(v << 7) >> 7);
	} else if ((h1 & 0xF800) == 0xF000 && (h2 & 0x8000)) {
		in->op = OP_BRANCH;        /* b, bl, and the system instructions */
	} else if ((h1 & 0xFFF0) == 0xE8D0 || ((h1 & 0xFE50) == 0xE810 && (h2 & 0x8000)) ||
		   ((h1 & 0xFF00) == 0xF800 && (h1 & 0x0010) && (h2 >> 12) == 15)) {
		in->op = OP_BRANCH;        /* tbb/tbh, ldm or ldr to pc */
	} else if ((h1 & 0xFE00) == 0xEA00 || (h1 & 0xF800) == 0xF000 ||
		   (h1 & 0xFF00) == 0xFA00) {
		/* data processing: a write to sp or r7 not seen above */
		unsigned rd = (h2 >> 8) & 0xF;
		if (rd == 7 || rd == 13)
			in->op = OP_UNKNOWN;
	}
}

/* An IT block's instructions are conditional: one may only be a branch (which ends a
 * scan as any branch does) or leave sp, r7 and lr alone. -1 otherwise; *it counts what is
 * left of the block. */
static int it_step(struct insn *in, unsigned *it)
{
	if (*it) {
		(*it)--;
		if (in->op == OP_B)
			in->op = OP_BRANCH;
		return in->op == OP_OTHER || in->op == OP_BRANCH ? 0 : -1;
	}
	if (in->op == OP_IT) {
		/* the mask's lowest set bit ends the block */
		*it = in->mask & 1 ? 4 : in->mask & 2 ? 3 : in->mask & 4 ? 2 : 1;
		in->op = OP_OTHER;
	}
	return 0;
}

static int fetch(const struct bmprof_unwind_env *e, uint64_t a, struct insn *in)
{
	uint16_t h1, h2;

	*in = (struct insn){ 0 };
	if (!read_half(e, a, &h1))
		return 0;
	if ((h1 >> 11) < 0x1D) {
		decode16(h1, in);
		return 1;
	}
	if (!read_half(e, a + 2, &h2))
		return 0;
	decode32(h1, h2, in);
	return 1;
}

/* From the function's start: sp = entry + sp_off; r7 holds the caller's (r7_set 0) or
 * entry + r7_off; the caller's r7 and the return address are in their registers (slot
 * 0) or at entry + slot. */
struct pro {
	int32_t sp_off, r7_off, r7_slot, ra_slot;
	int r7_set, lr_gone;
};

static int pro_pushpop(struct pro *s, const struct insn *in)
{
	unsigned n = 0, k = 0;
	int32_t base;

	for (unsigned m = in->mask; m; m &= m - 1)
		n++;
	base = in->op == OP_PUSH ? s->sp_off - 4 * (int32_t)n : s->sp_off;

	for (unsigned r = 0; r < 16; r++) {
		int32_t at = base + 4 * (int32_t)k;
		if (!(in->mask >> r & 1))
			continue;
		k++;
		if (in->op == OP_PUSH) {
			if (r == 7 && !s->r7_set && !s->r7_slot)
				s->r7_slot = at;
			if (r == 14 && !s->lr_gone && !s->ra_slot)
				s->ra_slot = at;
		} else if (r == 7) {
			if (at != s->r7_slot)
				return -1;
			s->r7_set = 0;
			s->r7_slot = 0;
		} else if (r == 14) {
			if (at != s->ra_slot)
				s->lr_gone = 1;
			s->ra_slot = 0;
		}
	}
	s->sp_off = in->op == OP_PUSH ? base : s->sp_off + 4 * (int32_t)n;
	return 0;
}

/* 1: the pc reached, 0: a branch first (the body's frame), -1: unknown */
static int prologue(const struct bmprof_unwind_env *e, uint64_t a, uint64_t pc, struct pro *s)
{
	struct insn in;
	unsigned it = 0;

	*s = (struct pro){ 0 };
	for (unsigned i = 0; i < SCAN_MAX; i++, a += in.len) {
		if (a == pc)
			return 1;
		if (!fetch(e, a, &in) || it_step(&in, &it))
			return -1;
		switch (in.op) {
		case OP_B: a += (uint64_t)(int64_t)in.imm - in.len; break;
		case OP_BRANCH: case OP_BX_LR: return 0;
		case OP_UNKNOWN: return -1;
		case OP_PUSH:
		case OP_POP:
			if (in.mask >> 15 & 1)
				return 0;
			if (in.mask >> 13 & 1 || pro_pushpop(s, &in))
				return -1;
			break;
		case OP_SP_ADD: s->sp_off += in.imm; break;
		case OP_R7_SP: s->r7_set = 1; s->r7_off = s->sp_off + in.imm; break;
		case OP_SP_R7:
			if (!s->r7_set)
				return -1;
			s->sp_off = s->r7_off;
			break;
		case OP_R7_ADD:
			if (!s->r7_set)
				return -1;
			s->r7_off += in.imm;
			break;
		}
	}
	return -1;
}

static int pro_frame(const struct pro *s, int at_pc, struct cm_frame *f)
{
	if (s->lr_gone && !s->ra_slot)
		return -1;
	if (at_pc || !s->r7_set) {
		f->cfa_base = CM_BASE_SP;
		f->cfa_off = -s->sp_off;
	} else {
		f->cfa_base = CM_BASE_R7;
		f->cfa_off = -s->r7_off;
	}
	f->ra_off = s->ra_slot ? s->ra_slot : CM_IN_REG;
	if (s->r7_slot)
		f->r7_off = s->r7_slot;
	else if (!s->r7_set)
		f->r7_off = CM_IN_REG;
	else
		return -1;
	return 0;
}

/* From the pc on: sp and r7 are base + off (CM_BASE_SP, CM_BASE_R7 at the pc; r7's base
 * 0 once loaded); a loaded r7 or lr came from its slot (sp_base-relative). */
struct epi {
	uint8_t sp_base, r7_base;
	int32_t sp_off, r7_off, r7_slot, lr_slot;
	int r7_loaded, lr_loaded, moved;
};

static int epi_pop(struct epi *s, const struct insn *in, struct cm_frame *f)
{
	int32_t at = s->sp_off, ra = 0;
	int ret = 0;

	for (unsigned r = 0; r < 16; r++) {
		if (!(in->mask >> r & 1))
			continue;
		if (r == 13)
			return -1;
		if (r == 7) {
			s->r7_loaded = 1;
			s->r7_slot = at;
		} else if (r == 14) {
			s->lr_loaded = 1;
			s->lr_slot = at;
		} else if (r == 15) {
			ra = at;
			ret = 1;
		}
		at += 4;
	}
	s->sp_off = at;
	s->moved = 1;
	if (!ret)
		return 0;
	f->ra_off = ra - at;
	return 1;
}

static int epi_end(const struct epi *s, struct cm_frame *f)
{
	f->cfa_base = s->sp_base;
	f->cfa_off = s->sp_off;
	if (s->r7_loaded)
		f->r7_off = s->r7_slot - s->sp_off;
	else if (s->r7_base == CM_BASE_R7 && !s->r7_off)
		f->r7_off = CM_IN_REG;
	else
		return -1;
	return 0;
}

/* 1: the return reached (*f), 0: a branch first with nothing moved (the body), -1 */
static int epilogue(const struct bmprof_unwind_env *e, uint64_t a, struct cm_frame *f)
{
	struct epi s = { .sp_base = CM_BASE_SP, .r7_base = CM_BASE_R7 };
	struct insn in;
	unsigned it = 0;
	int k;

	for (unsigned i = 0; i < SCAN_MAX; i++, a += in.len) {
		if (!fetch(e, a, &in) || it_step(&in, &it))
			return -1;
		switch (in.op) {
		case OP_B: a += (uint64_t)(int64_t)in.imm - in.len; break;
		case OP_BRANCH: return s.moved ? -1 : 0;
		case OP_UNKNOWN: case OP_PUSH: return -1;
		case OP_POP:
			k = epi_pop(&s, &in, f);
			if (k < 0)
				return -1;
			if (k)
				return epi_end(&s, f) ? -1 : 1;
			break;
		case OP_SP_ADD: s.sp_off += in.imm; s.moved = 1; break;
		case OP_R7_SP:
			s.r7_base = s.sp_base;
			s.r7_off = s.sp_off + in.imm;
			s.r7_loaded = 0;
			s.moved = 1;
			break;
		case OP_SP_R7:
			if (s.r7_loaded || s.lr_loaded)
				return -1;
			s.sp_base = s.r7_base;
			s.sp_off = s.r7_off;
			s.moved = 1;
			break;
		case OP_R7_ADD:
			if (s.r7_loaded)
				return -1;
			s.r7_off += in.imm;
			s.moved = 1;
			break;
		case OP_BX_LR:
			f->ra_off = s.lr_loaded ? s.lr_slot - s.sp_off : CM_IN_REG;
			return epi_end(&s, f) ? -1 : 1;
		}
	}
	return -1;
}

int cm_frame_at(const struct bmprof_unwind_env *e, uint64_t fn, uint64_t pc, int first,
		struct cm_frame *f)
{
	struct pro s;
	int k = prologue(e, fn, pc, &s);

	if (k < 0)
		return -1;
	if (k == 1)
		return first ? pro_frame(&s, 1, f) : -1;
	if (first) {
		k = epilogue(e, pc, f);
		if (k)
			return k > 0 ? 0 : -1;
	}
	if (pro_frame(&s, 0, f))
		return -1;
	/* a function that calls keeps no return address in lr */
	return !first && f->ra_off == CM_IN_REG ? -1 : 0;
}

static uint32_t prel31(const uint32_t *w)
{
	return (uint32_t)(uintptr_t)w + (uint32_t)((int32_t)(*w << 1) >> 1);
}

int cm_exidx_lookup(const uint32_t *tab, unsigned n, uint32_t pc, uint32_t *start)
{
	unsigned lo = 0, hi = n;

	if (!n || pc < prel31(tab))
		return -1;
	while (hi - lo > 1) {
		unsigned mid = lo + (hi - lo) / 2;
		if (prel31(tab + 2 * mid) <= pc)
			lo = mid;
		else
			hi = mid;
	}
	if (tab[2 * lo + 1] == 1)
		return -1;    /* EXIDX_CANTUNWIND */
	*start = prel31(tab + 2 * lo);
	return 0;
}

static int read_word(const struct bmprof_unwind_env *e, uint64_t a, uint32_t *v)
{
	if ((a & 3) || (!bmprof_in_range(&e->stack, a, 4) && !bmprof_in_range(&e->ram, a, 4)))
		return 0;
	*v = *(const volatile uint32_t *)(uintptr_t)a;
	return 1;
}

unsigned cm_unwind(const struct bmprof_unwind_env *e, const uint32_t *exidx, unsigned nexidx,
		   const struct bmprof_regs *r, uint64_t *out, unsigned max, int *more)
{
	uint32_t pc = (uint32_t)r->pc & ~1u, sp = (uint32_t)r->sp, r7 = (uint32_t)r->fp;
	uint32_t lr = (uint32_t)r->lr, fn, cfa, ra, next7;
	struct cm_frame f;
	unsigned n = 0;

	*more = 0;
	for (int first = 1;; first = 0) {
		/* a return address is just after its call: look up the call */
		if (cm_exidx_lookup(exidx, nexidx, first ? pc : pc - 2, &fn) ||
		    cm_frame_at(e, fn, pc, first, &f))
			break;
		cfa = (f.cfa_base == CM_BASE_SP ? sp : r7) + (uint32_t)f.cfa_off;
		if ((cfa & 3) || cfa < sp || (!first && cfa == sp))
			break;
		if (f.ra_off == CM_IN_REG)
			ra = lr;
		else if (!read_word(e, cfa + (uint32_t)f.ra_off, &ra))
			break;
		if (f.r7_off == CM_IN_REG)
			next7 = r7;
		else if (!read_word(e, cfa + (uint32_t)f.r7_off, &next7))
			break;
		/* a Thumb return address into the code */
		if (!(ra & 1) || !bmprof_in_range(&e->code, ra & ~1u, 2))
			break;
		if (n == max) {
			*more = 1;
			break;
		}
		out[n++] = ra & ~1u;
		pc = ra & ~1u;
		sp = cfa;
		r7 = next7;
	}
	return n;
}
