/* SPDX-License-Identifier: BSD-2-Clause */
/* The memory accesses (analysis/memop.h) of a decoded procedure's instructions, from
 * capstone (RISC-V: from the project's own instruction words, memop_rv.c): one struct
 * memop per struct insn of an insn_func (insn_decode.h). */
#ifndef BMPROF_MEMOP_DECODE_H
#define BMPROF_MEMOP_DECODE_H

#include <capstone/capstone.h>
#include <stddef.h>
#include <stdint.h>

#include "insn.h"
#include "memop.h"
#include "decode/insn_decode.h"

/* memops[i] for f->insns[i], decoding code[0..len) (the bytes f was decoded from, at link
 * address f->start) again with the same sweep; *out is malloc'd (f->n entries). 0, or -1
 * with err. */
int memop_decode(int machine, const uint8_t *code, size_t len, const struct insn_func *f,
		 struct memop **out, char *err, size_t errlen);

/* One instruction (capstone details on; o as insn_x86_fill / insn_a64_fill made it). */
void memop_x86_fill(csh h, const cs_insn *in, const struct insn *o, struct memop *m);
void memop_a64_fill(csh h, const cs_insn *in, const struct insn *o, struct memop *m);

/* RISC-V (memop_rv.c, without capstone): the accesses of the 32-bit instruction w (a
 * compressed one expanded by rv_fetch) into m (left as memop_decode's empty record for an
 * instruction that makes none); -1 for a reserved load, store or atomic width. */
int memop_rv_fill(uint32_t w, struct memop *m);
/* m[i] for f->insns[i] of a RISC-V procedure decoded from code[0..len): records
 * initialised empty with MEMOP_F_UNDECODED, which stays on the bytes no instruction of
 * the decoding covers. */
void memop_rv_sweep(const uint8_t *code, size_t len, const struct insn_func *f,
		    struct memop *m);

#endif
