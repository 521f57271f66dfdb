/* SPDX-License-Identifier: BSD-2-Clause */
/* Result lines and statuses (bhive_result.h). */
#include <capstone/capstone.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bhive/bhive_access.h"
#include "bhive/bhive_result.h"

#define EC_SP_ALIGN 0x26

static const char *const names[BHIVE_NSTATUS_ALL] = {
	[BHIVE_OK] = "ok",
	[BHIVE_UNMAPPABLE] = "unmappable",
	[BHIVE_NONCANONICAL] = "noncanonical",
	[BHIVE_TOO_MANY_FAULTS] = "too-many-faults",
	[BHIVE_CONTROL_FLOW] = "control-flow",
	[BHIVE_MISALIGNED] = "misaligned",
	[BHIVE_ALIASING] = "aliasing",
	[BHIVE_UNSTABLE] = "unstable",
	[BHIVE_DIVIDE_ERROR] = "divide-error",
	[BHIVE_INVALID_OPCODE] = "invalid-opcode",
	[BHIVE_GENERAL_PROTECTION] = "general-protection",
	[BHIVE_FAULT] = "fault",
	[BHIVE_TOO_LONG] = "too-long",
	[BHIVE_PRIVILEGED] = "privileged",
	[BHIVE_UNDECODABLE] = "undecodable",
	[BHIVE_NOT_RUN] = "not-run",
};

const char *bhive_status_name(int status)
{
	return status >= 0 && status < BHIVE_NSTATUS_ALL && names[status] ? names[status] :
		"fault";
}

int bhive_parse_line(const char *line, uint32_t *index, struct bhive_result *r)
{
	int used = 0;
	unsigned idx;

	memset(r, 0, sizeof *r);
	if (sscanf(line, "@bhive %u %d %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		   " %u %u %u %u %u %u %ld %" SCNx64 " %ld %" SCNx64 "%n", &idx, &r->status,
		   &r->t_lo, &r->t_hi, &r->cal_lo, &r->cal_hi, &r->faults, &r->pages,
		   &r->written, &r->kept_lo, &r->kept_hi, &r->rounds, &r->vector, &r->error,
		   &r->offset, &r->addr, &used) < 16 || !used)
		return -1;
	if (r->status < 0 || r->status >= BHIVE_NSTATUS)
		return -1;
	line += used;
	r->have_regs = 1;
	for (unsigned i = 0; i < 16 && r->have_regs; i++) {
		int k = 0;
		if (sscanf(line, " %" SCNx64 "%n", &r->regs[i], &k) < 1 || !k)
			r->have_regs = 0;
		line += k;
	}
	*index = idx;
	r->have = 1;
	return 0;
}

int bhive_parse_clock(const char *line, char *clock, size_t n)
{
	char c[8];

	if (strncmp(line, "@bhive-clock ", 13) || sscanf(line + 13, "%7s", c) != 1)
		return -1;
	snprintf(clock, n, "%s", c);
	return 0;
}

static int open_x86(csh *h)
{
	if (cs_open(CS_ARCH_X86, CS_MODE_64, h) != CS_ERR_OK)
		return -1;
	cs_option(*h, CS_OPT_DETAIL, CS_OPT_ON);
	return 0;
}

static int in_group(const cs_insn *in, int g)
{
	for (unsigned i = 0; i < in->detail->groups_count; i++)
		if (in->detail->groups[i] == g)
			return 1;
	return 0;
}

int bhive_precheck(const uint8_t *code, size_t len, unsigned *insns, size_t *bad_offset)
{
	static const int leave[] = { X86_GRP_JUMP, X86_GRP_CALL, X86_GRP_RET, X86_GRP_INT,
				     X86_GRP_IRET, X86_GRP_BRANCH_RELATIVE };
	const uint8_t *p = code;
	uint64_t addr = 0;
	size_t left = len;
	int st = BHIVE_OK;
	cs_insn *in;
	csh h;

	*insns = 0;
	if (open_x86(&h))
		return BHIVE_OK;   /* no decoder: the harness tells */
	in = cs_malloc(h);
	while (left && st == BHIVE_OK) {
		if (!cs_disasm_iter(h, &p, &left, &addr, in)) {
			*bad_offset = (size_t)(p - code);
			st = BHIVE_UNDECODABLE;
			break;
		}
		++*insns;
		for (unsigned i = 0; i < sizeof leave / sizeof *leave; i++)
			if (in_group(in, leave[i]))
				st = BHIVE_CONTROL_FLOW;
	}
	cs_free(in, 1);
	cs_close(&h);
	return st;
}

/* A64's branch and exception-generating encodings (the Arm ARM's "Branches, Exception
 * Generating and System instructions" group, less the system instructions) */
static int a64_leaves(uint32_t i)
{
	return (i & 0x7C000000u) == 0x14000000u ||   /* B, BL */
	       (i & 0xFF000000u) == 0x54000000u ||   /* B.cond, BC.cond */
	       (i & 0x7E000000u) == 0x34000000u ||   /* CBZ, CBNZ */
	       (i & 0x7E000000u) == 0x36000000u ||   /* TBZ, TBNZ */
	       (i & 0xFE000000u) == 0xD6000000u ||   /* BR, BLR, RET, ERET, DRPS (and PAC) */
	       (i & 0xFF000000u) == 0xD4000000u;     /* SVC, HVC, SMC, BRK, HLT, DCPS */
}

int bhive_precheck_a64(const uint8_t *code, size_t len, unsigned *insns, size_t *bad_offset)
{
	*insns = (unsigned)(len / 4);
	for (size_t at = 0; at + 4 <= len; at += 4) {
		uint32_t i = (uint32_t)code[at] | (uint32_t)code[at + 1] << 8 |
			(uint32_t)code[at + 2] << 16 | (uint32_t)code[at + 3] << 24;
		if (a64_leaves(i))
			return BHIVE_CONTROL_FLOW;
	}
	if (len % 4) {
		*bad_offset = len & ~(size_t)3;
		return BHIVE_UNDECODABLE;
	}
	return BHIVE_OK;
}

/* The register's value at the fault, for the 64-bit general registers; -1 if other. */
static int reg_index(unsigned reg)
{
	static const unsigned order[16] = { X86_REG_RAX, X86_REG_RCX, X86_REG_RDX, X86_REG_RBX,
					    X86_REG_RSP, X86_REG_RBP, X86_REG_RSI, X86_REG_RDI,
					    X86_REG_R8, X86_REG_R9, X86_REG_R10, X86_REG_R11,
					    X86_REG_R12, X86_REG_R13, X86_REG_R14, X86_REG_R15 };

	for (int i = 0; i < 16; i++)
		if (order[i] == reg)
			return i;
	return -1;
}

static int canonical(uint64_t a)
{
	return (uint64_t)((int64_t)(a << 16) >> 16) == a;
}

int bhive_refine_gp(const uint8_t *code, size_t len, long offset, const uint64_t regs[16])
{
	int st = BHIVE_GENERAL_PROTECTION;
	cs_insn *in = NULL;
	csh h;

	if (offset < 0 || (size_t)offset >= len || open_x86(&h))
		return st;
	if (cs_disasm(h, code + offset, len - (size_t)offset, 0, 1, &in) == 1) {
		const cs_x86 *x = &in->detail->x86;
		if (in_group(in, X86_GRP_PRIVILEGE))
			st = BHIVE_PRIVILEGED;
		for (unsigned i = 0; i < x->op_count && st == BHIVE_GENERAL_PROTECTION && regs;
		     i++) {
			const x86_op_mem *m = &x->operands[i].mem;
			int b = reg_index(m->base), k = reg_index(m->index);
			if (x->operands[i].type != X86_OP_MEM || m->base == X86_REG_RIP ||
			    (m->base != X86_REG_INVALID && b < 0) ||
			    (m->index != X86_REG_INVALID && k < 0))
				continue;
			uint64_t ea = (uint64_t)m->disp + (b >= 0 ? regs[b] : 0) +
				(k >= 0 ? regs[k] * (uint64_t)m->scale : 0);
			if (!canonical(ea))
				st = BHIVE_NONCANONICAL;
		}
		cs_free(in, 1);
	}
	cs_close(&h);
	return st;
}

const char *bhive_misaligned_name(int why)
{
	static const char *const n[] = { "line-split", "undescribed", "strict", "sp" };
	return why >= 0 && why < (int)(sizeof n / sizeof *n) ? n[why] : "line-split";
}

void bhive_misaligned_reason(int a64, const uint8_t *code, size_t len, struct bhive_result *r)
{
	static struct bhive_in_access acc[BHIVE_MAX_ACCESS];
	unsigned n = bhive_accesses(a64, code, len, acc, BHIVE_MAX_ACCESS);
	const struct bhive_in_access *a = bhive_access_at(acc, n, r->offset);

	r->acc_size = a ? a->size : 0;
	if (a64 && r->vector == EC_SP_ALIGN)
		r->misaligned = BHIVE_MIS_SP, r->acc_size = 0;
	else if (!a)
		r->misaligned = BHIVE_MIS_UNDESCRIBED;
	else if (bhive_splits_line(r->addr, a->size))
		r->misaligned = BHIVE_MIS_SPLIT;
	else
		r->misaligned = BHIVE_MIS_STRICT;
}

size_t bhive_again_unstable(struct bhive_result *res, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (res[i].have && res[i].ran && res[i].status == BHIVE_UNSTABLE) {
			res[i].have = 0;
			k++;
		}
	return k;
}
