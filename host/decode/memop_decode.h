/* SPDX-License-Identifier: BSD-2-Clause */
/* The memory accesses (analysis/memop.h) of a decoded procedure's instructions, from
 * capstone: one struct memop per struct insn of an insn_func (insn_decode.h). */
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

#endif
