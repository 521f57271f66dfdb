/* SPDX-License-Identifier: BSD-2-Clause */
/* Decoding procedures into instruction records (insn_decode.h): capstone through the
 * disassembler's handle with details on (so the text is what bmprof annotate prints), the
 * per-architecture fill in insn_x86.c / insn_a64.c / insn_thumb.c (RISC-V: insn_rv.c,
 * without capstone), jump tables in insn_jtab.c, and
 * the ELF's symbols and bytes through the symbolizer. */
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "symbol/disasm.h"
#include "decode/insn_decode_internal.h"
#include "symbol/symbolize.h"
#include "wire.h"

#define MAX_SUGGESTIONS 8

void insn_set_text(struct insn *o, const char *mnemonic, const char *operands)
{
	/* the layout of bmprof annotate's instruction column; a longer text is cut */
	size_t n = sizeof(o->text) - 1, k;
	if (!operands || !operands[0]) {
		snprintf(o->text, sizeof(o->text), "%.*s", (int)n, mnemonic);
		return;
	}
	k = (size_t)snprintf(o->text, sizeof(o->text), "%-7.*s ", (int)n - 1, mnemonic);
	for (; k < n && *operands; k++)
		o->text[k] = *operands++;
	o->text[k < n ? k : n] = 0;
}

static int grow(struct insn_func *f, size_t *cap, struct insn_facts **facts)
{
	size_t ncap = *cap ? 2 * *cap : 64;
	struct insn *v = realloc(f->insns, ncap * sizeof(*v));
	if (!v)
		return -1;
	f->insns = v;
	struct insn_facts *x = realloc(*facts, ncap * sizeof(*x));
	if (!x)
		return -1;
	*facts = x;
	*cap = ncap;
	return 0;
}

/* Undecodable bytes: AArch64's permanently undefined word (udf: top half zero) stops,
 * anything else is passed over. */
static void fill_undecoded(int machine, const uint8_t *b, size_t size, struct insn *o)
{
	o->cls = IC_OTHER;
	if (machine == EM_AARCH64 && size == 4 && !b[2] && !b[3]) {
		o->flow = INSN_FLOW_STOP;
		o->cls = IC_SYSTEM;
	}
}

/* Jump tables of the indirect jumps, into f->target_pool. An indirect jump without one
 * that is a tail call leaves the procedure: a return. */
static int jump_tables(int machine, struct insn_func *f, const struct insn_facts *facts,
		       insn_read_fn read, void *ctx)
{
	size_t *at = calloc(f->n ? f->n : 1, sizeof(*at));
	struct jtab_index ix = { 0 };
	int indexed = 0;
	if (!at)
		return -1;
	for (size_t j = 0; j < f->n; j++) {
		uint64_t *t;
		size_t nt;
		if (f->insns[j].flow != INSN_FLOW_INDIRECT || machine == EM_ARM)
			continue;   /* Thumb's tbb/tbh tables are not recovered */
		if (!indexed && insn_jtab_index(&ix, f->insns, f->n)) {
			free(at);
			return -1;
		}
		indexed = 1;
		int rc = machine == EM_X86_64 ?
				 insn_x86_jump_table(f->insns, facts, f->n, &ix, j, f->start, f->end,
						     read, ctx, &t, &nt) :
				 insn_a64_jump_table(f->insns, facts, f->n, &ix, j, f->start, f->end,
						     read, ctx, &t, &nt);
		if (rc) {
			if (machine == EM_X86_64 && insn_x86_tail_call(f->insns, facts, j))
				f->insns[j].flow = INSN_FLOW_RETURN;
			continue;
		}
		uint64_t *pool = realloc(f->target_pool, (f->ntarget_pool + nt) * sizeof(*pool));
		if (!pool) {
			free(t);
			free(at);
			insn_jtab_index_free(&ix);
			return -1;
		}
		f->target_pool = pool;
		memcpy(pool + f->ntarget_pool, t, nt * sizeof(*t));
		at[j] = f->ntarget_pool;
		f->ntarget_pool += nt;
		f->insns[j].ntargets = (uint32_t)nt;
		free(t);
	}
	for (size_t j = 0; j < f->n; j++)
		if (f->insns[j].ntargets)
			f->insns[j].targets = f->target_pool + at[j];
	free(at);
	insn_jtab_index_free(&ix);
	return 0;
}

/* RISC-V: no jump tables are recovered (an indirect jump that is no return or tail call
 * leaves the CFG incomplete); a tail shorter than its instruction becomes a .byte entry. */
static int decode_rv(const uint8_t *code, size_t len, uint64_t addr, struct insn_func *f,
		     char *err, size_t errlen)
{
	struct rv_auipc prev = { 0, 0 };
	size_t cap = 0;

	while (len) {
		if (f->n == cap) {
			size_t ncap = cap ? 2 * cap : 64;
			struct insn *v = realloc(f->insns, ncap * sizeof(*v));
			if (!v) {
				snprintf(err, errlen, "out of memory decoding 0x%" PRIx64 "..0x%"
					 PRIx64, f->start, f->end);
				insn_func_free(f);
				return -1;
			}
			f->insns = v;
			cap = ncap;
		}
		struct insn *o = &f->insns[f->n++];
		memset(o, 0, sizeof(*o));
		unsigned size = insn_rv_fill(code, len, addr, &prev, o);
		if (!size) {
			char byte[8];
			snprintf(byte, sizeof(byte), "0x%02x", *code);
			insn_set_text(o, ".byte", byte);
			o->size = 1;
			o->cls = IC_OTHER;
			size = 1;
		}
		code += size;
		len -= size;
		addr += size;
	}
	return 0;
}

int insn_decode(int machine, const uint8_t *code, size_t len, uint64_t addr,
		insn_read_fn read, void *ctx, struct insn_func *f, char *err, size_t errlen)
{
	return insn_decode_data(machine, code, len, addr, NULL, 0, read, ctx, f, err, errlen);
}

int insn_decode_data(int machine, const uint8_t *code, size_t len, uint64_t addr,
		     const struct sym_range *data, size_t ndata, insn_read_fn read, void *ctx,
		     struct insn_func *f, char *err, size_t errlen)
{
	memset(f, 0, sizeof(*f));
	f->start = addr;
	f->end = addr + len;
	if (machine == EM_X86_64) {
		f->arch = BMPROF_ARCH_X86_64;
	} else if (machine == EM_AARCH64) {
		f->arch = BMPROF_ARCH_AARCH64;
	} else if (machine == EM_ARM) {
		f->arch = BMPROF_ARCH_CORTEX_M;
	} else if (machine == EM_RISCV) {
		f->arch = BMPROF_ARCH_RISCV64;
		return decode_rv(code, len, addr, f, err, errlen);
	} else {
		snprintf(err, errlen, "cannot analyse ELF machine %d: the CPI analysis supports "
				      "x86-64, AArch64, Cortex-M and RISC-V", machine);
		return -1;
	}
	struct disasm *d = disasm_open_detail(machine, err, errlen);
	if (!d)
		return -1;
	csh h = (csh)disasm_handle(d);
	cs_insn *in = cs_malloc(h);
	struct insn_facts *facts = NULL;
	size_t cap = 0;
	int rc = -1;
	if (!in)
		goto oom;
	while (len) {
		const uint8_t *at = code;
		uint64_t pc = addr;
		while (ndata && data->hi <= pc) {
			data++;
			ndata--;
		}
		if (ndata && data->lo <= pc) {   /* a literal pool: no instructions */
			size_t k = data->hi - pc < len ? (size_t)(data->hi - pc) : len;
			code += k;
			len -= k;
			addr += k;
			continue;
		}
		if (f->n == cap && grow(f, &cap, &facts))
			goto oom;
		struct insn *o = &f->insns[f->n];
		memset(o, 0, sizeof(*o));
		o->addr = pc;
		/* up to the next data: capstone never decodes into it */
		size_t run = ndata && data->lo - pc < len ? (size_t)(data->lo - pc) : len, left = run;
		int ok = cs_disasm_iter(h, &code, &left, &addr, in);
		len -= run - left;
		if (!ok) {
			/* a tail shorter than an AArch64 word */
			char byte[8];
			snprintf(byte, sizeof(byte), "0x%02x", *code);
			insn_set_text(o, ".byte", byte);
			code++;
			len--;
			addr++;
		} else {
			insn_set_text(o, in->mnemonic, in->op_str);
		}
		o->size = (uint8_t)(addr - pc);
		memset(&facts[f->n], 0, sizeof(facts[f->n]));
		if (!ok || !in->id)
			fill_undecoded(machine, at, o->size, o);
		else if (machine == EM_X86_64)
			insn_x86_fill(h, in, o, &facts[f->n]);
		else if (machine == EM_ARM)
			insn_thumb_fill(h, in, o, &facts[f->n]);
		else
			insn_a64_fill(h, in, o, &facts[f->n]);
		f->n++;
	}
	if (jump_tables(machine, f, facts, read, ctx))
		goto oom;
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "out of memory decoding 0x%" PRIx64 "..0x%" PRIx64, f->start,
		 f->end);
	insn_func_free(f);
out:
	if (in)
		cs_free(in, 1);
	free(facts);
	disasm_close(d);
	return rc;
}

void insn_func_free(struct insn_func *f)
{
	if (!f)
		return;
	free(f->insns);
	free(f->target_pool);
	free(f->code);
	f->insns = NULL;
	f->target_pool = NULL;
	f->code = NULL;
	f->n = f->ntarget_pool = 0;
}

void insn_funcs_free(struct insn_func *fs, size_t n)
{
	for (size_t i = 0; fs && i < n; i++)
		insn_func_free(&fs[i]);
	free(fs);
}

/* ---- ELF images ---- */

static int read_image(void *ctx, uint64_t addr, void *buf, size_t len)
{
	return symbolizer_read(ctx, addr, buf, len);
}

/* The symbolizer of path, with the reasons it cannot be used spelled out. */
static struct symbolizer *open_image(const char *path, char *err, size_t errlen)
{
	struct stat st;
	if (stat(path, &st)) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s is a directory, not an ELF image", path);
		return NULL;
	}
	struct symbolizer *s = symbolizer_open(path, err, errlen);
	if (!s)
		return NULL;
	int m = symbolizer_machine(s);
	if (m != EM_X86_64 && m != EM_AARCH64 && m != EM_ARM && m != EM_RISCV) {
		snprintf(err, errlen, "%s is for ELF machine %d: the CPI analysis supports x86-64, "
				      "AArch64, Cortex-M and RISC-V", path, m);
		symbolizer_close(s);
		return NULL;
	}
	if (!symbolizer_has_symbols(s)) {
		snprintf(err, errlen, "%s has no symbol table (stripped): pass the unstripped "
				      "image", path);
		symbolizer_close(s);
		return NULL;
	}
	return s;
}

/* 0, -1 (err set), or -2 when the symbol's bytes are not in the file (err set). */
static int decode_symbol(struct symbolizer *s, const char *path, const char *name,
			 uint64_t start, uint64_t size, struct insn_func *f, char *err,
			 size_t errlen)
{
	/* a size from a damaged symbol table is found out before it is allocated */
	uint8_t *code = symbolizer_in_file(s, start, size) ? malloc(size ? size : 1) : NULL;
	if (!code || symbolizer_read(s, start, code, size)) {
		snprintf(err, errlen, "cannot read the bytes of %s (0x%" PRIx64 "..0x%" PRIx64
				      ") from %s", name, start, start + size, path);
		free(code);
		return -2;
	}
	struct sym_range *data;
	long ndata = symbolizer_data_ranges(s, start, start + size, &data);
	if (ndata < 0) {
		snprintf(err, errlen, "out of memory");
		free(code);
		return -1;
	}
	int rc = insn_decode_data(symbolizer_machine(s), code, size, start, data, (size_t)ndata,
				  read_image, s, f, err, errlen);
	free(data);
	if (rc) {
		free(code);
		return rc;
	}
	f->code = code;
	snprintf(f->name, sizeof(f->name), "%s", name);
	return 0;
}

/* Edit distance of a and b (case-insensitive), or a large number for long names. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[65];
	if (la > 64 || lb > 64)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t sub = diag + (tolower((unsigned char)a[i - 1]) !=
					     tolower((unsigned char)b[j - 1]));
			size_t best = up + 1 < row[j - 1] + 1 ? up + 1 : row[j - 1] + 1;
			row[j] = sub < best ? sub : best;
			diag = up;
		}
	}
	return row[lb];
}

/* "no such function" with up to MAX_SUGGESTIONS symbol names that contain name (any case)
 * or are a few edits away from it. */
static void no_function(struct symbolizer *s, const char *path, const char *name, char *err,
			size_t errlen)
{
	char list[512];
	size_t len = 0, found = 0;
	list[0] = 0;
	for (size_t i = 0, n = symbolizer_nfunctions(s); i < n && found < MAX_SUGGESTIONS; i++) {
		const char *fn;
		uint64_t start, size;
		size_t near = 1 + strlen(name) / 4;
		if (symbolizer_function(s, i, &fn, &start, &size) ||
		    ((strlen(name) < 3 || !strcasestr(fn, name)) && distance(name, fn) > near))
			continue;
		if (len < sizeof list)
			len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
						found ? ", " : "", fn);
		found++;
	}
	if (found)
		snprintf(err, errlen, "no function '%s' in %s; close matches: %s", name, path, list);
	else
		snprintf(err, errlen, "no function '%s' in %s", name, path);
}

int insn_func_load(const char *path, const char *name, struct insn_func *f, char *err,
		   size_t errlen)
{
	memset(f, 0, sizeof(*f));
	struct symbolizer *s = open_image(path, err, errlen);
	if (!s)
		return -1;
	uint64_t start = 0, size = 0;
	const char *sym = name;
	int rc = -1;
	if (!strncmp(name, "0x", 2)) {
		char *end;
		struct sym_result res;
		uint64_t addr = strtoull(name, &end, 16);
		if (*end || end == name + 2 || symbolizer_lookup(s, addr, &res) || !res.symbol) {
			snprintf(err, errlen, "no function contains address %s in %s", name, path);
			goto out;
		}
		sym = res.symbol;
		start = res.sym_start;
		size = res.sym_size;
	} else if (symbolizer_find_function_like(s, name, &sym, &start, &size)) {
		no_function(s, path, name, err, errlen);
		goto out;
	}
	if (!size) {
		snprintf(err, errlen, "%s has size 0 in the symbol table of %s: its end is unknown",
			 sym, path);
		goto out;
	}
	rc = decode_symbol(s, path, sym, start, size, f, err, errlen) ? -1 : 0;
out:
	symbolizer_close(s);
	return rc;
}

int insn_func_load_all(const char *path, struct insn_func **fs, size_t *n, char *err,
		       size_t errlen)
{
	*fs = NULL;
	*n = 0;
	struct symbolizer *s = open_image(path, err, errlen);
	if (!s)
		return -1;
	size_t nf = symbolizer_nfunctions(s), k = 0;
	struct insn_func *v = calloc(nf ? nf : 1, sizeof(*v));
	if (!v) {
		snprintf(err, errlen, "out of memory");
		symbolizer_close(s);
		return -1;
	}
	for (size_t i = 0; i < nf; i++) {
		const char *name;
		uint64_t start, size;
		if (symbolizer_function(s, i, &name, &start, &size) || !size)
			continue;
		/* one starting inside the one before is decoded as part of it: overlapping
		 * symbols would otherwise decode the same bytes again and again */
		if (k && start >= v[k - 1].start && start < v[k - 1].end)
			continue;
		int rc = decode_symbol(s, path, name, start, size, &v[k], err, errlen);
		if (rc == -2)   /* a marker past the code (_etext), or in no section */
			continue;
		if (rc) {
			insn_funcs_free(v, k);
			symbolizer_close(s);
			return -1;
		}
		k++;
	}
	symbolizer_close(s);
	*fs = v;
	*n = k;
	return 0;
}
