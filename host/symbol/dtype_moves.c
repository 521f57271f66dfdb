/* SPDX-License-Identifier: BSD-2-Clause */
/* Where the location lists are silent: the function holding the pc decoded (capstone,
 * through the project's instruction decoders for flow and registers written), and the
 * base register followed back through its basic block: register moves, constant adds,
 * address constants (x86 rip-relative lea and mov $imm, AArch64 adrp/adr and add), and
 * loads of a pointer from a place whose type is known (a member of a pointer variable's
 * pointee, a stack slot, a global). As in perf's data-type profiling, only code that
 * certainly ran before the pc is searched: back to a branch target (where control may
 * have come from elsewhere), through the fall-through of conditional branches. Targets of
 * indirect jumps are not known: a jump table into straight-line code is not seen. Also
 * the memory operand of one instruction. RISC-V is decoded by the project's own decoding
 * (insn_rv.c, dtype_rv.c), without capstone. */
#include <capstone/capstone.h>
#include <dwarf.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/insn_decode_internal.h"
#include "symbol/disasm.h"
#include "symbol/dtype_internal.h"
#include "symbol/rv_insn.h"

/* Functions larger than this are not decoded (the walk would be too costly per query). */
#define DT_MAX_FUNC (256u << 10)
/* A displacement at least this large, with a base register the locations do not name,
 * is taken for a global's address. */
#define DT_MIN_GLOBAL_DISP 0x10000
/* Instructions a register walk looks back over at most. */
#define DT_MAX_BACK 4096

/* insn.h's x86-64 numbering (hardware order) to DWARF's. */
static const int8_t x86_dwarf[16] = { 0, 2, 1, 3, 7, 6, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15 };

static int dwreg(int machine, unsigned insn_reg)
{
	if (machine == EM_X86_64)
		return insn_reg < 16 ? x86_dwarf[insn_reg] : -1;
	return insn_reg < 32 ? (int)insn_reg : -1;
}

static uint32_t regs_mask(int machine, const struct insn_regs *r)
{
	uint32_t m = 0;

	for (unsigned i = 0; i < 32; i++)
		if (insn_regs_has(r, i)) {
			int n = dwreg(machine, i);
			if (n >= 0)
				m |= 1u << n;
		}
	return m;
}

static int open_cs(struct dtype *d)
{
	char err[128];

	if (d->dis || d->machine == EM_RISCV)
		return 0;   /* RISC-V: the project's own decoding, no capstone */
	if (d->machine != EM_X86_64 && d->machine != EM_AARCH64)
		return -1;
	d->dis = disasm_open_detail(d->machine, err, sizeof(err));
	if (!d->dis)
		return -1;
	d->csh = disasm_handle(d->dis);
	return 0;
}

static bool x86_reg64(const cs_x86_op *op)
{
	return op->type == X86_OP_REG && op->size == 8;
}

/* Fill the walk's view of x86-64 instruction in. */
static void kind_x86(const cs_insn *in, const struct insn_facts *f, struct dt_ins *o)
{
	const cs_x86 *x = &in->detail->x86;
	const struct opnd_facts *s = &f->op[0], *t = &f->op[1];

	if (x->op_count != 2 || t->type != X86_OP_REG || t->reg == XREG_NONE)
		return;
	o->dst = (int8_t)dwreg(EM_X86_64, t->reg);
	switch (in->id) {
	case X86_INS_MOV:
	case X86_INS_MOVABS:
		if (s->type == X86_OP_REG && x86_reg64(&x->operands[0]) &&
		    x86_reg64(&x->operands[1]) && s->reg != XREG_NONE) {
			o->kind = DT_MOV;
			o->src = (int8_t)dwreg(EM_X86_64, s->reg);
		} else if (s->type == X86_OP_IMM) {
			o->kind = DT_ABS;
			o->imm = x->operands[1].size == 4 ? (int64_t)(uint32_t)s->imm : s->imm;
		} else if (s->type == X86_OP_MEM && x86_reg64(&x->operands[1]) &&
			   s->index == XREG_NONE && x->operands[0].mem.segment == X86_REG_INVALID) {
			if (s->base == XREG_RIP) {
				o->kind = DT_LOADABS;
				o->imm = (int64_t)(in->address + in->size + (uint64_t)s->imm);
			} else if (s->base == XREG_NONE) {
				o->kind = DT_LOADABS;
				o->imm = s->imm;
			} else {
				o->kind = DT_LOAD;
				o->src = (int8_t)dwreg(EM_X86_64, s->base);
				o->imm = s->imm;
			}
		}
		break;
	case X86_INS_LEA:
		if (s->type != X86_OP_MEM || !x86_reg64(&x->operands[1]))
			break;
		if (s->index != XREG_NONE) {
			/* base + index * scale + disp: an element of an array at base */
			if (s->base == XREG_NONE || s->base == XREG_RIP || s->base == s->index)
				break;
			o->indexed = 1;
		}
		if (s->base == XREG_RIP) {
			o->kind = DT_ABS;
			o->imm = (int64_t)(in->address + in->size + (uint64_t)s->imm);
		} else if (s->base != XREG_NONE) {
			o->kind = DT_LEA;
			o->src = (int8_t)dwreg(EM_X86_64, s->base);
			o->imm = s->imm;
		}
		break;
	case X86_INS_ADD:
	case X86_INS_SUB:
		if (s->type == X86_OP_IMM && x86_reg64(&x->operands[1])) {
			o->kind = DT_ADDI;
			o->src = o->dst;
			o->imm = in->id == X86_INS_ADD ? s->imm : dt_sub(0, s->imm);
		}
		break;
	}
}

static bool a64_xreg(unsigned reg)
{
	return (reg >= ARM64_REG_X0 && reg <= ARM64_REG_X28) || reg == ARM64_REG_X29 ||
	       reg == ARM64_REG_X30 || reg == ARM64_REG_SP;
}

static void kind_a64(const cs_insn *in, const struct insn_facts *f, struct dt_ins *o)
{
	const cs_arm64 *a = &in->detail->arm64;
	const struct opnd_facts *r0 = &f->op[0], *r1 = &f->op[1], *r2 = &f->op[2];

	if (a->op_count < 2 || r0->type != ARM64_OP_REG || r0->reg == XREG_NONE ||
	    !a64_xreg(a->operands[0].reg))
		return;
	o->dst = (int8_t)r0->reg;
	switch (in->id) {
	case ARM64_INS_MOV:
		if (a->op_count == 2 && r1->type == ARM64_OP_REG && r1->reg != XREG_NONE &&
		    a64_xreg(a->operands[1].reg)) {
			o->kind = DT_MOV;
			o->src = (int8_t)r1->reg;
		}
		break;
	case ARM64_INS_ADRP:
	case ARM64_INS_ADR:
		if (r1->type == ARM64_OP_IMM) {
			o->kind = DT_ABS;
			o->imm = r1->imm;
		}
		break;
	case ARM64_INS_ADD:
	case ARM64_INS_SUB:
		if (a->op_count == 3 && r1->type == ARM64_OP_REG && r1->reg != XREG_NONE &&
		    r2->type == ARM64_OP_IMM && r2->shift < 32) {
			int64_t v = (int64_t)((uint64_t)r2->imm << r2->shift);
			o->kind = DT_LEA;
			o->src = (int8_t)r1->reg;
			o->imm = in->id == ARM64_INS_ADD ? v : dt_sub(0, v);
		}
		break;
	case ARM64_INS_LDR:
		if (a->op_count == 2 && r1->type == ARM64_OP_MEM && r1->base != XREG_NONE &&
		    r1->index == XREG_NONE) {
			o->kind = DT_LOAD;
			o->src = (int8_t)r1->base;
			o->imm = r1->imm;
		} else if (a->op_count == 3 && a->writeback && r1->type == ARM64_OP_MEM &&
			   r1->base != XREG_NONE && r1->index == XREG_NONE) {
			/* post-index: loads from the base before the update */
			o->kind = DT_LOAD;
			o->src = (int8_t)r1->base;
			o->imm = 0;
		} else if (a->op_count == 2 && r1->type == ARM64_OP_IMM) {
			o->kind = DT_LOADABS;
			o->imm = r1->imm;
		}
		break;
	case ARM64_INS_LDP:
		/* two pointers from base + imm and base + imm + 8 (not post-index: the base
		 * it moves is not the one loaded from) */
		if (a->op_count == 3 && !a->writeback && r1->type == ARM64_OP_REG &&
		    r1->reg != XREG_NONE && a64_xreg(a->operands[1].reg) &&
		    a->operands[1].reg != ARM64_REG_SP && a->operands[0].reg != ARM64_REG_SP &&
		    r2->type == ARM64_OP_MEM && r2->base != XREG_NONE && r2->index == XREG_NONE &&
		    r2->base != r0->reg && r2->base != r1->reg) {
			o->kind = DT_LOAD;
			o->dst2 = (int8_t)r1->reg;
			o->src = (int8_t)r2->base;
			o->imm = r2->imm;
		}
		break;
	}
}

void dt_func_free(struct dt_func *f)
{
	free(f->ins);
	free(f->starts);
	memset(f, 0, sizeof(*f));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The registers a call may change: SysV x86-64, AAPCS64, the RISC-V psABI (ra, t0-t6,
 * a0-a7). */
static uint32_t call_clobbers(int machine)
{
	return machine == EM_X86_64 ? 0x0f37u : machine == EM_RISCV ? 0xf003fce2u : 0x4007ffffu;
}

/* The register a function returns its value in (DWARF number). */
static int return_reg(int machine)
{
	return machine == EM_RISCV ? 10 : 0;
}

/* The instruction at code[0..len) at addr into o: its size, with o->kind DT_BRANCH when
 * it could not be decoded (nothing is known across it). */
static size_t step(struct dtype *d, cs_insn *in, struct rv_auipc *prev, const uint8_t *code,
		   size_t len, uint64_t addr, struct dt_ins *o)
{
	struct insn ii;
	struct insn_facts facts;
	uint32_t w = 0;
	size_t size;

	memset(&ii, 0, sizeof(ii));
	if (d->machine == EM_RISCV) {
		size = insn_rv_fill(code, len, addr, prev, &ii);
		if (!size || !rv_fetch(code, len, &w) || !w || ii.cls == IC_OTHER) {
			o->kind = DT_BRANCH;
			return size ? size : 1;
		}
	} else {
		const uint8_t *p = code;
		uint64_t a = addr;
		if (!cs_disasm_iter((csh)d->csh, &p, &len, &a, in)) {
			o->kind = DT_BRANCH;
			return 1;
		}
		size = (size_t)(a - addr);
		if (!in->id) {
			o->kind = DT_BRANCH;
			return size;
		}
		if (d->machine == EM_X86_64)
			insn_x86_fill((csh)d->csh, in, &ii, &facts);
		else
			insn_a64_fill((csh)d->csh, in, &ii, &facts);
	}
	o->writes = regs_mask(d->machine, &ii.wr);
	switch (ii.flow) {
	case INSN_FLOW_COND:
		o->kind = DT_COND;
		o->target = ii.target;
		break;
	case INSN_FLOW_JUMP:
	case INSN_FLOW_INDIRECT:
	case INSN_FLOW_STOP:
		o->kind = DT_BRANCH;
		o->target = ii.target;
		break;
	case INSN_FLOW_RETURN:
		o->kind = DT_RET;
		break;
	case INSN_FLOW_CALL:
		o->kind = DT_CALL;
		o->target = ii.target;
		o->writes |= call_clobbers(d->machine);
		break;
	default:
		if (d->machine == EM_X86_64)
			kind_x86(in, &facts, o);
		else if (d->machine == EM_AARCH64)
			kind_a64(in, &facts, o);
		else
			dt_kind_rv(d, w, addr, o);
	}
	return size;
}

static int decode(struct dtype *d, const uint8_t *code, size_t len, uint64_t addr)
{
	cs_insn *in = d->machine == EM_RISCV ? NULL : cs_malloc((csh)d->csh);
	struct rv_auipc prev = { 0, 0 };
	struct dt_func *f = &d->fn;
	size_t cap = 0, scap = 0;
	int rc = -1;

	if (!in && d->machine != EM_RISCV)
		return -1;
	f->lo = addr;
	f->hi = addr + len;
	while (len) {
		struct dt_ins *o;
		size_t size;

		if (f->n == cap) {
			size_t nc = cap ? cap * 2 : 256;
			void *p = realloc(f->ins, nc * sizeof(*f->ins));
			if (!p)
				goto out;
			f->ins = p;
			cap = nc;
		}
		o = &f->ins[f->n++];
		memset(o, 0, sizeof(*o));
		o->addr = addr;
		o->dst = o->src = o->dst2 = -1;
		size = step(d, in, &prev, code, len, addr, o);
		if (size > len)
			size = len;
		o->size = (uint8_t)size;
		code += size;
		len -= size;
		addr += size;
		if ((o->kind == DT_BRANCH || o->kind == DT_COND) && o->target >= f->lo &&
		    o->target < f->hi) {
			if (f->nstarts == scap) {
				size_t nc = scap ? scap * 2 : 64;
				void *p = realloc(f->starts, nc * sizeof(*f->starts));
				if (!p)
					goto out;
				f->starts = p;
				scap = nc;
			}
			f->starts[f->nstarts++] = o->target;
		}
	}
	if (f->nstarts > 1)
		qsort(f->starts, f->nstarts, sizeof(*f->starts), cmp_u64);
	rc = 0;
out:
	if (in)
		cs_free(in, 1);
	return rc;
}

int dt_func_at(struct dtype *d, uint64_t pc)
{
	const struct sym_func *fn;
	uint8_t *code;
	int rc;

	if (d->fn.ins && pc >= d->fn.lo && pc < d->fn.hi)
		return 0;
	fn = sym_func_at(d->s, pc);
	if (!fn || !fn->size || fn->size > DT_MAX_FUNC || open_cs(d) < 0 ||
	    !symbolizer_in_file(d->s, fn->addr, fn->size))
		return -1;
	code = malloc(fn->size);
	if (!code)
		return -1;
	dt_func_free(&d->fn);
	rc = symbolizer_read(d->s, fn->addr, code, fn->size);
	if (rc == 0)
		rc = decode(d, code, fn->size, fn->addr);
	if (rc < 0)
		dt_func_free(&d->fn);
	free(code);
	return rc;
}

long dt_ins_index(const struct dtype *d, uint64_t pc)
{
	size_t lo = 0, hi = d->fn.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (d->fn.ins[mid].addr < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < d->fn.n && d->fn.ins[lo].addr == pc ? (long)lo : -1;
}

static bool is_start(const struct dt_func *f, uint64_t addr)
{
	return f->nstarts && bsearch(&addr, f->starts, f->nstarts, sizeof(*f->starts), cmp_u64);
}

size_t dt_block_start(const struct dtype *d, size_t i)
{
	const struct dt_func *f = &d->fn;

	for (; i > 0; i--) {
		if (is_start(f, f->ins[i].addr))
			return i;
		if (f->ins[i - 1].kind == DT_BRANCH || f->ins[i - 1].kind == DT_RET)
			return i;
	}
	return 0;
}

static bool found(const struct dtype_answer *a)
{
	return a->cls == DTYPE_OBJECT || a->cls == DTYPE_SCALARS;
}

/* The register moved at instruction j holds a pointer loaded from a place whose answer
 * and walk are inner: the access is k bytes into its pointee. */
static int through_load(struct dtype_answer *inner, struct dt_walk *iw, int reg, int64_t k,
			bool indexed, struct dtype_answer *out, struct dt_walk *walk,
			struct dt_budget *b)
{
	struct dt_found f = { .reg = reg, .how = DTYPE_VIA_MOVES, .indexed = indexed };
	Dwarf_Die t;
	uint64_t size = 0;

	if (!found(inner) || !iw->have_leaf || dwarf_tag(&iw->leaf) != DW_TAG_pointer_type ||
	    inner->member_off != inner->offset)
		return -1;
	if (dt_type_of(&iw->leaf, &t) < 0 || dt_strip(&t, &f.type, b) < 0 || k < 0) {
		memset(out, 0, sizeof(*out));
		out->cls = DTYPE_UNIDENTIFIED;
		out->how = DTYPE_VIA_MOVES;
		out->reg = reg;
		snprintf(out->var, sizeof(out->var), "%s", inner->var);
		return 0;
	}
	f.var = inner->var;
	f.offset = (uint64_t)k;
	if (dt_size(&f.type, &size, b) == 0 && size && f.offset >= size) {
		dt_append(f.prefix, sizeof(f.prefix), "%s[%llu].", inner->expr,
			  (unsigned long long)(f.offset / size));
		f.offset %= size;
	} else {
		dt_append(f.prefix, sizeof(f.prefix), "%s->", inner->expr);
	}
	dt_answer(&f, out, walk, b);
	if (dt_scalar(&f.type) && !f.offset) {
		out->expr[0] = 0;
		dt_append(out->expr, sizeof(out->expr), "*%s", inner->expr);
	}
	return 0;
}

/* The value returned by the function at target is a pointer: the access is k bytes into
 * its pointee. 0 answered, -1 not (no DWARF function there, or it returns no pointer). */
static int call_result(struct dtype *d, uint64_t target, int reg, int64_t k, bool indexed,
		       struct dtype_answer *out, struct dt_walk *walk, struct dt_budget *b)
{
	struct dt_found f = { .reg = reg, .how = DTYPE_VIA_MOVES, .indexed = indexed };
	Dwarf_Die fn, t;
	const char *name;
	uint64_t size = 0;

	if (dt_function_at(d, target, &fn) < 0 || dt_type_of(&fn, &t) < 0 ||
	    dt_strip(&t, &t, b) < 0 || dwarf_tag(&t) != DW_TAG_pointer_type)
		return -1;
	name = dt_die_name(&fn);
	f.var = name;
	if (dt_type_of(&t, &t) < 0 || dt_strip(&t, &f.type, b) < 0 || k < 0) {
		memset(out, 0, sizeof(*out));
		out->cls = DTYPE_UNIDENTIFIED;
		out->how = DTYPE_VIA_MOVES;
		out->reg = reg;
		snprintf(out->var, sizeof(out->var), "%s", name ? name : "");
		return 0;
	}
	f.offset = (uint64_t)k;
	if (dt_size(&f.type, &size, b) == 0 && size && f.offset >= size) {
		snprintf(f.prefix, sizeof(f.prefix), "%s()[%llu].", name ? name : "?",
			 (unsigned long long)(f.offset / size));
		f.offset %= size;
	} else {
		snprintf(f.prefix, sizeof(f.prefix), "%s()->", name ? name : "?");
	}
	dt_answer(&f, out, walk, b);
	return 0;
}

int dt_moves(struct dtype *d, size_t i, int reg, int64_t disp, bool indexed,
	     struct dtype_answer *out, struct dt_walk *walk, struct dt_budget *b)
{
	size_t start = dt_block_start(d, i);
	int r = reg;
	int64_t k = disp;
	unsigned moves = 0;

	if (i - start > DT_MAX_BACK)
		start = i - DT_MAX_BACK;
	for (size_t j = i; j-- > start;) {
		const struct dt_ins *in = &d->fn.ins[j];
		struct dtype_answer inner;
		struct dt_walk iw;

		if (!(in->writes >> r & 1))
			continue;
		if (!dt_spend(b) || ++moves > DTYPE_MAX_MOVES)
			break;
		if (in->kind == DT_CALL) {
			/* the return register: the called function's return type */
			if (r == return_reg(d->machine) && in->target &&
			    call_result(d, in->target, reg, k, indexed, out, walk, b) == 0)
				return 0;
			break;
		}
		if (in->dst != r && !(in->kind == DT_LOAD && in->dst2 == r && in->dst2 >= 0))
			break;
		switch (in->kind) {
		case DT_MOV:
		case DT_LEA:
		case DT_ADDI:
			if (in->src < 0)
				goto none;
			r = in->src;
			k = in->kind == DT_MOV ? k : dt_add(k, in->imm);
			indexed = indexed || in->indexed;
			if (dt_reg(d, in->addr, r, k, indexed, false, out, walk, b) < 0)
				return -1;
			if (found(out) || out->cls == DTYPE_UNIDENTIFIED) {
				if (out->how != DTYPE_VIA_GLOBAL)
					out->how = DTYPE_VIA_MOVES;
				out->reg = reg;
				return 0;
			}
			continue;
		case DT_ABS:
			if (dt_addr(d, (uint64_t)dt_add(in->imm, k), indexed, out, walk, b) < 0)
				return -1;
			out->reg = reg;
			return 0;
		case DT_LOAD:
			if (in->src < 0 || dt_reg(d, in->addr, in->src,
						  in->dst2 == r ? dt_add(in->imm, 8) : in->imm,
						  false, true, &inner, &iw, b) < 0)
				return -1;
			if (through_load(&inner, &iw, reg, k, indexed, out, walk, b) == 0)
				return 0;
			goto none;
		case DT_LOADABS:
			if (dt_addr(d, (uint64_t)in->imm, false, &inner, &iw, b) < 0)
				return -1;
			if (through_load(&inner, &iw, reg, k, indexed, out, walk, b) == 0)
				return 0;
			goto none;
		default:
			goto none;
		}
	}
none:
	memset(out, 0, sizeof(*out));
	out->reg = -1;
	out->cls = DTYPE_UNSPECIFIED;
	if (walk)
		walk->have_leaf = false;
	return 0;
}

/* RISC-V: the instruction's 4 bytes, or 2 at the end of what the file holds. */
static int insn_mem_rv(struct dtype *d, uint64_t pc, struct dtype_mem *mem)
{
	uint8_t code[4];
	size_t len = 4;
	uint32_t w;

	while (len && symbolizer_read(d->s, pc, code, len) < 0)
		len -= 2;
	if (!len || !rv_fetch(code, len, &w) || !w || dt_mem_rv(d, w, mem) < 0) {
		mem->base = mem->index = -1;
		return -1;
	}
	return 0;
}

int dtype_insn_mem(struct dtype *d, uint64_t pc, struct dtype_mem *mem)
{
	uint8_t code[16];
	size_t len = d->machine == EM_AARCH64 ? 4 : sizeof(code), n;
	const uint8_t *p = code;
	uint64_t addr = pc;
	cs_insn *in;
	struct insn ii;
	struct insn_facts facts;
	int rc = -1;

	memset(mem, 0, sizeof(*mem));
	mem->base = mem->index = -1;
	if (d->machine == EM_RISCV)
		return insn_mem_rv(d, pc, mem);
	if (open_cs(d) < 0)
		return -1;
	while (len && symbolizer_read(d->s, pc, code, len) < 0)
		len = d->machine == EM_AARCH64 ? 0 : len - 1;
	if (!len)
		return -1;
	in = cs_malloc((csh)d->csh);
	if (!in)
		return -1;
	n = len;
	if (!cs_disasm_iter((csh)d->csh, &p, &n, &addr, in) || !in->id)
		goto out;
	memset(&ii, 0, sizeof(ii));
	if (d->machine == EM_X86_64) {
		const cs_x86 *x = &in->detail->x86;
		insn_x86_fill((csh)d->csh, in, &ii, &facts);
		for (unsigned i = 0; i < x->op_count; i++) {
			const cs_x86_op *op = &x->operands[i];
			if (op->type != X86_OP_MEM || in->id == X86_INS_LEA || in->id == X86_INS_NOP)
				continue;
			mem->size = op->size;
			mem->disp = op->mem.disp;
			if (op->mem.segment != X86_REG_INVALID)
				break;   /* fs:/gs: relative: no fixed place */
			if (op->mem.base == X86_REG_RIP) {
				mem->absolute = 1;
				mem->addr = in->address + in->size + (uint64_t)op->mem.disp;
			} else {
				int bn = insn_x86_regnum(op->mem.base);
				int xn = insn_x86_regnum(op->mem.index);
				mem->base = bn >= 0 && bn < 16 ? x86_dwarf[bn] : -1;
				mem->index = xn >= 0 && xn < 16 ? x86_dwarf[xn] : -1;
				if (mem->base < 0 && mem->index < 0) {
					mem->absolute = 1;
					mem->addr = (uint64_t)op->mem.disp;
				}
			}
			rc = 0;
			break;
		}
	} else {
		const cs_arm64 *a = &in->detail->arm64;
		insn_a64_fill((csh)d->csh, in, &ii, &facts);
		for (unsigned i = 0; i < a->op_count && ii.mem; i++) {
			const cs_arm64_op *op = &a->operands[i];
			if (op->type == ARM64_OP_IMM && (in->id == ARM64_INS_LDR ||
							 in->id == ARM64_INS_LDRSW) && i == 1) {
				mem->absolute = 1;
				mem->addr = (uint64_t)op->imm;
				rc = 0;
				break;
			}
			if (op->type != ARM64_OP_MEM)
				continue;
			mem->base = insn_a64_regnum(op->mem.base);
			mem->index = insn_a64_regnum(op->mem.index);
			if (mem->base >= 32)
				mem->base = -1;
			if (mem->index >= 32)
				mem->index = -1;
			mem->disp = a->writeback && i + 1 < a->op_count &&
					    a->operands[i + 1].type == ARM64_OP_IMM ? 0 : op->mem.disp;
			rc = 0;
			break;
		}
	}
	mem->load = (ii.mem & INSN_MEM_LOAD) != 0;
	mem->store = (ii.mem & INSN_MEM_STORE) != 0;
	if (rc < 0)
		mem->base = mem->index = -1;
out:
	cs_free(in, 1);
	return rc;
}

int dtype_insn(struct dtype *d, uint64_t pc, struct dtype_answer *out)
{
	struct dtype_mem m;

	memset(out, 0, sizeof(*out));
	out->reg = -1;
	if (dtype_insn_mem(d, pc, &m) < 0) {
		out->cls = DTYPE_UNRESOLVABLE;
		return 0;
	}
	if (m.absolute)
		return dtype_addr(d, m.addr, out);
	if (m.base >= 0 && dtype_reg(d, pc, (unsigned)m.base, m.disp, m.index >= 0, out) < 0)
		return -1;
	/* a global's address as the displacement, plus a register as the index: arcs[i]
	 * (also in code without DWARF); with a base register too, only a displacement no
	 * structure offset is likely to be */
	if (m.base >= 0 && out->cls != DTYPE_UNSPECIFIED && out->cls != DTYPE_UNASCERTAINABLE)
		return 0;
	if (m.disp >= (m.base >= 0 ? DT_MIN_GLOBAL_DISP : 1) &&
	    dt_global_at(d, (uint64_t)m.disp)) {
		struct dt_budget b = { DTYPE_MAX_DEPTH * 4 };
		return dt_addr(d, (uint64_t)m.disp, true, out, NULL, &b);
	}
	memset(out, 0, sizeof(*out));
	out->reg = -1;
	out->cls = dt_pc_has_dwarf(d, pc) ? DTYPE_UNSPECIFIED : DTYPE_UNASCERTAINABLE;
	return 0;
}
