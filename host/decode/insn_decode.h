/* SPDX-License-Identifier: BSD-2-Clause */
/* Decoding a procedure of an ELF image into the analyses' instruction records
 * (analysis/insn.h), through capstone with details on: control flow, class, memory
 * access, registers read and written, and jump tables (x86-64, AArch64) recovered from
 * the image's read-only data where gcc's idiom is recognised. An indirect jump that is a
 * tail call (after the frame is torn down, or through x16/x17 on AArch64) is a return.
 * RISC-V (capstone 4 has none) is decoded by host/decode/insn_rv.c. */
#ifndef BMPROF_INSN_DECODE_H
#define BMPROF_INSN_DECODE_H

#include <stddef.h>
#include <stdint.h>
#include "insn.h"

struct insn_func {
	char name[256];
	uint64_t start, end;        /* link-time addresses [start, end) */
	struct insn *insns;
	size_t n;
	unsigned arch;              /* enum bmprof_arch */
	uint64_t *target_pool;      /* storage for the insns' jump-table targets */
	size_t ntarget_pool;
	uint8_t *code;              /* the bytes of [start, end) when loaded from an ELF; or NULL */
};

/* Reads len bytes at link address addr from the image; 0, or -1 if not in a loaded,
 * file-backed section. */
typedef int (*insn_read_fn)(void *ctx, uint64_t addr, void *buf, size_t len);

/* Decode code[0..len) at link address addr for ELF machine (EM_X86_64, EM_AARCH64,
 * EM_ARM for Cortex-M Thumb, EM_RISCV).
 * read (may be NULL) gives access to the image for jump tables. 0, or -1 with err. */
int insn_decode(int machine, const uint8_t *code, size_t len, uint64_t addr,
		insn_read_fn read, void *ctx, struct insn_func *f, char *err, size_t errlen);
/* The same, with the data inside the code (sorted, disjoint; symbolizer_data_ranges: a
 * Cortex-M function's literal pools) left out of f->insns: never decoded, never counted. */
struct sym_range;
int insn_decode_data(int machine, const uint8_t *code, size_t len, uint64_t addr,
		     const struct sym_range *data, size_t ndata, insn_read_fn read, void *ctx,
		     struct insn_func *f, char *err, size_t errlen);

/* The function named name (or containing address 0xADDR when name is "0x...") of the ELF
 * file path, decoded. 0, or -1 with a one-line reason in err (no such file, not an ELF,
 * stripped, no such function, ...). */
int insn_func_load(const char *path, const char *name, struct insn_func *f, char *err,
		   size_t errlen);

/* Every function symbol (STT_FUNC, size > 0) of the ELF, sorted by address, decoded;
 * *fs is malloc'd. Aliases appear once; symbols whose bytes are not in the file (_etext)
 * are left out, and so is one that starts inside the function before it (its bytes are
 * that one's). 0, or -1 with err. */
int insn_func_load_all(const char *path, struct insn_func **fs, size_t *n, char *err,
		       size_t errlen);

void insn_func_free(struct insn_func *f);
void insn_funcs_free(struct insn_func *fs, size_t n);

#endif
