/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness for apropos backtracking (analysis/backtrack.c) over code decoded by
 * host/decode (instructions, memory accesses, CFG): random code bytes and register values,
 * a sample at every instruction start, at the code's end and at a few addresses inside
 * instructions, for loads, stores and either, with the input's skid window.
 *
 * Input: byte 0: bit 0 the architecture (x86-64 / AArch64), bits 1-7 the window (0: the
 * default); bytes 1..8: which registers are captured (low 32 bits) and a salt; then
 * REGS_BYTES of register values (8 bytes each, 32 registers); the rest is the code, linked
 * at BASE.
 *
 * Checked for any input: every status and reason is in range; a trigger is an instruction
 * start before the pc, no more than the window back, making an access of the event's kind;
 * the skid counts the instructions between; an address is what the trigger's access gives
 * from the register file (recomputed here from the pre- or post-execution form); a
 * clobbered register is one of the trigger's address registers, written by an instruction
 * in [trigger, pc); a branch target is a target lying in (trigger, pc]; "no memory
 * instruction" means none of the kind in the window; memory accesses name registers in
 * range. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_io.h"
#include "backtrack.h"
#include "decode/bt_image.h"
#include "wire.h"

#define BASE 0x100000u
#define REGS_BYTES (REGFILE_MAX * 8)
#define HEADER (1 + 8 + REGS_BYTES)
#define MAX_CODE 4096

static void check_access(const struct memop_access *a)
{
	if (!a->valid)
		return;
	CHECK(a->why <= MEMOP_FORM && a->ext <= MEMOP_EXT_SXTW && a->shift < 64);
	CHECK(a->base == MEMOP_NOREG || a->base < REGFILE_MAX);
	CHECK(a->index == MEMOP_NOREG || a->index < REGFILE_MAX);
	CHECK(a->post_reg == MEMOP_NOREG || a->post_reg < REGFILE_MAX);
	CHECK(a->post_index == MEMOP_NOREG || a->post_index < REGFILE_MAX);
}

static const struct memop_access *access_of(const struct memop *m, unsigned kind)
{
	return kind == BT_EV_LOAD ? &m->ld : kind == BT_EV_STORE ? &m->st : NULL;
}

static int has_kind(const struct memop *m, unsigned ev)
{
	return ((ev & BT_EV_LOAD) && m->ld.valid) || ((ev & BT_EV_STORE) && m->st.valid);
}

static uint64_t ext(uint64_t v, unsigned e)
{
	return e == MEMOP_EXT_UXTW ? (uint32_t)v :
	       e == MEMOP_EXT_SXTW ? (uint64_t)(int64_t)(int32_t)(uint32_t)v : v;
}

static uint64_t val(const struct regfile *f, unsigned r)
{
	return r == MEMOP_NOREG ? 0 : f->r[r];
}

static void check_ea(const struct bt_result *r, const struct memop_access *a,
		     const struct regfile *f)
{
	uint64_t ea;
	if (r->flags & BT_F_WRITEBACK)
		ea = val(f, a->post_reg) - (uint64_t)a->post_off - val(f, a->post_index);
	else
		ea = val(f, a->base) + (ext(val(f, a->index), a->ext) << a->shift) +
		     (uint64_t)a->disp;
	if (a->addr32)
		ea = (uint32_t)ea;
	CHECK(r->ea == ea);
}

static void check(const struct bt_func *bf, const struct bt_code *c, size_t i, unsigned ev,
		  unsigned window, const struct regfile *f, const struct bt_result *r)
{
	unsigned w = window ? window : BT_WINDOW_DEFAULT;
	CHECK(r->status <= BT_UNDECODABLE && r->why <= BT_WHY_FORM);
	if (r->status == BT_NOT_CODE)
		return;
	CHECK(i <= c->n);
	if (r->trigger_pc && (r->flags & BT_F_PATHS)) {
		/* past a branch target, on every path: any instruction of the procedure */
		long j = insn_find(c->insns, c->n, r->trigger_pc);
		long t = insn_find(c->insns, c->n, r->target);
		CHECK(j >= 0 && (size_t)j < c->n && r->skid < w);
		CHECK(r->status == BT_EA || r->status == BT_EA_UNKNOWN);
		CHECK(t >= 0 && (size_t)t <= i && bt_is_branch_target(c, (size_t)t));
		CHECK(r->kind == BT_EV_LOAD || r->kind == BT_EV_STORE);
		CHECK(r->kind & ev);
		const struct memop_access *a = access_of(&c->memops[j], r->kind);
		CHECK(a && a->valid && r->base == a->base && r->index == a->index);
		CHECK(r->size == a->size && r->disp == a->disp);
		if (r->status == BT_EA)
			check_ea(r, a, f);
		if (r->status == BT_EA_UNKNOWN && r->why == BT_WHY_CLOBBERED && r->clobber_pc) {
			long k = insn_find(c->insns, c->n, r->clobber_pc);
			unsigned n = memop_insn_reg_of_dwarf(c->arch, r->clobber_reg);
			CHECK(k >= 0 && n != MEMOP_NOREG && insn_regs_has(&c->insns[k].wr, n));
		}
	} else if (r->trigger_pc) {
		long j = insn_find(c->insns, c->n, r->trigger_pc);
		CHECK(j >= 0 && (size_t)j < i && i - (size_t)j <= w);
		CHECK(r->skid == i - (size_t)j - 1);
		CHECK(r->kind == BT_EV_LOAD || r->kind == BT_EV_STORE);
		CHECK(r->kind & ev);
		const struct memop_access *a = access_of(&c->memops[j], r->kind);
		CHECK(a && a->valid && r->base == a->base && r->index == a->index);
		CHECK(r->size == a->size && r->disp == a->disp);
		/* nothing of the kind nearer the pc */
		for (size_t k = (size_t)j + 1; k < i; k++)
			CHECK(!has_kind(&c->memops[k], ev) &&
			      !(c->memops[k].flags & MEMOP_F_UNDECODED));
		if (r->status == BT_EA)
			check_ea(r, a, f);
		if (r->status == BT_EA_UNKNOWN && r->why == BT_WHY_CLOBBERED) {
			long k = insn_find(c->insns, c->n, r->clobber_pc);
			CHECK(k >= j && (size_t)k < i);
			CHECK(r->clobber_reg == a->base || r->clobber_reg == a->index ||
			      r->clobber_reg == a->post_reg || r->clobber_reg == a->post_index);
			unsigned n = memop_insn_reg_of_dwarf(c->arch, r->clobber_reg);
			CHECK(n != MEMOP_NOREG && insn_regs_has(&c->insns[k].wr, n));
		}
	} else {
		CHECK(r->status == BT_NO_MEMOP || r->status == BT_BRANCH_TARGET ||
		      r->status == BT_UNDECODABLE);
	}
	if (r->status == BT_BRANCH_TARGET) {
		long t = insn_find(c->insns, c->n, r->target);
		CHECK(t >= 0 && (size_t)t <= i && bt_is_branch_target(c, (size_t)t));
		CHECK(!r->trigger_pc || r->target > r->trigger_pc);
	}
	if (r->status == BT_NO_MEMOP)
		for (size_t k = i > w ? i - w : 0; k < i; k++)
			CHECK(!has_kind(&c->memops[k], ev));
	(void)bf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct regfile f;
	struct bt_func bf;
	char err[256];

	if (size <= HEADER)
		return 0;
	int machine = data[0] & 1 ? EM_AARCH64 : EM_X86_64;
	unsigned window = data[0] >> 1;
	uint32_t valid;
	memcpy(&valid, data + 1, 4);
	memset(&f, 0, sizeof f);
	f.arch = machine == EM_AARCH64 ? BMPROF_ARCH_AARCH64 : BMPROF_ARCH_X86_64;
	f.n = machine == EM_AARCH64 ? 32 : 16;
	f.valid = valid & (f.n == 32 ? 0xffffffffu : 0xffffu);
	memcpy(f.r, data + 9, REGS_BYTES);
	const uint8_t *code = data + HEADER;
	size_t len = size - HEADER < MAX_CODE ? size - HEADER : MAX_CODE;

	err[0] = 0;
	if (bt_func_decode(machine, code, len, BASE, NULL, NULL, &bf, err, sizeof err)) {
		CHECK(err[0] && !strchr(err, '\n'));
		return 0;
	}
	struct bt_code c = { .arch = bf.fn.arch, .insns = bf.fn.insns, .memops = bf.memops,
			     .n = bf.fn.n, .cfg = bf.have_cfg ? &bf.cfg : NULL };
	for (size_t i = 0; i < bf.fn.n; i++) {
		check_access(&bf.memops[i].ld);
		check_access(&bf.memops[i].st);
	}
	for (size_t i = 0; i <= bf.fn.n; i++) {
		uint64_t pc = i < bf.fn.n ? bf.fn.insns[i].addr : bf.fn.end;
		for (unsigned ev = BT_EV_LOAD; ev <= BT_EV_ANY; ev++) {
			struct bt_query q = { .pc = pc, .event = (uint8_t)ev, .window = window,
					      .regs = &f };
			struct bt_result r;
			CHECK(bt_func_resolve(&bf, &q, &r) == r.status);
			check(&bf, &c, i, ev, window, &f, &r);
		}
		/* inside a multi-byte instruction: not code */
		if (i < bf.fn.n && bf.fn.insns[i].size > 1) {
			struct bt_query q = { .pc = pc + 1, .event = BT_EV_ANY, .regs = &f };
			struct bt_result r;
			CHECK(bt_func_resolve(&bf, &q, &r) == BT_NOT_CODE);
		}
	}
	bt_func_free(&bf);
	return 0;
}
