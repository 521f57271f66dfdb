/* SPDX-License-Identifier: BSD-2-Clause */
/* Disassembly through capstone (RISC-V through disasm_rv.c). x86 uses AT&T syntax, as
 * objdump does by default. */
#ifndef BMPROF_DISASM_H
#define BMPROF_DISASM_H

#include <stddef.h>
#include <stdint.h>

struct disasm_insn {
	uint64_t addr;
	uint16_t size;
	char mnemonic[32];
	char operands[160];
};

struct disasm;
/* machine: ELF e_machine (EM_X86_64, EM_386, EM_AARCH64 or EM_RISCV, which disasm_rv.c
 * decodes: no details for it). NULL with err on failure. */
struct disasm *disasm_open(int machine, char *err, size_t errlen);
/* The same with capstone's instruction details on (operands, groups, registers), for
 * decoders that read them: disasm_handle gives the capstone handle (a csh) to pass to
 * cs_disasm_iter. */
struct disasm *disasm_open_detail(int machine, char *err, size_t errlen);
size_t disasm_handle(const struct disasm *d);
void disasm_close(struct disasm *d);
/* Disassemble code (at link address addr) into a malloc'd array; returns the count, or -1.
 * Undecodable bytes become a ".byte" pseudo-instruction, so every byte is accounted for. */
long disasm_range(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr,
		  struct disasm_insn **out);
/* The same with the data inside the code (sorted, disjoint; symbolizer_data_ranges) shown
 * as objdump shows it, `.word 0x...` (a `.short` or `.byte` tail), never decoded. */
struct sym_range;
long disasm_range_data(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr,
		       const struct sym_range *data, size_t ndata, struct disasm_insn **out);

#endif
