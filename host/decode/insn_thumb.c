/* SPDX-License-Identifier: BSD-2-Clause */
/* One Thumb instruction (Cortex-M: Armv7-M, Armv8-M, Armv8.1-M) as the analyses see it,
 * from capstone's decoding in Thumb, M-class, v8 mode: how control leaves it, its class,
 * its memory access and the registers it reads and writes (analysis/insn.h numbering:
 * 0-15 r0-r15, 13 sp, 14 lr, 15 pc; 32 the APSR flags; 64-95 s0-s31, a d or q register
 * as the s registers it overlays). A return is `bx lr`, a pop or load-multiple into pc, or
 * `mov pc, lr`; an indirect jump is `bx`/`mov pc` through another register, a load into
 * pc, or a table branch (tbb, tbh: their tables are not recovered). */
#include <string.h>

#include "decode/insn_decode_internal.h"

#define REG_PC 15
#define REG_LR 14

static int has_prefix(const char *m, const char *const *list)
{
	for (; *list; list++)
		if (!strncmp(m, *list, strlen(*list)))
			return 1;
	return 0;
}

/* The register number(s) of a capstone register, added to set. */
static void add_reg(struct insn_regs *set, unsigned r)
{
	if (r >= ARM_REG_R0 && r <= ARM_REG_R12)
		insn_regs_add(set, r - ARM_REG_R0);
	else if (r == ARM_REG_SP)
		insn_regs_add(set, 13);
	else if (r == ARM_REG_LR)
		insn_regs_add(set, REG_LR);
	else if (r == ARM_REG_PC)
		insn_regs_add(set, REG_PC);
	else if (r == ARM_REG_APSR || r == ARM_REG_APSR_NZCV || r == ARM_REG_CPSR)
		insn_regs_add(set, INSN_REG_NZCV);
	else if (r >= ARM_REG_S0 && r <= ARM_REG_S31)
		insn_regs_add(set, INSN_REG_VEC0 + (r - ARM_REG_S0));
	else if (r >= ARM_REG_D0 && r <= ARM_REG_D15)
		for (unsigned i = 0; i < 2; i++)
			insn_regs_add(set, INSN_REG_VEC0 + 2 * (r - ARM_REG_D0) + i);
	else if (r >= ARM_REG_Q0 && r <= ARM_REG_Q7)
		for (unsigned i = 0; i < 4; i++)
			insn_regs_add(set, INSN_REG_VEC0 + 4 * (r - ARM_REG_Q0) + i);
}

static void regs(csh h, const cs_insn *in, struct insn *o)
{
	cs_regs rd, wr;
	uint8_t nrd = 0, nwr = 0;

	if (cs_regs_access(h, in, rd, &nrd, wr, &nwr) != CS_ERR_OK)
		return;
	for (unsigned i = 0; i < nrd; i++)
		add_reg(&o->rd, rd[i]);
	for (unsigned i = 0; i < nwr; i++)
		add_reg(&o->wr, wr[i]);
}

static int writes_pc(const cs_arm *a)
{
	for (unsigned i = 0; i < a->op_count; i++)
		if (a->operands[i].type == ARM_OP_REG && a->operands[i].reg == ARM_REG_PC &&
		    (a->operands[i].access & CS_AC_WRITE))
			return 1;
	return 0;
}

static int64_t imm_target(const cs_arm *a)
{
	for (unsigned i = 0; i < a->op_count; i++)
		if (a->operands[i].type == ARM_OP_IMM)
			return a->operands[i].imm;
	return 0;
}

static void flow(const cs_insn *in, struct insn *o)
{
	const cs_arm *a = &in->detail->arm;
	int cond = a->cc != ARM_CC_AL && a->cc != ARM_CC_INVALID;
	unsigned r0 = a->op_count && a->operands[0].type == ARM_OP_REG ? a->operands[0].reg : 0;

	switch (in->id) {
	case ARM_INS_B:
		o->flow = cond ? INSN_FLOW_COND : INSN_FLOW_JUMP;
		o->target = (uint64_t)imm_target(a);
		return;
	case ARM_INS_CBZ:
	case ARM_INS_CBNZ:
		o->flow = INSN_FLOW_COND;
		o->target = (uint64_t)imm_target(a);
		return;
	case ARM_INS_BL:
		o->flow = INSN_FLOW_CALL;
		o->target = (uint64_t)imm_target(a);
		return;
	case ARM_INS_BLX:
		o->flow = INSN_FLOW_CALL;
		o->target = r0 ? 0 : (uint64_t)imm_target(a);
		return;
	case ARM_INS_BX:
		o->flow = r0 == ARM_REG_LR ? INSN_FLOW_RETURN : INSN_FLOW_INDIRECT;
		return;
	case ARM_INS_TBB:
	case ARM_INS_TBH:
		o->flow = INSN_FLOW_INDIRECT;
		return;
	case ARM_INS_UDF:
	case ARM_INS_BKPT:
	case ARM_INS_HLT:
		o->flow = INSN_FLOW_STOP;
		return;
	case ARM_INS_POP:
	case ARM_INS_LDM:
	case ARM_INS_LDMDB:
		o->flow = writes_pc(a) ? INSN_FLOW_RETURN : INSN_FLOW_NEXT;
		return;
	case ARM_INS_MOV:
		if (r0 == ARM_REG_PC)
			o->flow = a->op_count > 1 && a->operands[1].type == ARM_OP_REG &&
				  a->operands[1].reg == ARM_REG_LR ? INSN_FLOW_RETURN :
				  INSN_FLOW_INDIRECT;
		return;
	default:
		if (r0 == ARM_REG_PC && (a->operands[0].access & CS_AC_WRITE))
			o->flow = INSN_FLOW_INDIRECT;   /* ldr pc, [...] and the like */
		return;
	}
}

static enum insn_class classify(const char *m)
{
	static const char *const nop[] = { "nop", "it", 0 };
	static const char *const sys[] = { "dmb", "dsb", "isb", "mrs", "msr", "cps", "svc", "wfi",
					   "wfe", "sev", "yield", "clrex", "vmrs", "vmsr", 0 };
	static const char *const load[] = { "ldr", "ldm", "pop", "ldaex", "lda", "vldr", "vldm",
					    "vpop", "vld", "pld", "pli", 0 };
	static const char *const store[] = { "str", "stm", "push", "stl", "vstr", "vstm", "vpush",
					     "vst", 0 };
	static const char *const div[] = { "sdiv", "udiv", 0 };
	static const char *const mul[] = { "mul", "mla", "mls", "umull", "smull", "umlal", "smlal",
					   "umaal", "smla", "smul", "smmu", "smml", "smua", "smus",
					   "smld", "smls", "usad", 0 };
	static const char *const shift[] = { "lsl", "lsr", "asr", "ror", "rrx", "bfi", "bfc",
					     "ubfx", "sbfx", "rbit", "rev", 0 };
	static const char *const move[] = { "mov", "mvn", "vmov", 0 };
	static const char *const fp_div[] = { "vdiv", "vsqrt", 0 };
	static const char *const fp_mul[] = { "vmul", "vnmul", "vmla", "vmls", "vfma", "vfms",
					      "vfnm", "vnml", 0 };
	static const char *const fp_add[] = { "vadd", "vsub", "vcmp", "vcvt", "vabs", "vneg",
					      "vmax", "vmin", "vrint", "vsel", 0 };

	if (has_prefix(m, nop))
		return IC_NOP;
	if (has_prefix(m, sys))
		return IC_SYSTEM;
	if (has_prefix(m, load))
		return IC_LOAD;
	if (has_prefix(m, store))
		return IC_STORE;
	if (has_prefix(m, div))
		return IC_DIV;
	if (has_prefix(m, mul))
		return IC_MUL;
	if (has_prefix(m, shift))
		return IC_SHIFT;
	if (has_prefix(m, move))
		return IC_MOVE;
	if (has_prefix(m, fp_div))
		return IC_FP_DIV;
	if (has_prefix(m, fp_mul))
		return IC_FP_MUL;
	if (has_prefix(m, fp_add))
		return IC_FP_ADD;
	return m[0] == 'v' ? IC_VEC : IC_ALU;   /* MVE, and the integer ALU */
}

void insn_thumb_fill(csh h, const cs_insn *in, struct insn *o, struct insn_facts *tf)
{
	memset(tf, 0, sizeof(*tf));
	tf->id = in->id;
	flow(in, o);
	if (o->flow == INSN_FLOW_STOP)
		o->cls = IC_SYSTEM;
	else if (o->flow != INSN_FLOW_NEXT && in->id != ARM_INS_POP && in->id != ARM_INS_LDM &&
		 in->id != ARM_INS_LDMDB)
		o->cls = IC_BRANCH;
	else
		o->cls = (uint8_t)classify(in->mnemonic);
	if (o->cls == IC_LOAD)
		o->mem = INSN_MEM_LOAD;
	else if (o->cls == IC_STORE)
		o->mem = INSN_MEM_STORE;
	if (o->cls != IC_NOP)
		regs(h, in, o);
}
