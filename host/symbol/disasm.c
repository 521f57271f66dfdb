/* SPDX-License-Identifier: BSD-2-Clause */
/* Disassembly through capstone: x86-64 and i386 in AT&T syntax (objdump's default), AArch64,
 * Cortex-M (Thumb); RISC-V by disasm_rv.c.
 * Capstone's skip-data mode turns undecodable bytes into ".byte" entries, so every byte of a
 * range lands in exactly one entry. */
#include <capstone/capstone.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>

#include "symbol/disasm.h"
#include "symbol/disasm_rv.h"
#include "symbol/symbolize.h"

struct disasm {
	csh cs;
	int riscv;   /* capstone 4 has no RISC-V: disasm_rv.c decodes it */
};

static struct disasm *open_handle(int machine, int detail, char *err, size_t errlen)
{
	cs_arch arch;
	cs_mode mode;
	switch (machine) {
	case EM_X86_64:
		arch = CS_ARCH_X86;
		mode = CS_MODE_64;
		break;
	case EM_386:
		arch = CS_ARCH_X86;
		mode = CS_MODE_32;
		break;
	case EM_AARCH64:
		arch = CS_ARCH_ARM64;
		mode = CS_MODE_ARM;
		break;
	case EM_ARM:   /* bmprof's 32-bit Arm images are Cortex-M: Thumb, M-profile, v8-M too */
		arch = CS_ARCH_ARM;
		mode = CS_MODE_THUMB | CS_MODE_MCLASS | CS_MODE_V8;
		break;
	case EM_RISCV:
		if (detail) {
			snprintf(err, errlen, "no instruction details for RISC-V (capstone 4 has no "
					      "RISC-V; x86-64, AArch64 and Cortex-M have them)");
			return NULL;
		}
		struct disasm *r = calloc(1, sizeof(*r));
		if (!r)
			snprintf(err, errlen, "out of memory");
		else
			r->riscv = 1;
		return r;
	default:
		snprintf(err, errlen, "no disassembler for ELF machine %d (x86-64, i386, AArch64, "
				      "Cortex-M and RISC-V are supported)", machine);
		return NULL;
	}
	struct disasm *d = calloc(1, sizeof(*d));
	if (!d) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	cs_err e = cs_open(arch, mode, &d->cs);
	if (e == CS_ERR_OK && arch == CS_ARCH_X86)
		e = cs_option(d->cs, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	if (e == CS_ERR_OK)
		e = cs_option(d->cs, CS_OPT_SKIPDATA, CS_OPT_ON);
	if (e == CS_ERR_OK && detail)
		e = cs_option(d->cs, CS_OPT_DETAIL, CS_OPT_ON);
	if (e != CS_ERR_OK) {
		snprintf(err, errlen, "capstone: %s", cs_strerror(e));
		if (d->cs)
			cs_close(&d->cs);
		free(d);
		return NULL;
	}
	return d;
}

struct disasm *disasm_open(int machine, char *err, size_t errlen)
{
	return open_handle(machine, 0, err, errlen);
}

struct disasm *disasm_open_detail(int machine, char *err, size_t errlen)
{
	return open_handle(machine, 1, err, errlen);
}

size_t disasm_handle(const struct disasm *d)
{
	return d->cs;
}

void disasm_close(struct disasm *d)
{
	if (!d)
		return;
	if (!d->riscv)
		cs_close(&d->cs);
	free(d);
}

/* RISC-V, by disasm_rv.c; a trailing odd byte becomes a .byte entry. */
static long range_rv(const uint8_t *code, size_t len, uint64_t addr, struct disasm_insn **out)
{
	struct disasm_insn *v = NULL;
	size_t n = 0, cap = 0;

	while (len) {
		if (n == cap) {
			struct disasm_insn *t;

			cap = cap ? 2 * cap : 64;
			t = realloc(v, cap * sizeof(*v));
			if (!t) {
				free(v);
				return -1;
			}
			v = t;
		}
		struct disasm_insn *o = &v[n++];
		unsigned size = rv_disasm_one(code, len, addr, o->mnemonic, sizeof o->mnemonic,
					      o->operands, sizeof o->operands);
		if (!size) {
			size = 1;
			snprintf(o->mnemonic, sizeof o->mnemonic, ".byte");
			snprintf(o->operands, sizeof o->operands, "0x%02x", *code);
		}
		o->addr = addr;
		o->size = (uint16_t)size;
		code += size;
		len -= size;
		addr += size;
	}
	*out = v;
	return (long)n;
}

/* The next entry of *v (growing it); NULL out of memory. */
static struct disasm_insn *push(struct disasm_insn **v, size_t *n, size_t *cap)
{
	if (*n == *cap) {
		size_t ncap = *cap ? 2 * *cap : 64;
		struct disasm_insn *t = realloc(*v, ncap * sizeof(**v));

		if (!t)
			return NULL;
		*v = t;
		*cap = ncap;
	}
	return &(*v)[(*n)++];
}

/* Data (a literal pool) at addr as objdump shows it: a little-endian .word where addr is
 * word-aligned, else a .short or a .byte up to the alignment (and at the end). */
static size_t data_entry(const uint8_t *code, size_t avail, uint64_t addr,
			 struct disasm_insn *o)
{
	if (!(addr & 3) && avail >= 4) {
		snprintf(o->mnemonic, sizeof o->mnemonic, ".word");
		snprintf(o->operands, sizeof o->operands, "0x%08x", (unsigned)code[0] |
			 (unsigned)code[1] << 8 | (unsigned)code[2] << 16 | (unsigned)code[3] << 24);
		return 4;
	}
	if (!(addr & 1) && avail >= 2) {
		snprintf(o->mnemonic, sizeof o->mnemonic, ".short");
		snprintf(o->operands, sizeof o->operands, "0x%04x",
			 (unsigned)code[0] | (unsigned)code[1] << 8);
		return 2;
	}
	snprintf(o->mnemonic, sizeof o->mnemonic, ".byte");
	snprintf(o->operands, sizeof o->operands, "0x%02x", *code);
	return 1;
}

long disasm_range(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr,
		  struct disasm_insn **out)
{
	return disasm_range_data(d, code, len, addr, NULL, 0, out);
}

long disasm_range_data(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr,
		       const struct sym_range *data, size_t ndata, struct disasm_insn **out)
{
	*out = NULL;
	if (d->riscv)
		return range_rv(code, len, addr, out);
	cs_insn *in = cs_malloc(d->cs);
	if (!in)
		return -1;
	size_t n = 0, cap = 0;
	struct disasm_insn *v = NULL;
	while (len) {
		uint64_t at = addr;
		struct disasm_insn *o = push(&v, &n, &cap);

		if (!o) {
			free(v);
			cs_free(in, 1);
			return -1;
		}
		while (ndata && data->hi <= at) {
			data++;
			ndata--;
		}
		o->addr = at;
		if (ndata && data->lo <= at) {
			size_t k = data_entry(code, data->hi - at < len ? data->hi - at : len, at, o);

			o->size = (uint16_t)k;
			code += k;
			len -= k;
			addr += k;
			continue;
		}
		/* code up to the next data: capstone never decodes into it */
		size_t run = ndata && data->lo - at < len ? (size_t)(data->lo - at) : len, left = run;
		if (cs_disasm_iter(d->cs, &code, &left, &addr, in)) {
			len -= run - left;
			snprintf(o->mnemonic, sizeof(o->mnemonic), "%s", in->mnemonic);
			snprintf(o->operands, sizeof(o->operands), "%s", in->op_str);
		} else {
			/* a tail shorter than an AArch64 word (or a Thumb halfword before data):
			 * skip-data needs whole words */
			snprintf(o->mnemonic, sizeof(o->mnemonic), ".byte");
			snprintf(o->operands, sizeof(o->operands), "0x%02x", *code);
			code++;
			len--;
			addr++;
		}
		o->size = (uint16_t)(addr - at);
	}
	cs_free(in, 1);
	*out = v;
	return (long)n;
}
