/* SPDX-License-Identifier: BSD-2-Clause */
/* Decoding a procedure's memory accesses (memop_decode.h): the instruction sweep of
 * insn_decode (capstone, one byte skipped where it cannot decode), kept in step with the
 * procedure's instruction records by address; RISC-V's own words at those records. */
#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/memop_decode.h"
#include "symbol/disasm.h"

static void none(struct memop *m, uint8_t flags)
{
	memset(m, 0, sizeof(*m));
	m->ld.base = m->ld.index = m->ld.post_reg = m->ld.post_index = MEMOP_NOREG;
	m->st = m->ld;
	m->flags = flags;
}

int memop_decode(int machine, const uint8_t *code, size_t len, const struct insn_func *f,
		 struct memop **out, char *err, size_t errlen)
{
	uint64_t addr = f->start;
	size_t i = 0;

	*out = NULL;
	if (machine != EM_X86_64 && machine != EM_AARCH64 && machine != EM_RISCV) {
		snprintf(err, errlen, "cannot decode memory accesses for ELF machine %d", machine);
		return -1;
	}
	struct memop *m = malloc((f->n ? f->n : 1) * sizeof(*m));
	if (m && machine == EM_RISCV) {
		for (size_t k = 0; k < f->n; k++)
			none(&m[k], MEMOP_F_UNDECODED);
		memop_rv_sweep(code, len, f, m);
		*out = m;
		return 0;
	}
	struct disasm *d = m ? disasm_open_detail(machine, err, errlen) : NULL;
	cs_insn *in = d ? cs_malloc((csh)disasm_handle(d)) : NULL;
	if (!in) {
		if (!m || (d && !in))
			snprintf(err, errlen, "out of memory decoding 0x%" PRIx64, f->start);
		if (d)
			disasm_close(d);
		free(m);
		return -1;
	}
	csh h = (csh)disasm_handle(d);
	for (size_t k = 0; k < f->n; k++)
		none(&m[k], MEMOP_F_UNDECODED);
	while (len && i < f->n) {
		uint64_t pc = addr;
		int ok = cs_disasm_iter(h, &code, &len, &addr, in);
		if (!ok) {
			code++, len--, addr++;
		}
		while (i < f->n && f->insns[i].addr < pc)
			i++;
		if (i == f->n || f->insns[i].addr != pc)
			continue;
		if (!ok || !in->id)
			continue;   /* stays MEMOP_F_UNDECODED */
		if (machine == EM_X86_64)
			memop_x86_fill(h, in, &f->insns[i], &m[i]);
		else
			memop_a64_fill(h, in, &f->insns[i], &m[i]);
		i++;
	}
	cs_free(in, 1);
	disasm_close(d);
	*out = m;
	return 0;
}
