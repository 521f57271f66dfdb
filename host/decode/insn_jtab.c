/* SPDX-License-Identifier: BSD-2-Clause */
/* Jump tables as gcc -O2 emits them for a switch (x86-64 here, AArch64 below), recovered
 * by walking back from the indirect jump through the straight-line code before it:
 *
 *   non-PIE:  cmp $N,%eax; ja default; ...; jmp *table(,%rax,8)       8-byte addresses
 *             (or mov table(,%rax,8),%rax; jmp *%rax)
 *   PIE:      cmp $N,%eax; ja default; ...; lea table(%rip),%rdx;
 *             movslq (%rdx,%rax,4),%rax; add %rdx,%rax; jmp *%rax    4-byte offsets from
 *                                                                     the table
 *
 * The table register of the PIE form may be set before a loop around the switch: then the
 * nearest lea before it in address order counts. The entry count comes from the bound
 * check on the index register (ja/jbe: N + 1 entries, jae/jb: N), following copies of the
 * index back to it. A table whose bound is not found, or with an entry outside the
 * procedure or not at an instruction start, is not recovered. */
#include <stdlib.h>
#include <string.h>

#include "decode/insn_decode_internal.h"

#define WINDOW 32            /* instructions walked back from the jump */
#define MAX_ENTRIES 4096

/* Ends straight-line code when walking backwards: control does not fall out of it. */
static int barrier(const struct insn *in)
{
	return in->flow == INSN_FLOW_JUMP || in->flow == INSN_FLOW_INDIRECT ||
	       in->flow == INSN_FLOW_RETURN || in->flow == INSN_FLOW_STOP;
}

/* Where straight-line code starting at instruction i is entered by a branch, when fall
 * through from the instruction before is impossible (a "b.ls" around "mov; ret" to the
 * switch): the nearest branch before i to it; -1 if none. */
static long entered_from(const struct jtab_index *ix, size_t i)
{
	return ix->entered[i];
}

/* The nearest instruction before k writing reg, in the same straight-line code; -1. */
static long writer(const struct insn *insns, size_t k, unsigned reg)
{
	for (size_t i = k, left = WINDOW; i-- > 0 && left--;) {
		if (barrier(&insns[i]))
			return -1;
		if (insn_regs_has(&insns[i].wr, reg))
			return (long)i;
	}
	return -1;
}

static int is_reg(const struct opnd_facts *o, unsigned reg)
{
	return o->type == X86_OP_REG && o->reg == reg;
}

static int same_mem(const struct opnd_facts *a, const struct opnd_facts *b)
{
	return a->type == X86_OP_MEM && b->type == X86_OP_MEM && a->base == b->base &&
	       a->index == b->index && a->scale == b->scale && a->imm == b->imm;
}

/* Entries of the table indexed by register idx at instruction k: from the
 * "cmp $N,idx; ja/jae/jbe/jb" before it, following copies of the index, also one loaded
 * from memory that the cmp checked ("cmpb $N,M; ja; movzbl M,%eax"). 0 if not found. */
static size_t bound(const struct insn *insns, const struct insn_facts *xf,
		    const struct jtab_index *ix, size_t k, unsigned idx)
{
	const struct opnd_facts *mem = NULL;   /* the index's memory source, once seen */

	for (size_t i = k, left = WINDOW; i-- > 0 && left--;) {
		const struct insn_facts *x = &xf[i];
		unsigned id = x->id;
		if (insns[i].flow == INSN_FLOW_COND && i > 0 &&
		    (id == X86_INS_JA || id == X86_INS_JAE || id == X86_INS_JBE || id == X86_INS_JB)) {
			const struct insn_facts *c = &xf[i - 1];
			if (c->id == X86_INS_CMP && c->nops == 2 && c->op[0].type == X86_OP_IMM &&
			    (mem ? same_mem(&c->op[1], mem) : is_reg(&c->op[1], idx))) {
				int64_t n = c->op[0].imm;
				if (n < 0 || n >= MAX_ENTRIES)
					return 0;
				return (size_t)n + (id == X86_INS_JA || id == X86_INS_JBE);
			}
		}
		if (barrier(&insns[i])) {
			long p = entered_from(ix, i + 1);
			if (p < 0)
				return 0;
			i = (size_t)p + 1;
			continue;
		}
		if (mem) {
			/* the memory's address registers must hold still, and no store may
			 * change it in between */
			if ((mem->base < XREG_RIP && insn_regs_has(&insns[i].wr, mem->base)) ||
			    (mem->index < XREG_RIP && insn_regs_has(&insns[i].wr, mem->index)) ||
			    (insns[i].mem & INSN_MEM_STORE))
				return 0;
			continue;
		}
		if (insn_regs_has(&insns[i].wr, idx)) {
			/* a copy (mov %edi,%eax; movl %eax,%eax) moves the search to its source */
			int copy = (id == X86_INS_MOV || id == X86_INS_MOVSXD || id == X86_INS_MOVZX) &&
				   x->nops == 2 && is_reg(&x->op[1], idx);
			if (copy && x->op[0].type == X86_OP_REG && x->op[0].reg != XREG_NONE) {
				idx = x->op[0].reg;
				continue;
			}
			if (copy && x->op[0].type == X86_OP_MEM) {
				mem = &x->op[0];
				continue;
			}
			return 0;
		}
	}
	return 0;
}

/* Whether the code from instruction i, without a branch, reaches a return, a stop or a
 * jump out of the procedure (a tail call): what it writes then reaches no other code of
 * the procedure (an epilogue's pop). For every i at once, into lv. */
static void leaves(const struct insn *insns, size_t n, uint8_t *lv)
{
	uint64_t lo = insns[0].addr, hi = insns[n - 1].addr + insns[n - 1].size;

	for (size_t i = n; i-- > 0;) {
		const struct insn *b = &insns[i];

		if (b->flow == INSN_FLOW_NEXT || b->flow == INSN_FLOW_CALL)
			lv[i] = i + 1 < n ? lv[i + 1] : 0;
		else
			lv[i] = b->flow == INSN_FLOW_RETURN || b->flow == INSN_FLOW_STOP ||
				(b->flow == INSN_FLOW_JUMP && (b->target < lo || b->target >= hi));
	}
}

int insn_jtab_index(struct jtab_index *ix, const struct insn *insns, size_t n)
{
	uint8_t *lv = malloc(n ? n : 1);
	size_t at[JTAB_GPRS] = { 0 };

	memset(ix, 0, sizeof(*ix));
	ix->entered = malloc((n ? n : 1) * sizeof(*ix->entered));
	if (!lv || !ix->entered)
		goto oom;
	for (size_t i = 0; i < n; i++)
		ix->entered[i] = -1;
	for (size_t p = 0; p < n; p++) {
		long k;
		if ((insns[p].flow == INSN_FLOW_COND || insns[p].flow == INSN_FLOW_JUMP) &&
		    (k = insn_find(insns, n, insns[p].target)) > (long)p)
			ix->entered[k] = (int32_t)p;
	}
	if (n)
		leaves(insns, n, lv);
	for (size_t i = 0; i < n; i++)
		for (unsigned r = 0; r < JTAB_GPRS; r++)
			ix->nwr[r] += !lv[i] && insn_regs_has(&insns[i].wr, r);
	for (unsigned r = 0; r < JTAB_GPRS; r++)
		if (ix->nwr[r] && !(ix->wr[r] = malloc(ix->nwr[r] * sizeof(*ix->wr[r]))))
			goto oom;
	for (size_t i = 0; i < n; i++)
		for (unsigned r = 0; r < JTAB_GPRS; r++)
			if (!lv[i] && insn_regs_has(&insns[i].wr, r))
				ix->wr[r][at[r]++] = (uint32_t)i;
	free(lv);
	return 0;
oom:
	free(lv);
	insn_jtab_index_free(ix);
	return -1;
}

void insn_jtab_index_free(struct jtab_index *ix)
{
	free(ix->entered);
	for (unsigned r = 0; r < JTAB_GPRS; r++)
		free(ix->wr[r]);
	memset(ix, 0, sizeof(*ix));
}

/* The nearest instruction before k writing general register b whose value does not just
 * leave the procedure, or -1. */
static long kept_writer(const struct jtab_index *ix, size_t k, unsigned b)
{
	size_t lo = 0, hi = b < JTAB_GPRS ? ix->nwr[b] : 0;

	while (lo < hi) {   /* the first one at k or after */
		size_t mid = lo + (hi - lo) / 2;
		if (ix->wr[b][mid] < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? (long)ix->wr[b][lo - 1] : -1;
}

/* The table address a register holds at instruction k: set by "lea table(%rip),%b" in the
 * straight-line code before k or, hoisted out of the loop around it, the nearest writer
 * of b before k in address order whose value does not just leave the procedure. 0 if
 * that is not such a lea. */
static uint64_t table_base(const struct insn *insns, const struct insn_facts *xf,
			   const struct jtab_index *ix, size_t k, unsigned b, long *at)
{
	long w = writer(insns, k, b);
	if (w < 0)
		w = kept_writer(ix, k, b);
	*at = w;
	if (w < 0)
		return 0;
	const struct insn_facts *lea = &xf[w];
	if (lea->id != X86_INS_LEA || lea->nops != 2 || lea->op[0].type != X86_OP_MEM ||
	    lea->op[0].base != XREG_RIP || lea->op[0].index != XREG_NONE || !is_reg(&lea->op[1], b))
		return 0;
	return insns[w].addr + insns[w].size + (uint64_t)lea->op[0].imm;
}

static int insn_start(const struct insn *insns, size_t n, uint64_t addr)
{
	return insn_find(insns, n, addr) >= 0;
}

/* t[0..nt) with target added unless already there; the new count. */
static size_t add_target(uint64_t *t, size_t nt, uint64_t target)
{
	for (size_t d = 0; d < nt; d++)
		if (t[d] == target)
			return nt;
	t[nt] = target;
	return nt + 1;
}

int insn_x86_jump_table(const struct insn *insns, const struct insn_facts *xf, size_t n,
			const struct jtab_index *ix, size_t j, uint64_t lo, uint64_t hi,
			insn_read_fn read, void *ctx, uint64_t **targets, size_t *ntargets)
{
	const struct opnd_facts *op = &xf[j].op[0];
	uint64_t table;
	unsigned esize, idx;
	size_t from;

	*targets = NULL;
	*ntargets = 0;
	if (!read || xf[j].nops != 1)
		return -1;
	if (op->type == X86_OP_MEM && op->base == XREG_NONE && op->index < XREG_RIP &&
	    op->scale == 8) {
		table = (uint64_t)op->imm;
		esize = 8;
		idx = op->index;
		from = j;
	} else if (op->type == X86_OP_REG && op->reg != XREG_NONE) {
		unsigned r = op->reg;
		long k = writer(insns, j, r);
		if (k < 0)
			return -1;
		const struct insn_facts *x = &xf[k];
		if (x->id == X86_INS_MOV && x->nops == 2 && x->op[0].type == X86_OP_MEM &&
		    x->op[0].base == XREG_NONE && x->op[0].index < XREG_RIP && x->op[0].scale == 8 &&
		    is_reg(&x->op[1], r)) {
			table = (uint64_t)x->op[0].imm;
			esize = 8;
			idx = x->op[0].index;
			from = (size_t)k;
		} else if (x->id == X86_INS_ADD && x->nops == 2 && x->op[0].type == X86_OP_REG &&
			   x->op[0].reg != XREG_NONE && is_reg(&x->op[1], r)) {
			unsigned b = x->op[0].reg;
			long m = writer(insns, (size_t)k, r);
			if (m < 0)
				return -1;
			const struct insn_facts *ld = &xf[m];
			if (ld->id != X86_INS_MOVSXD || ld->nops != 2 || ld->op[0].type != X86_OP_MEM ||
			    ld->op[0].base != b || ld->op[0].index >= XREG_RIP || ld->op[0].scale != 4 ||
			    ld->op[0].imm != 0 || !is_reg(&ld->op[1], r))
				return -1;
			long w;
			table = table_base(insns, xf, ix, (size_t)k, b, &w);
			if (!table || w > m)
				return -1;
			esize = 4;
			idx = ld->op[0].index;
			from = (size_t)m;
		} else {
			return -1;
		}
	} else {
		return -1;
	}

	size_t count = bound(insns, xf, ix, from, idx);
	if (!count)
		return -1;
	uint64_t *t = malloc(count * sizeof(*t));
	if (!t)
		return -1;
	size_t nt = 0;
	for (size_t i = 0; i < count; i++) {
		uint64_t target;
		if (esize == 8) {
			uint64_t e;
			if (read(ctx, table + 8 * i, &e, 8))
				goto fail;
			target = e;
		} else {
			int32_t e;
			if (read(ctx, table + 4 * i, &e, 4))
				goto fail;
			target = table + (uint64_t)(int64_t)e;
		}
		if (target < lo || target >= hi || !insn_start(insns, n, target))
			goto fail;
		nt = add_target(t, nt, target);
	}
	*targets = t;
	*ntargets = nt;
	return 0;
fail:
	free(t);
	return -1;
}

int insn_x86_tail_call(const struct insn *insns, const struct insn_facts *xf, size_t j)
{
	const struct opnd_facts *op = &xf[j].op[0];
	if (xf[j].nops == 1 && op->type == X86_OP_MEM && op->base == XREG_RIP &&
	    op->index == XREG_NONE)
		return 1;
	if (!j || barrier(&insns[j - 1]))
		return 0;
	const struct insn_facts *p = &xf[j - 1];
	return p->id == X86_INS_LEAVE || p->id == X86_INS_POP ||
	       (p->id == X86_INS_ADD && p->nops == 2 && p->op[0].type == X86_OP_IMM &&
		is_reg(&p->op[1], 4));
}

/* ---- AArch64 ----
 *
 *   cmp  w2, #N; b.hi default (or b.ls to the switch)
 *   adrp x1, table; add x1, x1, :lo12:table
 *   ldrb w1, [x1, w2, uxtw]          (ldrh ..., uxtw #1; ldr w1, ..., uxtw #2)
 *   adr  x2, base; add x1, x2, w1, sxtb #2
 *   br   x1
 *
 * Each entry is the distance from base in instructions, of the load's width and the add's
 * signedness. */

static size_t a64_bound(const struct insn *insns, const struct insn_facts *af,
			const struct jtab_index *ix, size_t k, unsigned idx)
{
	for (size_t i = k, left = WINDOW; i-- > 0 && left--;) {
		const struct insn_facts *x = &af[i];
		unsigned cc = x->cc;
		if (insns[i].flow == INSN_FLOW_COND && x->id == ARM64_INS_B && i > 0 &&
		    (cc == ARM64_CC_HI || cc == ARM64_CC_LS || cc == ARM64_CC_HS || cc == ARM64_CC_LO)) {
			const struct insn_facts *c = &af[i - 1];
			if (c->id == ARM64_INS_CMP && c->nops == 2 && is_reg(&c->op[0], idx) &&
			    c->op[1].type == ARM64_OP_IMM && !c->op[1].shift) {
				int64_t n = c->op[1].imm;
				if (n < 0 || n >= MAX_ENTRIES)
					return 0;
				return (size_t)n + (cc == ARM64_CC_HI || cc == ARM64_CC_LS);
			}
		}
		if (barrier(&insns[i])) {
			long p = entered_from(ix, i + 1);
			if (p < 0)
				return 0;
			i = (size_t)p + 1;
			continue;
		}
		if (insn_regs_has(&insns[i].wr, idx)) {
			if (x->id == ARM64_INS_MOV && x->nops == 2 && is_reg(&x->op[0], idx) &&
			    x->op[1].type == ARM64_OP_REG && x->op[1].reg < 31) {
				idx = x->op[1].reg;
				continue;
			}
			return 0;
		}
	}
	return 0;
}

/* The address "adrp b, page; add b, b, #lo" or "adr b, addr" leave in b at instruction k;
 * 0 if not that. *at: the first instruction of it. */
static uint64_t a64_address(const struct insn *insns, const struct insn_facts *af, size_t k,
			    unsigned b, long *at)
{
	long w = writer(insns, k, b);
	*at = w;
	if (w < 0)
		return 0;
	const struct insn_facts *x = &af[w];
	if (x->id == ARM64_INS_ADR && x->nops == 2 && is_reg(&x->op[0], b) &&
	    x->op[1].type == ARM64_OP_IMM)
		return (uint64_t)x->op[1].imm;
	if (x->id != ARM64_INS_ADD || x->nops != 3 || !is_reg(&x->op[0], b) ||
	    !is_reg(&x->op[1], b) || x->op[2].type != ARM64_OP_IMM || x->op[2].shift)
		return 0;
	long p = writer(insns, (size_t)w, b);
	*at = p;
	if (p < 0)
		return 0;
	const struct insn_facts *page = &af[p];
	if (page->id != ARM64_INS_ADRP || page->nops != 2 || page->op[1].type != ARM64_OP_IMM)
		return 0;
	return (uint64_t)page->op[1].imm + (uint64_t)x->op[2].imm;
}

int insn_a64_jump_table(const struct insn *insns, const struct insn_facts *af, size_t n,
			const struct jtab_index *ix, size_t j, uint64_t lo, uint64_t hi,
			insn_read_fn read, void *ctx, uint64_t **targets, size_t *ntargets)
{
	const struct insn_facts *br = &af[j];
	*targets = NULL;
	*ntargets = 0;
	if (!read || br->id != ARM64_INS_BR || br->nops != 1 || br->op[0].type != ARM64_OP_REG)
		return -1;
	long k = writer(insns, j, br->op[0].reg);
	if (k < 0)
		return -1;
	const struct insn_facts *add = &af[k];
	if (add->id != ARM64_INS_ADD || add->nops != 3 || !is_reg(&add->op[0], br->op[0].reg) ||
	    add->op[1].type != ARM64_OP_REG || add->op[2].type != ARM64_OP_REG ||
	    add->op[2].shift != 2)
		return -1;
	unsigned esize, sign;
	switch (add->op[2].ext) {
	case ARM64_EXT_SXTB: esize = 1, sign = 1; break;
	case ARM64_EXT_UXTB: esize = 1, sign = 0; break;
	case ARM64_EXT_SXTH: esize = 2, sign = 1; break;
	case ARM64_EXT_UXTH: esize = 2, sign = 0; break;
	case ARM64_EXT_SXTW: esize = 4, sign = 1; break;
	case ARM64_EXT_UXTW: esize = 4, sign = 0; break;
	default: return -1;
	}
	long at;
	uint64_t base = a64_address(insns, af, (size_t)k, add->op[1].reg, &at);
	if (!base)
		return -1;
	long m = writer(insns, (size_t)k, add->op[2].reg);
	if (m < 0)
		return -1;
	const struct insn_facts *ld = &af[m];
	unsigned want = ld->id == ARM64_INS_LDRB ? 1 : ld->id == ARM64_INS_LDRH ? 2 :
			ld->id == ARM64_INS_LDR ? 4 : 0;
	if (want != esize || ld->nops != 2 || !is_reg(&ld->op[0], add->op[2].reg) ||
	    ld->op[1].type != ARM64_OP_MEM || ld->op[1].index == XREG_NONE || ld->op[1].imm ||
	    (1u << ld->op[1].shift) != esize)
		return -1;
	uint64_t table = a64_address(insns, af, (size_t)m, ld->op[1].base, &at);
	if (!table)
		return -1;
	size_t count = a64_bound(insns, af, ix, (size_t)m, ld->op[1].index);
	if (!count)
		return -1;
	uint64_t *t = malloc(count * sizeof(*t));
	if (!t)
		return -1;
	size_t nt = 0;
	for (size_t i = 0; i < count; i++) {
		uint8_t e[4];
		if (read(ctx, table + esize * i, e, esize))
			goto fail;
		uint32_t u = e[0];
		for (unsigned b = 1; b < esize; b++)
			u |= (uint32_t)e[b] << (8 * b);
		int64_t v = u;
		if (sign && esize < 4 && (u >> (8 * esize - 1)) & 1)
			v -= (int64_t)1 << (8 * esize);
		else if (sign && esize == 4)
			v = (int32_t)u;
		uint64_t target = base + (uint64_t)(v * 4);
		if (target < lo || target >= hi || !insn_start(insns, n, target))
			goto fail;
		nt = add_target(t, nt, target);
	}
	*targets = t;
	*ntargets = nt;
	return 0;
fail:
	free(t);
	return -1;
}
