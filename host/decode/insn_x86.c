/* SPDX-License-Identifier: BSD-2-Clause */
/* One x86-64 instruction's control flow, pipeline class, memory access and registers, from
 * capstone's details. Classes go by capstone's instruction name (Intel, no AT&T size
 * suffix): exact names first, then name prefixes, then the SSE/AVX default. */
#include <string.h>

#include "decode/insn_decode_internal.h"

int insn_x86_regnum(unsigned reg)
{
	switch (reg) {
	case X86_REG_AL: case X86_REG_AH: case X86_REG_AX: case X86_REG_EAX: case X86_REG_RAX:
		return 0;
	case X86_REG_CL: case X86_REG_CH: case X86_REG_CX: case X86_REG_ECX: case X86_REG_RCX:
		return 1;
	case X86_REG_DL: case X86_REG_DH: case X86_REG_DX: case X86_REG_EDX: case X86_REG_RDX:
		return 2;
	case X86_REG_BL: case X86_REG_BH: case X86_REG_BX: case X86_REG_EBX: case X86_REG_RBX:
		return 3;
	case X86_REG_SPL: case X86_REG_SP: case X86_REG_ESP: case X86_REG_RSP:
		return 4;
	case X86_REG_BPL: case X86_REG_BP: case X86_REG_EBP: case X86_REG_RBP:
		return 5;
	case X86_REG_SIL: case X86_REG_SI: case X86_REG_ESI: case X86_REG_RSI:
		return 6;
	case X86_REG_DIL: case X86_REG_DI: case X86_REG_EDI: case X86_REG_RDI:
		return 7;
	case X86_REG_EFLAGS:
		return INSN_REG_FLAGS_X86;
	}
	if (reg >= X86_REG_R8 && reg <= X86_REG_R15)
		return 8 + (int)(reg - X86_REG_R8);
	if (reg >= X86_REG_R8B && reg <= X86_REG_R15B)
		return 8 + (int)(reg - X86_REG_R8B);
	if (reg >= X86_REG_R8W && reg <= X86_REG_R15W)
		return 8 + (int)(reg - X86_REG_R8W);
	if (reg >= X86_REG_R8D && reg <= X86_REG_R15D)
		return 8 + (int)(reg - X86_REG_R8D);
	if (reg >= X86_REG_XMM0 && reg <= X86_REG_XMM31)
		return INSN_REG_VEC0 + (int)(reg - X86_REG_XMM0);
	if (reg >= X86_REG_YMM0 && reg <= X86_REG_YMM31)
		return INSN_REG_VEC0 + (int)(reg - X86_REG_YMM0);
	if (reg >= X86_REG_ZMM0 && reg <= X86_REG_ZMM31)
		return INSN_REG_VEC0 + (int)(reg - X86_REG_ZMM0);
	return -1;
}

/* A memory form of a MOVE_LIKE class is a plain load or store. */
#define MOVE_LIKE 0x80

struct name_class {
	const char *name;
	uint8_t cls;
};

static const struct name_class exact[] = {
	{ "nop", IC_NOP }, { "endbr64", IC_NOP }, { "endbr32", IC_NOP }, { "fnop", IC_NOP },
	{ "mov", IC_MOVE | MOVE_LIKE }, { "movabs", IC_MOVE | MOVE_LIKE },
	{ "xchg", IC_ALU },
	/* extensions */
	{ "movzx", IC_ALU | MOVE_LIKE }, { "movsx", IC_ALU | MOVE_LIKE },
	{ "movsxd", IC_ALU | MOVE_LIKE }, { "cbw", IC_ALU }, { "cwde", IC_ALU }, { "cdqe", IC_ALU },
	{ "cwd", IC_ALU }, { "cdq", IC_ALU }, { "cqo", IC_ALU },
	{ "lea", IC_ALU }, { "add", IC_ALU }, { "adc", IC_ALU }, { "sub", IC_ALU },
	{ "sbb", IC_ALU }, { "and", IC_ALU }, { "or", IC_ALU }, { "xor", IC_ALU },
	{ "not", IC_ALU }, { "neg", IC_ALU }, { "inc", IC_ALU }, { "dec", IC_ALU },
	{ "cmp", IC_ALU }, { "test", IC_ALU }, { "xadd", IC_ALU }, { "cmpxchg", IC_ALU },
	{ "cmpxchg8b", IC_ALU }, { "cmpxchg16b", IC_ALU }, { "bt", IC_ALU }, { "bts", IC_ALU },
	{ "btr", IC_ALU }, { "btc", IC_ALU }, { "bswap", IC_ALU }, { "popcnt", IC_ALU },
	{ "lzcnt", IC_ALU }, { "tzcnt", IC_ALU }, { "bsf", IC_ALU }, { "bsr", IC_ALU },
	{ "andn", IC_ALU }, { "blsi", IC_ALU }, { "blsr", IC_ALU }, { "blsmsk", IC_ALU },
	{ "adcx", IC_ALU }, { "adox", IC_ALU }, { "stc", IC_ALU }, { "clc", IC_ALU },
	{ "cmc", IC_ALU }, { "std", IC_ALU }, { "cld", IC_ALU }, { "lahf", IC_ALU },
	{ "sahf", IC_ALU },
	{ "shl", IC_SHIFT }, { "sal", IC_SHIFT }, { "shr", IC_SHIFT }, { "sar", IC_SHIFT },
	{ "rol", IC_SHIFT }, { "ror", IC_SHIFT }, { "rcl", IC_SHIFT }, { "rcr", IC_SHIFT },
	{ "shld", IC_SHIFT }, { "shrd", IC_SHIFT }, { "shlx", IC_SHIFT }, { "shrx", IC_SHIFT },
	{ "sarx", IC_SHIFT }, { "rorx", IC_SHIFT }, { "bextr", IC_SHIFT }, { "bzhi", IC_SHIFT },
	{ "pdep", IC_SHIFT }, { "pext", IC_SHIFT },
	{ "imul", IC_MUL }, { "mul", IC_MUL }, { "mulx", IC_MUL },
	{ "div", IC_DIV }, { "idiv", IC_DIV },
	{ "push", IC_STORE }, { "pushf", IC_STORE }, { "pushfq", IC_STORE },
	{ "pop", IC_LOAD }, { "popf", IC_LOAD }, { "popfq", IC_LOAD }, { "leave", IC_LOAD },
	{ "pause", IC_SYSTEM }, { "cpuid", IC_SYSTEM }, { "rdtsc", IC_SYSTEM },
	{ "rdtscp", IC_SYSTEM }, { "rdmsr", IC_SYSTEM }, { "wrmsr", IC_SYSTEM },
	{ "rdpmc", IC_SYSTEM }, { "mfence", IC_SYSTEM }, { "lfence", IC_SYSTEM },
	{ "sfence", IC_SYSTEM }, { "cli", IC_SYSTEM }, { "sti", IC_SYSTEM }, { "in", IC_SYSTEM },
	{ "out", IC_SYSTEM }, { "lgdt", IC_SYSTEM }, { "lidt", IC_SYSTEM }, { "sgdt", IC_SYSTEM },
	{ "sidt", IC_SYSTEM }, { "ltr", IC_SYSTEM }, { "lldt", IC_SYSTEM },
	{ "invlpg", IC_SYSTEM }, { "wbinvd", IC_SYSTEM }, { "invd", IC_SYSTEM },
	{ "clflush", IC_SYSTEM }, { "clflushopt", IC_SYSTEM }, { "clwb", IC_SYSTEM },
	{ "xgetbv", IC_SYSTEM }, { "xsetbv", IC_SYSTEM }, { "rdrand", IC_SYSTEM },
	{ "rdseed", IC_SYSTEM }, { "swapgs", IC_SYSTEM }, { "int", IC_SYSTEM },
	{ "into", IC_SYSTEM }, { "syscall", IC_SYSTEM }, { "sysenter", IC_SYSTEM },
	{ "hlt", IC_SYSTEM }, { "ud2", IC_SYSTEM }, { "ud2b", IC_SYSTEM }, { "ud0", IC_SYSTEM },
	{ "int3", IC_SYSTEM }, { "wait", IC_SYSTEM }, { "ldmxcsr", IC_SYSTEM },
	{ "stmxcsr", IC_SYSTEM },
	/* string instructions (SSE "movsd"/"cmpsd" with xmm operands are told apart below) */
	{ "movsb", IC_STRING }, { "movsw", IC_STRING }, { "movsd", IC_STRING },
	{ "movsq", IC_STRING }, { "stosb", IC_STRING }, { "stosw", IC_STRING },
	{ "stosd", IC_STRING }, { "stosq", IC_STRING }, { "lodsb", IC_STRING },
	{ "lodsw", IC_STRING }, { "lodsd", IC_STRING }, { "lodsq", IC_STRING },
	{ "cmpsb", IC_STRING }, { "cmpsw", IC_STRING }, { "cmpsd", IC_STRING },
	{ "cmpsq", IC_STRING }, { "scasb", IC_STRING }, { "scasw", IC_STRING },
	{ "scasd", IC_STRING }, { "scasq", IC_STRING }, { "insb", IC_STRING },
	{ "insw", IC_STRING }, { "insd", IC_STRING }, { "outsb", IC_STRING },
	{ "outsw", IC_STRING }, { "outsd", IC_STRING },
};

/* Matched in order against the name (after an AVX "v" is dropped). */
static const struct name_class prefixes[] = {
	{ "cmov", IC_ALU }, { "set", IC_ALU },
	{ "prefetch", IC_LOAD },
	{ "xsave", IC_SYSTEM }, { "xrstor", IC_SYSTEM }, { "fxsave", IC_SYSTEM },
	{ "fxrstor", IC_SYSTEM },
	/* fused multiply-add, scalar and packed */
	{ "fmadd", IC_FP_MUL }, { "fmsub", IC_FP_MUL }, { "fnmadd", IC_FP_MUL },
	{ "fnmsub", IC_FP_MUL },
	/* vector moves */
	{ "mov", IC_VEC | MOVE_LIKE }, { "lddqu", IC_VEC | MOVE_LIKE },
	{ "broadcast", IC_VEC | MOVE_LIKE }, { "pbroadcast", IC_VEC | MOVE_LIKE },
	{ "cvt", IC_FP_ADD },
	{ "p", IC_VEC },
};

/* x87, for instructions outside the SSE/AVX groups. */
static const struct name_class x87[] = {
	{ "fmul", IC_FP_MUL }, { "fimul", IC_FP_MUL }, { "fdiv", IC_FP_DIV },
	{ "fidiv", IC_FP_DIV }, { "fsqrt", IC_FP_DIV }, { "fld", IC_MOVE | MOVE_LIKE },
	{ "fild", IC_MOVE | MOVE_LIKE }, { "fst", IC_MOVE | MOVE_LIKE },
	{ "fist", IC_MOVE | MOVE_LIKE }, { "f", IC_FP_ADD },
};

static int by_prefix(const char *name, const struct name_class *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strncmp(name, t[i].name, strlen(t[i].name)))
			return t[i].cls;
	return -1;
}

/* SSE/AVX floating point by operation and type suffix (ss, sd, ps, pd). */
static const struct name_class fp_ops[] = {
	{ "add", IC_FP_ADD }, { "sub", IC_FP_ADD }, { "addsub", IC_FP_ADD },
	{ "hadd", IC_FP_ADD }, { "hsub", IC_FP_ADD }, { "min", IC_FP_ADD },
	{ "max", IC_FP_ADD }, { "cmp", IC_FP_ADD }, { "comi", IC_FP_ADD },
	{ "ucomi", IC_FP_ADD }, { "round", IC_FP_ADD }, { "mul", IC_FP_MUL },
	{ "dp", IC_FP_MUL }, { "div", IC_FP_DIV }, { "sqrt", IC_FP_DIV },
	{ "rsqrt", IC_FP_DIV }, { "rcp", IC_FP_DIV },
};

static int fp_class(const char *name)
{
	size_t n = strlen(name);
	if (n < 3)
		return -1;
	const char *t = name + n - 2;
	if (strcmp(t, "ss") && strcmp(t, "sd") && strcmp(t, "ps") && strcmp(t, "pd"))
		return -1;
	for (size_t i = 0; i < sizeof fp_ops / sizeof fp_ops[0]; i++)
		if (strlen(fp_ops[i].name) == n - 2 && !strncmp(name, fp_ops[i].name, n - 2))
			return fp_ops[i].cls;
	return -1;
}

static int has_group(const cs_insn *in, unsigned g)
{
	for (unsigned i = 0; i < in->detail->groups_count; i++)
		if (in->detail->groups[i] == g)
			return 1;
	return 0;
}

static int is_simd(const cs_insn *in)
{
	for (unsigned i = 0; i < in->detail->groups_count; i++) {
		unsigned g = in->detail->groups[i];
		if ((g >= X86_GRP_AVX && g <= X86_GRP_AVX512) || g == X86_GRP_FMA ||
		    g == X86_GRP_F16C || g == X86_GRP_MMX || g == X86_GRP_SSE1 ||
		    g == X86_GRP_SSE2 || g == X86_GRP_SSE3 || g == X86_GRP_SSE41 ||
		    g == X86_GRP_SSE42 || g == X86_GRP_SSE4A || g == X86_GRP_SSSE3 ||
		    g == X86_GRP_FMA4 || g == X86_GRP_XOP || g == X86_GRP_AES ||
		    g == X86_GRP_PCLMUL || g == X86_GRP_SHA)
			return 1;
	}
	return 0;
}

static int reg_operand_is_vec(const cs_x86 *x)
{
	for (unsigned i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_REG &&
		    insn_x86_regnum(x->operands[i].reg) >= INSN_REG_VEC0)
			return 1;
	return 0;
}

static int control_register(const cs_x86 *x)
{
	for (unsigned i = 0; i < x->op_count; i++) {
		unsigned r = x->operands[i].reg;
		if (x->operands[i].type == X86_OP_REG &&
		    ((r >= X86_REG_CR0 && r <= X86_REG_CR15) || (r >= X86_REG_DR0 && r <= X86_REG_DR15)))
			return 1;
	}
	return 0;
}

/* The class (with MOVE_LIKE) by name; string names with xmm operands are SSE moves and
 * compares. */
static unsigned classify(csh h, const cs_insn *in)
{
	const cs_x86 *x = &in->detail->x86;
	const char *name = cs_insn_name(h, in->id);
	if (!name)
		return IC_OTHER;
	if (control_register(x))
		return IC_SYSTEM;
	for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++) {
		if (strcmp(name, exact[i].name))
			continue;
		if (exact[i].cls == IC_STRING && reg_operand_is_vec(x))
			break;
		return exact[i].cls;
	}
	if (name[0] == 'v' && is_simd(in))
		name++;
	int fp = fp_class(name);
	if (fp >= 0)
		return (unsigned)fp;
	int c = by_prefix(name, prefixes, sizeof prefixes / sizeof prefixes[0]);
	if (c >= 0)
		return (unsigned)c;
	if (is_simd(in))
		return IC_VEC;
	c = by_prefix(name, x87, sizeof x87 / sizeof x87[0]);
	return c >= 0 ? (unsigned)c : IC_OTHER;
}

static void add_reg(struct insn_regs *set, unsigned reg)
{
	int n = insn_x86_regnum(reg);
	if (n >= 0)
		insn_regs_add(set, (unsigned)n);
}

/* xor/sub/pxor/xorps... of a register with itself: a zero idiom, no input. */
static int zero_idiom(csh h, const cs_insn *in)
{
	static const char *const names[] = { "xor", "sub", "pxor", "xorps", "xorpd", "psubb",
					     "psubw", "psubd", "psubq", "vpxor", "vxorps",
					     "vxorpd", "vpsubb", "vpsubw", "vpsubd", "vpsubq",
					     "vpxord", "vpxorq" };
	const cs_x86 *x = &in->detail->x86;
	const char *name = cs_insn_name(h, in->id);
	int hit = 0;
	for (size_t i = 0; name && i < sizeof names / sizeof names[0]; i++)
		hit |= !strcmp(name, names[i]);
	if (!hit || x->op_count < 2)
		return 0;
	for (unsigned i = 0; i < x->op_count; i++)
		if (x->operands[i].type != X86_OP_REG)
			return 0;
	/* two-operand form: both the same; three-operand (AVX): the two sources the same */
	unsigned a = x->operands[0].reg, b = x->operands[1].reg;
	return a == b;
}

static void facts(const cs_insn *in, struct insn_facts *xf)
{
	const cs_x86 *x = &in->detail->x86;
	memset(xf, 0, sizeof(*xf));
	xf->id = in->id;
	xf->nops = x->op_count;
	for (unsigned i = 0; i < x->op_count && i < 2; i++) {
		const cs_x86_op *op = &x->operands[i];
		struct opnd_facts *o = &xf->op[i];
		int n;
		o->type = (uint8_t)op->type;
		o->reg = o->base = o->index = XREG_NONE;
		switch (op->type) {
		case X86_OP_REG:
			n = insn_x86_regnum(op->reg);
			o->reg = n < 0 ? XREG_NONE : (uint8_t)n;
			break;
		case X86_OP_IMM:
			o->imm = op->imm;
			break;
		case X86_OP_MEM:
			if (op->mem.base == X86_REG_RIP) {
				o->base = XREG_RIP;
			} else {
				n = insn_x86_regnum(op->mem.base);
				o->base = n < 0 ? XREG_NONE : (uint8_t)n;
			}
			n = insn_x86_regnum(op->mem.index);
			o->index = n < 0 ? XREG_NONE : (uint8_t)n;
			o->scale = (uint8_t)op->mem.scale;
			o->imm = op->mem.disp;
			break;
		default:
			break;
		}
	}
}

static void flow(const cs_insn *in, struct insn *o)
{
	const cs_x86 *x = &in->detail->x86;
	int direct = x->op_count == 1 && x->operands[0].type == X86_OP_IMM;
	uint64_t target = direct ? (uint64_t)x->operands[0].imm : 0;

	switch (in->id) {
	case X86_INS_JMP:
	case X86_INS_LJMP:
		o->flow = direct ? INSN_FLOW_JUMP : INSN_FLOW_INDIRECT;
		o->target = target;
		return;
	case X86_INS_LOOP:
	case X86_INS_LOOPE:
	case X86_INS_LOOPNE:
		o->flow = INSN_FLOW_COND;
		o->target = target;
		return;
	case X86_INS_HLT:
	case X86_INS_UD2:
	case X86_INS_UD2B:
	case X86_INS_UD0:
	case X86_INS_INT3:
		o->flow = INSN_FLOW_STOP;
		return;
	}
	if (has_group(in, CS_GRP_JUMP)) {
		o->flow = INSN_FLOW_COND;
		o->target = target;
	} else if (has_group(in, CS_GRP_CALL)) {
		o->flow = INSN_FLOW_CALL;
		o->target = target;
	} else if (has_group(in, CS_GRP_RET) || has_group(in, CS_GRP_IRET)) {
		o->flow = INSN_FLOW_RETURN;
	}
}

/* What a string instruction does to memory, by its name (capstone's operand access is
 * wrong for some: rep stos reads). */
static uint8_t string_access(const char *name)
{
	static const struct { const char *prefix; uint8_t mem; } t[] = {
		{ "movs", INSN_MEM_LOAD | INSN_MEM_STORE }, { "stos", INSN_MEM_STORE },
		{ "lods", INSN_MEM_LOAD }, { "scas", INSN_MEM_LOAD }, { "cmps", INSN_MEM_LOAD },
		{ "ins", INSN_MEM_STORE }, { "outs", INSN_MEM_LOAD },
	};
	for (size_t i = 0; name && i < sizeof t / sizeof t[0]; i++)
		if (!strncmp(name, t[i].prefix, strlen(t[i].prefix)))
			return t[i].mem;
	return INSN_MEM_LOAD | INSN_MEM_STORE;
}

#define FLAGS_TESTED (X86_EFLAGS_TEST_OF | X86_EFLAGS_TEST_SF | X86_EFLAGS_TEST_ZF | \
			 X86_EFLAGS_TEST_PF | X86_EFLAGS_TEST_CF | X86_EFLAGS_TEST_AF | \
			 X86_EFLAGS_TEST_DF)
#define FLAGS_CHANGED (X86_EFLAGS_MODIFY_AF | X86_EFLAGS_MODIFY_CF | X86_EFLAGS_MODIFY_SF | \
			  X86_EFLAGS_MODIFY_ZF | X86_EFLAGS_MODIFY_PF | X86_EFLAGS_MODIFY_OF | \
			  X86_EFLAGS_MODIFY_DF | X86_EFLAGS_RESET_OF | X86_EFLAGS_RESET_CF | \
			  X86_EFLAGS_RESET_SF | X86_EFLAGS_RESET_AF | X86_EFLAGS_RESET_PF | \
			  X86_EFLAGS_RESET_ZF | X86_EFLAGS_RESET_DF | X86_EFLAGS_SET_CF | \
			  X86_EFLAGS_SET_DF | X86_EFLAGS_SET_OF | X86_EFLAGS_SET_SF | \
			  X86_EFLAGS_SET_ZF | X86_EFLAGS_SET_AF | X86_EFLAGS_SET_PF | \
			  X86_EFLAGS_UNDEFINED_OF | X86_EFLAGS_UNDEFINED_SF | \
			  X86_EFLAGS_UNDEFINED_ZF | X86_EFLAGS_UNDEFINED_PF | \
			  X86_EFLAGS_UNDEFINED_AF | X86_EFLAGS_UNDEFINED_CF)

void insn_x86_fill(csh h, const cs_insn *in, struct insn *o, struct insn_facts *xf)
{
	const cs_x86 *x = &in->detail->x86;
	unsigned cls;
	uint8_t mem = 0;

	facts(in, xf);
	flow(in, o);
	for (unsigned i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];
		if (op->type != X86_OP_MEM)
			continue;
		mem |= op->access & CS_AC_WRITE ? INSN_MEM_STORE : 0;
		mem |= op->access & CS_AC_READ || !op->access ? INSN_MEM_LOAD : 0;
	}
	if (o->flow == INSN_FLOW_STOP) {
		cls = IC_SYSTEM;
	} else if (o->flow != INSN_FLOW_NEXT) {
		cls = IC_BRANCH;
		if (o->flow == INSN_FLOW_CALL)
			mem |= INSN_MEM_STORE;
		else if (o->flow == INSN_FLOW_RETURN)
			mem |= INSN_MEM_LOAD;
	} else {
		cls = classify(h, in);
		if (cls == IC_NOP || cls == IC_SYSTEM || (cls == IC_ALU && in->id == X86_INS_LEA))
			mem = 0;
		if ((cls & MOVE_LIKE) && mem)
			cls = mem & INSN_MEM_LOAD ? IC_LOAD : IC_STORE;
		cls &= ~(unsigned)MOVE_LIKE;
		if (cls == IC_STORE)
			mem |= INSN_MEM_STORE;
		else if (cls == IC_LOAD)
			mem |= INSN_MEM_LOAD;
		if (cls == IC_STRING) {
			mem = string_access(cs_insn_name(h, in->id));
			o->rep = x->prefix[0] == X86_PREFIX_REP || x->prefix[0] == X86_PREFIX_REPNE;
		}
		/* compares read their memory operand; capstone marks some as written too */
		if (in->id == X86_INS_CMP || in->id == X86_INS_TEST || in->id == X86_INS_BT)
			mem &= INSN_MEM_LOAD;
	}
	o->cls = (uint8_t)cls;
	o->mem = mem;

	cs_regs rd, wr;
	uint8_t nrd = 0, nwr = 0;
	if (cs_regs_access(h, in, rd, &nrd, wr, &nwr) == CS_ERR_OK) {
		for (unsigned i = 0; i < nrd; i++)
			add_reg(&o->rd, rd[i]);
		for (unsigned i = 0; i < nwr; i++)
			add_reg(&o->wr, wr[i]);
	}
	/* the arithmetic flags from capstone's flag table, which cs_regs_access misses for
	 * some instructions (xadd); the table is not for x87 and gives SSE movsd/cmpsd the
	 * string instructions' direction flag */
	if (!has_group(in, X86_GRP_FPU) && !is_simd(in)) {
		if (x->eflags & FLAGS_TESTED)
			insn_regs_add(&o->rd, INSN_REG_FLAGS_X86);
		if (x->eflags & FLAGS_CHANGED)
			insn_regs_add(&o->wr, INSN_REG_FLAGS_X86);
	}
	if (o->cls == IC_NOP) {
		memset(&o->rd, 0, sizeof(o->rd));
		memset(&o->wr, 0, sizeof(o->wr));
	} else if (zero_idiom(h, in)) {
		o->cls = IC_MOVE;
		memset(&o->rd, 0, sizeof(o->rd));
	}
}
