/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof blocks: the straight-line blocks of an image's functions (analysis/blocks.h) as a
 * BHive block list, for bmprof bhive to measure. docs/bmprof-blocks.md is its manual. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "builtin.h"
#include "cfg.h"
#include "decode/insn_decode.h"
#include "symbol/symbolize.h"
#include "util/options.h"
#include "util/outfile.h"
#include "util/util.h"

static const char description[] =
	"List the basic blocks of an image's functions (all of them, or those named) as BHive's "
	"block list: one line per block, its bytes in hex and where it is "
	"(function+offset), for bmprof bhive to measure. Each block loses the branch that ends "
	"it and is cut at calls, system instructions and bytes that do not decode; a block "
	"whose bytes were listed already is not listed again.";

struct blocks_cli {
	struct opt_list funcs;
	const char *output;
	unsigned long min_insns;
	struct opt_args args;
};

/* Distinct block bytes seen so far: an open-addressing set of FNV-1a hashes with the
 * bytes kept for the comparison. */
struct seen {
	struct seen_slot { uint64_t h; uint8_t *b; uint32_t len; } *slot;
	size_t cap, n;
};

static uint64_t fnv(const uint8_t *b, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h | 1;
}

static int seen_grow(struct seen *s)
{
	size_t cap = s->cap ? 2 * s->cap : 1024;
	struct seen_slot *v = calloc(cap, sizeof *v);

	if (!v)
		return -1;
	for (size_t i = 0; i < s->cap; i++) {
		size_t j = s->slot[i].h & (cap - 1);
		if (!s->slot[i].h)
			continue;
		while (v[j].h)
			j = (j + 1) & (cap - 1);
		v[j] = s->slot[i];
	}
	free(s->slot);
	s->slot = v;
	s->cap = cap;
	return 0;
}

/* 1 when b was not seen before (it is added), 0 when it was, -1 out of memory. */
static int seen_add(struct seen *s, const uint8_t *b, uint32_t len)
{
	uint64_t h = fnv(b, len);
	size_t j;

	if (2 * (s->n + 1) > s->cap && seen_grow(s))
		return -1;
	for (j = h & (s->cap - 1); s->slot[j].h; j = (j + 1) & (s->cap - 1))
		if (s->slot[j].h == h && s->slot[j].len == len && !memcmp(s->slot[j].b, b, len))
			return 0;
	if (!(s->slot[j].b = malloc(len ? len : 1)))
		return -1;
	memcpy(s->slot[j].b, b, len);
	s->slot[j].h = h;
	s->slot[j].len = len;
	s->n++;
	return 1;
}

static void seen_free(struct seen *s)
{
	for (size_t i = 0; i < s->cap; i++)
		free(s->slot[i].b);
	free(s->slot);
}

/* The blocks of one decoded function, as lines. 0, or -1 with the reason printed. */
static int list_function(FILE *f, struct symbolizer *sym, const struct insn_func *fn,
			 unsigned min_insns, struct seen *seen, size_t *listed)
{
	struct cfg g;
	struct block_piece *pc;
	size_t n;
	int rc = 0;

	if (!fn->n)
		return 0;
	if (cfg_build(&g, fn->insns, fn->n)) {
		bm_err("blocks: out of memory");
		return -1;
	}
	if (blocks_pieces(&g, (unsigned)min_insns, &pc, &n)) {
		cfg_free(&g);
		bm_err("blocks: out of memory");
		return -1;
	}
	for (size_t i = 0; i < n && !rc; i++) {
		uint8_t *b = malloc(pc[i].len);
		int fresh;

		if (!b || symbolizer_read(sym, pc[i].addr, b, pc[i].len)) {
			bm_err("blocks: cannot read the %u bytes at 0x%" PRIx64 " (%s)", pc[i].len,
			       pc[i].addr, fn->name);
			free(b);
			rc = -1;
			break;
		}
		fresh = seen_add(seen, b, pc[i].len);
		if (fresh < 0) {
			bm_err("blocks: out of memory");
			rc = -1;
		} else if (fresh) {
			for (uint32_t k = 0; k < pc[i].len; k++)
				fprintf(f, "%02x", b[k]);
			fprintf(f, ",%s+0x%" PRIx64 "\n", fn->name, pc[i].addr - fn->start);
			(*listed)++;
		}
		free(b);
	}
	free(pc);
	cfg_free(&g);
	return rc;
}

static int parse_opts(int argc, char **argv, struct blocks_cli *o)
{
	const struct opt opts[] = {
		OPT_LIST('f', "function", &o->funcs, "NAME", "only the blocks of function NAME "
			 "(repeatable; or of the function containing 0xADDR)"),
		OPT_STRING('o', "output", &o->output, "FILE", "write the list to FILE (replaced "
			   "whole) instead of standard output"),
		OPT_ULONG(0, "min-insns", &o->min_insns, "N", "leave out blocks of fewer than N "
			  "instructions (default 1)", 1, 100000),
		OPT_END(),
	};
	const struct opt_cmd cmd = { .name = "blocks", .args = "ELF", .opts = opts,
				     .description = description };
	int rc = opt_parse(&cmd, argc, argv, &o->args);

	if (rc >= 0)
		return rc;
	if (o->args.n != 1) {
		bm_err("blocks: %s (usage: bmprof blocks [--function NAME] ELF)",
		       o->args.n ? "one ELF, please" : "which ELF? name the image");
		return 2;
	}
	return -1;
}

int cmd_blocks(int argc, char **argv)
{
	struct blocks_cli o = { .min_insns = 1 };
	struct insn_func *fs = NULL;
	struct symbolizer *sym = NULL;
	struct seen seen = { 0 };
	struct outfile of = { 0 };
	size_t nf = 0, listed = 0;
	char err[1024];
	int rc = parse_opts(argc, argv, &o), opened = 0;
	const char *elf;

	if (rc >= 0)
		goto done;
	rc = 1;
	elf = o.args.v[0];
	if (o.funcs.n) {
		if (!(fs = calloc(o.funcs.n, sizeof *fs))) {
			bm_err("blocks: out of memory");
			goto done;
		}
		for (; nf < o.funcs.n; nf++)
			if (insn_func_load(elf, o.funcs.v[nf], &fs[nf], err, sizeof err)) {
				bm_err("blocks: %s", err);
				goto done;
			}
	} else if (insn_func_load_all(elf, &fs, &nf, err, sizeof err)) {
		bm_err("blocks: %s", err);
		goto done;
	}
	if (!(sym = symbolizer_open(elf, err, sizeof err))) {
		bm_err("blocks: %s", err);
		goto done;
	}
	if (outfile_open(&of, o.output, err, sizeof err)) {
		bm_err("blocks: %s", err);
		goto done;
	}
	opened = 1;
	for (size_t i = 0; i < nf; i++)
		if (list_function(of.f, sym, &fs[i], (unsigned)o.min_insns, &seen, &listed))
			goto done;
	if (outfile_commit(&of, err, sizeof err)) {
		opened = 0;
		bm_err("blocks: %s", err);
		goto done;
	}
	opened = 0;
	if (o.output)
		fprintf(stderr, "bmprof: %zu blocks of %zu function%s in %s\n", listed, nf,
			nf == 1 ? "" : "s", o.output);
	rc = 0;
done:
	if (opened)
		outfile_abort(&of);
	if (sym)
		symbolizer_close(sym);
	seen_free(&seen);
	insn_funcs_free(fs, nf);
	opt_args_free(&o.args);
	return rc;
}
