/* SPDX-License-Identifier: BSD-2-Clause */
/* Backtracking against decoded code (bt_image.h). */
#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/bt_image.h"
#include "decode/memop_decode.h"
#include "symbol/symbolize.h"

int bt_func_decode(int machine, const uint8_t *code, size_t len, uint64_t addr,
		   insn_read_fn read, void *ctx, struct bt_func *bf, char *err, size_t errlen)
{
	memset(bf, 0, sizeof(*bf));
	if (insn_decode(machine, code, len, addr, read, ctx, &bf->fn, err, errlen))
		return -1;
	if (memop_decode(machine, code, len, &bf->fn, &bf->memops, err, errlen)) {
		insn_func_free(&bf->fn);
		return -1;
	}
	/* without a CFG (no instructions, or out of memory building it) only the entry counts
	 * as a branch target: bt_resolve is told so by a NULL cfg */
	bf->have_cfg = bf->fn.n && !cfg_build(&bf->cfg, bf->fn.insns, bf->fn.n);
	if (bf->fn.n && !bf->have_cfg) {
		snprintf(err, errlen, "out of memory building the CFG of 0x%" PRIx64, addr);
		bt_func_free(bf);
		return -1;
	}
	return 0;
}

void bt_func_free(struct bt_func *bf)
{
	if (!bf)
		return;
	if (bf->have_cfg)
		cfg_free(&bf->cfg);
	insn_func_free(&bf->fn);
	free(bf->memops);
	memset(bf, 0, sizeof(*bf));
}

int bt_func_resolve(const struct bt_func *bf, const struct bt_query *q, struct bt_result *r)
{
	struct bt_code c = {
		.arch = bf->fn.arch, .insns = bf->fn.insns, .memops = bf->memops, .n = bf->fn.n,
		.cfg = bf->have_cfg ? &bf->cfg : NULL,
	};
	return bt_resolve(&c, q, r);
}

struct bt_image {
	struct symbolizer *s;
	int machine;
	size_t nfuncs;
	struct bt_func **funcs;   /* [nfuncs]: decoded on first use */
	uint8_t *failed;          /* [nfuncs]: bytes not in the file */
};

static int read_image(void *ctx, uint64_t addr, void *buf, size_t len)
{
	return symbolizer_read(ctx, addr, buf, len);
}

struct bt_image *bt_image_open(const char *path, char *err, size_t errlen)
{
	struct bt_image *im = calloc(1, sizeof(*im));
	if (!im) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	im->s = symbolizer_open(path, err, errlen);
	if (!im->s) {
		free(im);
		return NULL;
	}
	im->machine = symbolizer_machine(im->s);
	if (im->machine != EM_X86_64 && im->machine != EM_AARCH64 && im->machine != EM_RISCV) {
		snprintf(err, errlen, "%s is for ELF machine %d: backtracking supports x86-64, "
				      "AArch64 and RISC-V", path, im->machine);
		goto fail;
	}
	if (!symbolizer_has_symbols(im->s)) {
		snprintf(err, errlen, "%s has no symbol table (stripped): pass the unstripped "
				      "image", path);
		goto fail;
	}
	im->nfuncs = symbolizer_nfunctions(im->s);
	im->funcs = calloc(im->nfuncs ? im->nfuncs : 1, sizeof(*im->funcs));
	im->failed = calloc(im->nfuncs ? im->nfuncs : 1, 1);
	if (!im->funcs || !im->failed) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	return im;
fail:
	bt_image_close(im);
	return NULL;
}

void bt_image_close(struct bt_image *im)
{
	if (!im)
		return;
	for (size_t i = 0; im->funcs && i < im->nfuncs; i++) {
		bt_func_free(im->funcs[i]);
		free(im->funcs[i]);
	}
	free(im->funcs);
	free(im->failed);
	symbolizer_close(im->s);
	free(im);
}

/* The index of the function symbol holding addr, or -1. */
static long func_at(const struct bt_image *im, uint64_t addr)
{
	size_t lo = 0, hi = im->nfuncs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t start, size;
		const char *name;
		symbolizer_function(im->s, mid, &name, &start, &size);
		if (start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	uint64_t start, size;
	const char *name;
	symbolizer_function(im->s, lo - 1, &name, &start, &size);
	return addr - start < size ? (long)lo - 1 : -1;
}

/* The decoded function i: 0, 1 when its bytes are not in the file, -1 with err. */
static int decoded(struct bt_image *im, size_t i, char *err, size_t errlen)
{
	uint64_t start, size;
	const char *name;
	if (im->funcs[i])
		return 0;
	if (im->failed[i])
		return 1;
	symbolizer_function(im->s, i, &name, &start, &size);
	uint8_t *code = symbolizer_in_file(im->s, start, size) ? malloc(size ? size : 1) : NULL;
	if (!code || symbolizer_read(im->s, start, code, size)) {
		free(code);
		im->failed[i] = 1;
		return 1;
	}
	struct bt_func *bf = malloc(sizeof(*bf));
	int rc = bf ? bt_func_decode(im->machine, code, size, start, read_image, im->s, bf, err,
				     errlen) : -1;
	free(code);
	if (rc) {
		if (!bf)
			snprintf(err, errlen, "out of memory");
		free(bf);
		return -1;
	}
	im->funcs[i] = bf;
	return 0;
}

int bt_image_resolve(struct bt_image *im, const struct bt_query *q, struct bt_result *r,
		     char *err, size_t errlen)
{
	long i = func_at(im, q->pc);
	if (i < 0 && q->pc)
		i = func_at(im, q->pc - 1);   /* the pc just past a procedure's last instruction */
	memset(r, 0, sizeof(*r));
	r->status = BT_NOT_CODE;
	r->base = r->index = r->clobber_reg = BT_NOREG;
	if (i < 0)
		return 0;
	int rc = decoded(im, (size_t)i, err, errlen);
	if (rc)
		return rc < 0 ? -1 : 0;
	bt_func_resolve(im->funcs[i], q, r);
	return 0;
}
