/* SPDX-License-Identifier: BSD-2-Clause */
/* An interrupted register file, as a raw (register-carrying) sample delivers it, indexed by
 * DWARF register number so location lists and instruction operands name the same slots:
 *   x86-64   0..15 = rax, rdx, rcx, rbx, rsi, rdi, rbp, rsp, r8 .. r15
 *   AArch64  0..30 = x0 .. x30, 31 = sp
 *   RISC-V   0..31 = x0 .. x31 (2 = sp, 8 = s0/fp)
 * valid has bit n set when r[n] was captured. */
#ifndef BMPROF_REGFILE_H
#define BMPROF_REGFILE_H

#include <stdint.h>

#define REGFILE_MAX 32

struct regfile {
	uint8_t arch;              /* enum bmprof_arch (wire.h) */
	uint8_t n;                 /* slots r[0 .. n) the architecture has */
	uint32_t valid;            /* bit n: r[n] holds the captured value */
	uint64_t pc;               /* the delivered pc */
	uint64_t r[REGFILE_MAX];
};

static inline int regfile_has(const struct regfile *f, unsigned reg)
{
	return reg < REGFILE_MAX && (f->valid >> reg & 1u);
}

#endif
