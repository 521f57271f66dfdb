/* SPDX-License-Identifier: BSD-2-Clause */
/* One AArch64 instruction's control flow, pipeline class, memory access and registers,
 * from capstone's details. Classes go by the printed mnemonic (capstone prints the
 * preferred alias: cmp, mov, lsl, ...). Registers come from the operands by their role,
 * not from capstone 4's operand access flags, which mark the destination of many
 * aliases as read (cmp, movz, lsl, ubfx) and the first source of cmp as written. */
#include <string.h>

#include "decode/insn_decode_internal.h"

int insn_a64_regnum(unsigned reg)
{
	if (reg >= ARM64_REG_X0 && reg <= ARM64_REG_X28)
		return (int)(reg - ARM64_REG_X0);
	if (reg >= ARM64_REG_W0 && reg <= ARM64_REG_W30)
		return (int)(reg - ARM64_REG_W0);
	if (reg == ARM64_REG_X29)
		return 29;
	if (reg == ARM64_REG_X30)
		return 30;
	if (reg == ARM64_REG_SP || reg == ARM64_REG_WSP)
		return 31;
	if (reg == ARM64_REG_NZCV)
		return INSN_REG_NZCV;
	static const unsigned vec_first[] = { ARM64_REG_B0, ARM64_REG_H0, ARM64_REG_S0,
					      ARM64_REG_D0, ARM64_REG_Q0, ARM64_REG_V0 };
	for (size_t i = 0; i < sizeof vec_first / sizeof vec_first[0]; i++)
		if (reg >= vec_first[i] && reg <= vec_first[i] + 31)
			return INSN_REG_VEC0 + (int)(reg - vec_first[i]);
	return -1;
}

static int in_list(const char *m, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(m, *list))
			return 1;
	return 0;
}

static int starts(const char *m, const char *p)
{
	return !strncmp(m, p, strlen(p));
}

static const char *const nops[] = { "nop", "hint", "bti", "paciasp", "autiasp", "pacibsp",
				    "autibsp", "paciaz", "autiaz", "xpaclri", "esb", "csdb",
				    NULL };
static const char *const systems[] = { "dmb", "dsb", "isb", "mrs", "msr", "sys", "sysl",
				       "tlbi", "dc", "ic", "at", "svc", "hvc", "smc", "wfi",
				       "wfe", "sev", "sevl", "clrex", "yield", "sb", "drps",
				       "brk", "hlt", "udf", NULL };
static const char *const moves[] = { "mov", "movz", "movn", "movk", NULL };
static const char *const alus[] = {
	"add", "adds", "sub", "subs", "cmp", "cmn", "neg", "negs", "ngc", "ngcs", "adc",
	"adcs", "sbc", "sbcs", "and", "ands", "orr", "eor", "eon", "bic", "bics", "orn", "mvn",
	"tst", "ccmp", "ccmn", "csel", "csinc", "csinv", "csneg", "cset", "csetm", "cinc",
	"cinv", "cneg", "adr", "adrp", "sxtb", "sxth", "sxtw", "uxtb", "uxth", "clz", "cls",
	"rbit", "rev", "rev16", "rev32", "rev64", NULL };
static const char *const shifts[] = { "lsl", "lsr", "asr", "ror", "lslv", "lsrv", "asrv",
				      "rorv", "ubfx", "sbfx", "ubfiz", "sbfiz", "bfi", "bfxil",
				      "bfm", "ubfm", "sbfm", "extr", "bfc", NULL };
static const char *const muls[] = { "mul", "madd", "msub", "mneg", "smull", "umull", "smulh",
				    "umulh", "smaddl", "umaddl", "smsubl", "umsubl", "smnegl",
				    "umnegl", NULL };
static const char *const divs[] = { "sdiv", "udiv", NULL };
static const char *const fp_muls[] = { "fmul", "fnmul", "fmadd", "fmsub", "fnmadd", "fnmsub",
				       "fmla", "fmls", "fmulx", NULL };
static const char *const fp_divs[] = { "fdiv", "fsqrt", "frecpe", "frecps", "frsqrte",
				       "frsqrts", NULL };
/* Compares and tests: no register operand is written. */
static const char *const compares[] = { "cmp", "cmn", "tst", "ccmp", "ccmn", "fcmp", "fcmpe",
					"fccmp", "fccmpe", NULL };
/* Destinations also read: inserts, accumulates, partial writes. */
static const char *const dest_read[] = { "movk", "bfi", "bfxil", "bfm", "bfc", "mla", "mls",
					 "fmla", "fmls", "sdot", "udot", "ins", "sli", "sri",
					 "tbx", "bsl", "bit", "bif", NULL };
/* Atomic read-modify-write: load and store. */
static const char *const atomics[] = { "ldadd", "ldclr", "ldeor", "ldset", "ldsmax", "ldsmin",
				       "ldumax", "ldumin", "swp", "cas", "stadd", "stclr",
				       "steor", "stset", "stsmax", "stsmin", "stumax", "stumin",
				       NULL };

static int atomic(const char *m)
{
	for (const char *const *a = atomics; *a; a++)
		if (starts(m, *a))
			return 1;
	return 0;
}

static int store_exclusive(const char *m)
{
	return starts(m, "stxr") || starts(m, "stlxr") || starts(m, "stxp") || starts(m, "stlxp");
}

static int has_simd_operand(const cs_arm64 *a)
{
	for (unsigned i = 0; i < a->op_count; i++)
		if (a->operands[i].type == ARM64_OP_REG &&
		    insn_a64_regnum(a->operands[i].reg) >= INSN_REG_VEC0)
			return 1;
	return 0;
}

static unsigned classify(const char *m, const cs_arm64 *a)
{
	if (in_list(m, nops))
		return IC_NOP;
	if (in_list(m, systems))
		return IC_SYSTEM;
	if (atomic(m) || starts(m, "ld") || starts(m, "prfm") || starts(m, "prfum"))
		return IC_LOAD;
	if (starts(m, "st"))
		return IC_STORE;
	if (in_list(m, fp_muls))
		return IC_FP_MUL;
	if (in_list(m, fp_divs))
		return IC_FP_DIV;
	if (!strcmp(m, "fmov"))
		return IC_VEC;
	if (m[0] == 'f' || !strcmp(m, "scvtf") || !strcmp(m, "ucvtf"))
		return IC_FP_ADD;
	if (has_simd_operand(a))
		return IC_VEC;
	if (in_list(m, moves))
		return IC_MOVE;
	if (in_list(m, alus) || starts(m, "crc32"))
		return IC_ALU;
	if (in_list(m, shifts))
		return IC_SHIFT;
	if (in_list(m, muls))
		return IC_MUL;
	if (in_list(m, divs))
		return IC_DIV;
	return IC_OTHER;
}

static void add_reg(struct insn_regs *set, unsigned reg)
{
	int n = insn_a64_regnum(reg);
	if (n >= 0)
		insn_regs_add(set, (unsigned)n);
}

static void flow(const cs_insn *in, struct insn *o)
{
	const cs_arm64 *a = &in->detail->arm64;
	uint64_t target = 0;
	if (a->op_count && a->operands[a->op_count - 1].type == ARM64_OP_IMM)
		target = (uint64_t)a->operands[a->op_count - 1].imm;

	switch (in->id) {
	case ARM64_INS_B:
		o->flow = a->cc == ARM64_CC_INVALID || a->cc == ARM64_CC_AL || a->cc == ARM64_CC_NV ?
				  INSN_FLOW_JUMP : INSN_FLOW_COND;
		o->target = target;
		break;
	case ARM64_INS_CBZ:
	case ARM64_INS_CBNZ:
	case ARM64_INS_TBZ:
	case ARM64_INS_TBNZ:
		o->flow = INSN_FLOW_COND;
		o->target = target;
		break;
	case ARM64_INS_BL:
		o->flow = INSN_FLOW_CALL;
		o->target = target;
		break;
	case ARM64_INS_BLR:
		o->flow = INSN_FLOW_CALL;
		break;
	case ARM64_INS_BR:
		/* through x16/x17, the intra-procedure-call scratch registers: how gcc makes
		 * an indirect tail call (a jump table's register is another) */
		o->flow = a->op_count == 1 && (a->operands[0].reg == ARM64_REG_X16 ||
					      a->operands[0].reg == ARM64_REG_X17) ?
				  INSN_FLOW_RETURN : INSN_FLOW_INDIRECT;
		break;
	case ARM64_INS_RET:
	case ARM64_INS_ERET:
		o->flow = INSN_FLOW_RETURN;
		break;
	case ARM64_INS_BRK:
	case ARM64_INS_HLT:
		o->flow = INSN_FLOW_STOP;
		break;
	}
}

/* Registers by operand role: which register operands the instruction writes, which it
 * reads, and the address registers of its memory operand. */
static void regs(const cs_insn *in, const char *m, struct insn *o)
{
	const cs_arm64 *a = &in->detail->arm64;
	int load = o->cls == IC_LOAD, is_atomic = atomic(m);
	int none_written = o->flow != INSN_FLOW_NEXT || in_list(m, compares) ||
			   (o->cls == IC_STORE && !is_atomic) || o->cls == IC_SYSTEM;
	unsigned nreg = 0;
	int after_mem = 0;

	for (unsigned i = 0; i < a->op_count; i++) {
		const cs_arm64_op *op = &a->operands[i];
		if (op->type == ARM64_OP_MEM) {
			add_reg(&o->rd, op->mem.base);
			add_reg(&o->rd, op->mem.index);
			if (a->writeback)
				add_reg(&o->wr, op->mem.base);
			after_mem = 1;
			continue;
		}
		if (op->type != ARM64_OP_REG)
			continue;
		if (after_mem) {
			add_reg(&o->rd, op->reg);   /* a post-index register: [xn], xm */
			continue;
		}
		int wr, rd;
		if (!strcmp(m, "mrs")) {
			wr = 1, rd = 0;
		} else if (is_atomic && starts(m, "cas")) {
			wr = nreg == 0, rd = 1;
		} else if (is_atomic) {
			/* ldadd/swp Rs, Rt, [Xn]: Rs read, Rt written; stadd Rs, [Xn] */
			wr = nreg == 1, rd = nreg == 0;
		} else if (store_exclusive(m)) {
			wr = nreg == 0, rd = nreg != 0;
		} else if (none_written) {
			wr = 0, rd = 1;
		} else if (load) {
			wr = 1, rd = op->vector_index >= 0;
		} else {
			wr = nreg == 0;
			rd = nreg != 0 || in_list(m, dest_read) || op->vector_index >= 0;
		}
		if (wr)
			add_reg(&o->wr, op->reg);
		if (rd)
			add_reg(&o->rd, op->reg);
		nreg++;
	}
	for (unsigned i = 0; i < in->detail->regs_read_count; i++)
		add_reg(&o->rd, in->detail->regs_read[i]);
	for (unsigned i = 0; i < in->detail->regs_write_count; i++)
		add_reg(&o->wr, in->detail->regs_write[i]);
	if (in->id == ARM64_INS_RET && !nreg)
		insn_regs_add(&o->rd, 30);
	/* flag-setting forms capstone 4 does not list */
	if (in_list(m, compares) || (strlen(m) > 3 && m[strlen(m) - 1] == 's' &&
				     (starts(m, "add") || starts(m, "sub") || starts(m, "and") ||
				      starts(m, "bic") || starts(m, "adc") || starts(m, "sbc") ||
				      starts(m, "neg") || starts(m, "ngc"))))
		insn_regs_add(&o->wr, INSN_REG_NZCV);
	if (!strcmp(m, "ccmp") || !strcmp(m, "ccmn") || !strcmp(m, "fccmp") ||
	    !strcmp(m, "fccmpe") || !strcmp(m, "fcsel") || !strcmp(m, "adc") ||
	    !strcmp(m, "adcs") || !strcmp(m, "sbc") || !strcmp(m, "sbcs") || !strcmp(m, "ngc") ||
	    !strcmp(m, "ngcs") || (a->cc != ARM64_CC_INVALID && a->cc != ARM64_CC_AL &&
				  a->cc != ARM64_CC_NV))
		insn_regs_add(&o->rd, INSN_REG_NZCV);
}

static uint8_t regnum_or_none(unsigned reg)
{
	int n = insn_a64_regnum(reg);
	return n < 0 ? XREG_NONE : (uint8_t)n;
}

static void facts(const cs_insn *in, struct insn_facts *af)
{
	const cs_arm64 *a = &in->detail->arm64;
	memset(af, 0, sizeof(*af));
	af->id = in->id;
	af->nops = a->op_count;
	af->cc = (uint8_t)a->cc;
	for (unsigned i = 0; i < a->op_count && i < 3; i++) {
		const cs_arm64_op *op = &a->operands[i];
		struct opnd_facts *o = &af->op[i];
		o->type = (uint8_t)op->type;
		o->reg = o->base = o->index = XREG_NONE;
		o->ext = (uint8_t)op->ext;
		o->shift = op->shift.type == ARM64_SFT_LSL ? (uint8_t)op->shift.value : 0;
		if (op->type == ARM64_OP_REG) {
			o->reg = regnum_or_none(op->reg);
		} else if (op->type == ARM64_OP_IMM) {
			o->imm = op->imm;
		} else if (op->type == ARM64_OP_MEM) {
			o->base = regnum_or_none(op->mem.base);
			o->index = regnum_or_none(op->mem.index);
			o->imm = op->mem.disp;
		}
	}
}

void insn_a64_fill(csh h, const cs_insn *in, struct insn *o, struct insn_facts *af)
{
	const char *m = in->mnemonic;
	(void)h;

	facts(in, af);
	flow(in, o);
	if (o->flow == INSN_FLOW_STOP)
		o->cls = IC_SYSTEM;
	else if (o->flow != INSN_FLOW_NEXT)
		o->cls = IC_BRANCH;
	else
		o->cls = (uint8_t)classify(m, &in->detail->arm64);
	if (atomic(m))
		o->mem = INSN_MEM_LOAD | INSN_MEM_STORE;
	else if (o->cls == IC_LOAD)
		o->mem = INSN_MEM_LOAD;
	else if (o->cls == IC_STORE)
		o->mem = INSN_MEM_STORE;
	if (o->cls != IC_NOP)
		regs(in, m, o);
}
