/* SPDX-License-Identifier: BSD-2-Clause */
/* RISC-V (RV64GC) disassembly of one instruction, for a capstone without RISC-V (4.x):
 * the 32-bit base, M, A, F and D, Zicsr, Zifencei, and the compressed forms, which are
 * shown as the instructions they expand to (as objdump shows them). */
#ifndef BMPROF_DISASM_RV_H
#define BMPROF_DISASM_RV_H

#include <stddef.h>
#include <stdint.h>

/* The instruction at code[0..len) at address addr: its size (2 or 4) with mnemonic and
 * operands filled (".insn" with the hex word when it is not known), or 0 when len is
 * shorter than the instruction. */
unsigned rv_disasm_one(const uint8_t *code, size_t len, uint64_t addr, char *mnemonic,
		       size_t mn, char *operands, size_t on);

#endif
