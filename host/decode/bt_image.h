/* SPDX-License-Identifier: BSD-2-Clause */
/* Apropos backtracking (analysis/backtrack.h) against code: a procedure decoded from bytes
 * (bt_func: instructions, memory accesses, CFG), or an ELF image whose procedures are
 * decoded the first time a sample lands in them and kept (bt_image). */
#ifndef BMPROF_BT_IMAGE_H
#define BMPROF_BT_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "backtrack.h"
#include "cfg.h"
#include "memop.h"
#include "decode/insn_decode.h"

struct bt_func {
	struct insn_func fn;
	struct memop *memops;
	struct cfg cfg;
	int have_cfg;
};

/* Decode code[0..len) at link address addr (ELF machine EM_X86_64, EM_AARCH64 or
 * EM_RISCV) as one procedure; read/ctx as for insn_decode (may be NULL). 0, or -1 with
 * err. */
int bt_func_decode(int machine, const uint8_t *code, size_t len, uint64_t addr,
		   insn_read_fn read, void *ctx, struct bt_func *bf, char *err, size_t errlen);
void bt_func_free(struct bt_func *bf);
/* bt_resolve over the procedure. Returns r->status. */
int bt_func_resolve(const struct bt_func *bf, const struct bt_query *q, struct bt_result *r);

struct bt_image;
/* NULL with a one-line reason in err (cannot open, not x86-64/AArch64, stripped). */
struct bt_image *bt_image_open(const char *path, char *err, size_t errlen);
/* Backtrack a sample of the image: the procedure holding q->pc (or ending at it) by the
 * symbol table. 0 with r filled (BT_NOT_CODE when no procedure holds the pc, or its bytes
 * are not in the file), or -1 with err (out of memory). */
int bt_image_resolve(struct bt_image *im, const struct bt_query *q, struct bt_result *r,
		     char *err, size_t errlen);
void bt_image_close(struct bt_image *im);

#endif
