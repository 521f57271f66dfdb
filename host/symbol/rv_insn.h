/* SPDX-License-Identifier: BSD-2-Clause */
/* The RISC-V (RV64GC) instruction word layer shared by the disassembler (disasm_rv.c) and
 * the CPI analysis' instruction facts (host/decode/insn_rv.c): fetching one instruction,
 * a compressed one expanded to the 32-bit instruction it stands for, and the fields and
 * immediates of the 32-bit formats. */
#ifndef BMPROF_RV_INSN_H
#define BMPROF_RV_INSN_H

#include <stddef.h>
#include <stdint.h>

#define RV_BITS(v, hi, lo) (((v) >> (lo)) & ((1u << ((hi) - (lo) + 1)) - 1))

#define RV_OP(w) ((w) & 0x7fu)
#define RV_RD(w) RV_BITS(w, 11, 7)
#define RV_RS1(w) RV_BITS(w, 19, 15)
#define RV_RS2(w) RV_BITS(w, 24, 20)
#define RV_RS3(w) ((w) >> 27)
#define RV_F3(w) RV_BITS(w, 14, 12)
#define RV_F7(w) ((w) >> 25)

/* v's low bits as a signed number. */
int64_t rv_sext(uint64_t v, unsigned bits);

/* The immediates of the I, S, B (branch offset), U (already << 12) and J (jal offset)
 * formats. */
int64_t rv_imm_i(uint32_t w);
int64_t rv_imm_s(uint32_t w);
int64_t rv_imm_b(uint32_t w);
int64_t rv_imm_u(uint32_t w);
int64_t rv_imm_j(uint32_t w);

/* The instruction at code[0..len): its size (2 or 4) with *w the 32-bit instruction (a
 * compressed one expanded; 0 when it is reserved, unknown or the all-zero illegal
 * instruction), or 0 when len is shorter than the instruction. */
unsigned rv_fetch(const uint8_t *code, size_t len, uint32_t *w);

#endif
