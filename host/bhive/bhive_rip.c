/* SPDX-License-Identifier: BSD-2-Clause */
/* Rip-relative operands for the harness (bhive_rip.h). */
#include <capstone/capstone.h>
#include <string.h>

#include "bhive/bhive_rip.h"

/* a displacement this large would not reach BHIVE_RIP_BASE from the code in 32 bits */
#define DISP_LIMIT ((1ll << 31) - (long long)(BHIVE_RIP_BASE - 0x7f0000000000ull) - \
		    2 * BHIVE_CODE_MAX)

struct want {
	long long target;                /* end + disp: the block's own address excluded */
	unsigned size;                   /* the alignment it wants, a power of two */
};

static unsigned pow2_size(unsigned s)
{
	unsigned p = 1;

	while (p * 2 <= s && p < 64)
		p *= 2;
	return p;
}

/* Where in the instruction at p (size bytes) its disp32 is: capstone's offset when the
 * bytes there are the displacement (capstone 4's does not count an operand-size prefix),
 * else the one place that holds it; -1 when none or several do. */
static int find_disp(const uint8_t *p, unsigned size, unsigned hint, int64_t disp)
{
	int found = -1;

	for (unsigned k = 0; k + 4 <= size; k++) {
		int32_t v;
		memcpy(&v, p + k, 4);
		if (v != disp)
			continue;
		if (k == hint)
			return (int)k;
		found = found < 0 ? (int)k : -2;
	}
	return found < 0 ? -1 : found;
}

/* The address modulo 64 that aligns the most operands, each counted by its size (an
 * aligned SSE operand must be, or it faults); the smallest of equals. */
static unsigned best_align(const struct want *w, unsigned n)
{
	unsigned best = 0, best_n = 0;

	for (unsigned r = 0; r < 64; r++) {
		unsigned ok = 0;
		for (unsigned i = 0; i < n; i++)
			if (!((unsigned long long)(w[i].target + r) & (w[i].size - 1)))
				ok += w[i].size;
		if (ok > best_n)
			best = r, best_n = ok;
	}
	return best;
}

unsigned bhive_rip_operands(const uint8_t *code, size_t len, struct bhive_in_rip *out,
			    unsigned *align)
{
	struct want w[BHIVE_MAX_RIP];
	const uint8_t *p = code;
	uint64_t addr = 0;
	size_t left = len;
	unsigned n = 0;
	int bad = 0;
	cs_insn *in;
	csh h;

	*align = 0;
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK)
		return 0;
	cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
	in = cs_malloc(h);
	while (left && !bad) {
		size_t at = (size_t)(p - code);
		if (!cs_disasm_iter(h, &p, &left, &addr, in))
			break;
		const cs_x86 *x = &in->detail->x86;
		for (unsigned i = 0; i < x->op_count && !bad; i++) {
			const cs_x86_op *op = &x->operands[i];
			if (op->type != X86_OP_MEM || op->mem.base != X86_REG_RIP)
				continue;
			int d = find_disp(code + at, in->size, x->encoding.disp_offset,
					  op->mem.disp);
			if (n == BHIVE_MAX_RIP || d < 1 || op->mem.disp >= DISP_LIMIT ||
			    op->mem.disp <= -DISP_LIMIT) {
				bad = 1;
				break;
			}
			out[n] = (struct bhive_in_rip){ (uint16_t)(at + (unsigned)d),
							(uint16_t)(at + in->size) };
			w[n].target = (long long)(at + in->size) + op->mem.disp;
			w[n].size = in->id == X86_INS_LEA ? 8 : pow2_size(op->size);
			n++;
		}
	}
	cs_free(in, 1);
	cs_close(&h);
	if (bad || left)
		return 0;
	*align = best_align(w, n);
	return n;
}
