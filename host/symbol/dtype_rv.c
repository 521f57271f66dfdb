/* SPDX-License-Identifier: BSD-2-Clause */
/* RISC-V instructions as the data-type walk sees them (dtype_internal.h), from the
 * project's RISC-V instruction words (symbol/rv_insn.h, compressed forms expanded) and
 * their memory accesses (decode/memop_rv.c): register moves (mv, addi), address
 * constants (lui, auipc, li), pointer loads (ld), and one instruction's memory operand.
 * DWARF numbers x0..x31 as 0..31, the register numbers themselves. An address relative
 * to gp (x3), which the runtime sets to the linker's __global_pointer$ and nothing
 * changes, is a fixed address. */
#include <gelf.h>
#include <string.h>

#include "decode/memop_decode.h"
#include "symbol/dtype_internal.h"
#include "symbol/rv_insn.h"

#define RV_GP 3

int dt_rv_gp(Elf *elf, uint64_t *gp)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		for (size_t i = 0; data && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *n;

			if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF)
				continue;
			n = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (n && !strcmp(n, "__global_pointer$")) {
				*gp = sym.st_value;
				return 0;
			}
		}
	}
	return -1;
}

void dt_kind_rv(const struct dtype *d, uint32_t w, uint64_t addr, struct dt_ins *o)
{
	unsigned rd = RV_RD(w), rs1 = RV_RS1(w), rs2 = RV_RS2(w);

	if (!rd)
		return;
	o->dst = (int8_t)rd;
	switch (RV_OP(w)) {
	case 0x37:                              /* lui */
		o->kind = DT_ABS;
		o->imm = rv_imm_u(w);
		return;
	case 0x17:                              /* auipc */
		o->kind = DT_ABS;
		o->imm = (int64_t)(addr + (uint64_t)rv_imm_u(w));
		return;
	case 0x13:                              /* addi: mv, li, an address + offset */
		if (RV_F3(w))
			return;
		if (!rs1 || (rs1 == RV_GP && d->have_gp)) {
			o->kind = DT_ABS;
			o->imm = (int64_t)((rs1 ? d->gp : 0) + (uint64_t)rv_imm_i(w));
		} else {
			o->kind = rv_imm_i(w) ? DT_LEA : DT_MOV;
			o->src = (int8_t)rs1;
			o->imm = rv_imm_i(w);
		}
		return;
	case 0x33:                              /* add with x0: mv (c.mv) */
		if (RV_F3(w) || RV_F7(w) || (rs1 && rs2))
			return;
		if (rs1 || rs2) {
			o->kind = DT_MOV;
			o->src = (int8_t)(rs1 | rs2);
		}
		return;
	case 0x03:                              /* ld: a whole register */
		if (RV_F3(w) != 3)
			return;
		if (!rs1 || (rs1 == RV_GP && d->have_gp)) {
			o->kind = DT_LOADABS;
			o->imm = (int64_t)((rs1 ? d->gp : 0) + (uint64_t)rv_imm_i(w));
		} else {
			o->kind = DT_LOAD;
			o->src = (int8_t)rs1;
			o->imm = rv_imm_i(w);
		}
		return;
	}
}

int dt_mem_rv(const struct dtype *d, uint32_t w, struct dtype_mem *mem)
{
	struct memop m;
	const struct memop_access *a;

	memset(&m, 0, sizeof(m));
	m.ld.base = m.st.base = MEMOP_NOREG;
	if (memop_rv_fill(w, &m) || (!m.ld.valid && !m.st.valid))
		return -1;
	a = m.ld.valid ? &m.ld : &m.st;
	mem->index = -1;
	mem->disp = a->disp;
	mem->size = a->size;
	mem->load = m.ld.valid;
	mem->store = m.st.valid;
	if (a->base == MEMOP_NOREG || (a->base == RV_GP && d->have_gp)) {
		mem->base = -1;
		mem->absolute = 1;
		mem->addr = (a->base == RV_GP ? d->gp : 0) + (uint64_t)a->disp;
	} else {
		mem->base = a->base;
	}
	return 0;
}
