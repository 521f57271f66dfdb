/* SPDX-License-Identifier: BSD-2-Clause */
/* RISC-V memory accesses (host/decode/memop_rv.c) of hand-assembled RV64GC code, the bytes
 * as riscv64-unknown-elf-as -march=rv64gc emits them (objdump -M no-aliases beside them):
 * each load, store, floating-point and atomic width, compressed forms included, with its
 * base register (DWARF x0..x31 = 0..31), displacement, size and kind; x0 as the base an
 * absolute address; and backtracking over them (analysis/backtrack.c through bt_image.h)
 * with a chosen register file: base + offset exactly, a clobbered base, a store event; and
 * every compressed word and random 32-bit ones decoded without a bad access record. */
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "backtrack.h"
#include "decode/bt_image.h"
#include "decode/memop_decode.h"
#include "wire.h"

#define R 0x80000000u   /* where the snippets are linked */
#define N(a) (sizeof(a) / sizeof((a)[0]))
#define NOREG MEMOP_NOREG

enum { LD = 1, ST = 2, BOTH = 3 };

struct want {
	const char *text;
	uint8_t kind;        /* LD, ST, BOTH, 0: no access */
	uint8_t base;
	int64_t disp;
	uint16_t size;
};

static const uint8_t code[] = {
	0x03, 0x85, 0xf5, 0xff,   /* 0: lb a0,-1(a1) */
	0x03, 0x96, 0x26, 0x00,   /* 4: lh a2,2(a3) */
	0x83, 0x22, 0xf3, 0x7f,   /* 8: lw t0,2047(t1) */
	0x03, 0xb9, 0x09, 0x80,   /* c: ld s2,-2048(s3) */
	0x03, 0x47, 0x00, 0x00,   /* 10: lbu a4,0(zero) */
	0x83, 0x57, 0x61, 0x00,   /* 14: lhu a5,6(sp) */
	0x03, 0xe8, 0xc8, 0x00,   /* 18: lwu a6,12(a7) */
	0xa3, 0x80, 0xa5, 0x00,   /* 1c: sb a0,1(a1) */
	0x23, 0x9f, 0xa5, 0xfe,   /* 20: sh a0,-2(a1) */
	0x23, 0x22, 0x51, 0x06,   /* 24: sw t0,100(sp) */
	0x23, 0x3c, 0x14, 0xfe,   /* 28: sd ra,-8(s0) */
	0x07, 0x25, 0x45, 0x00,   /* 2c: flw fa0,4(a0) */
	0x87, 0xb4, 0x05, 0xff,   /* 30: fld fs1,-16(a1) */
	0x27, 0x24, 0xb6, 0x00,   /* 34: fsw fa1,8(a2) */
	0x27, 0xbc, 0x26, 0x01,   /* 38: fsd fs2,24(a3) */
	0x2f, 0xb5, 0x05, 0x10,   /* 3c: lr.d a0,(a1) */
	0x2f, 0x26, 0xd7, 0x18,   /* 40: sc.w a2,a3,(a4) */
	0xaf, 0xa7, 0x08, 0x01,   /* 44: amoadd.w a5,a6,(a7) */
	0xaf, 0xb2, 0x63, 0x08,   /* 48: amoswap.d t0,t1,(t2) */
	0x33, 0x85, 0xc5, 0x00,   /* 4c: add a0,a1,a2 */
	0xc8, 0x41,               /* 50: c.lw a0,4(a1) */
	0x90, 0x66,               /* 52: c.ld a2,8(a3) */
	0xd8, 0xc7,               /* 54: c.sw a4,12(a5) */
	0xe0, 0xfc,               /* 56: c.sd s0,248(s1) */
	0x7e, 0x55,               /* 58: c.lwsp a0,252(sp) */
	0xfe, 0x70,               /* 5a: c.ldsp ra,504(sp) */
	0x2e, 0xc0,               /* 5c: c.swsp a1,0(sp) */
	0x22, 0xe4,               /* 5e: c.sdsp s0,8(sp) */
	0x08, 0x29,               /* 60: c.fld fa0,16(a0) */
	0xec, 0xbd,               /* 62: c.fsd fa1,248(a1) */
	0x02, 0x34,               /* 64: c.fldsp fs0,32(sp) */
	0x26, 0xb4,               /* 66: c.fsdsp fs1,40(sp) */
	0x2e, 0x95,               /* 68: c.add a0,a1 */
};

static const struct want wants[] = {
	{ "lb", LD, 11, -1, 1 },        { "lh", LD, 13, 2, 2 },
	{ "lw", LD, 6, 2047, 4 },       { "ld", LD, 19, -2048, 8 },
	{ "lbu x0", LD, NOREG, 0, 1 },  { "lhu", LD, 2, 6, 2 },
	{ "lwu", LD, 17, 12, 4 },       { "sb", ST, 11, 1, 1 },
	{ "sh", ST, 11, -2, 2 },        { "sw", ST, 2, 100, 4 },
	{ "sd", ST, 8, -8, 8 },         { "flw", LD, 10, 4, 4 },
	{ "fld", LD, 11, -16, 8 },      { "fsw", ST, 12, 8, 4 },
	{ "fsd", ST, 13, 24, 8 },       { "lr.d", LD, 11, 0, 8 },
	{ "sc.w", ST, 14, 0, 4 },       { "amoadd.w", BOTH, 17, 0, 4 },
	{ "amoswap.d", BOTH, 7, 0, 8 }, { "add", 0, 0, 0, 0 },
	{ "c.lw", LD, 11, 4, 4 },       { "c.ld", LD, 13, 8, 8 },
	{ "c.sw", ST, 15, 12, 4 },      { "c.sd", ST, 9, 248, 8 },
	{ "c.lwsp", LD, 2, 252, 4 },    { "c.ldsp", LD, 2, 504, 8 },
	{ "c.swsp", ST, 2, 0, 4 },      { "c.sdsp", ST, 2, 8, 8 },
	{ "c.fld", LD, 10, 16, 8 },     { "c.fsd", ST, 11, 248, 8 },
	{ "c.fldsp", LD, 2, 32, 8 },    { "c.fsdsp", ST, 2, 40, 8 },
	{ "c.add", 0, 0, 0, 0 },
};

static void decode(const uint8_t *c, size_t len, struct bt_func *bf)
{
	char err[256] = "";
	if (bt_func_decode(EM_RISCV, c, len, R, NULL, NULL, bf, err, sizeof err))
		fail_msg("bt_func_decode: %s", err);
}

static void check_access(const struct memop_access *a, const struct want *w, const char *what)
{
	if (!a->valid)
		fail_msg("%s: no %s", w->text, what);
	assert_int_equal(a->why, MEMOP_OK);
	if (a->base != w->base || a->disp != w->disp || a->size != w->size)
		fail_msg("%s: %s base %u disp %lld size %u, want base %u disp %lld size %u", w->text,
			 what, a->base, (long long)a->disp, a->size, w->base, (long long)w->disp,
			 w->size);
	assert_int_equal(a->index, NOREG);
	assert_int_equal(a->post_reg, NOREG);
}

/* Every form's access, the sweep in step with the decoded instructions (2- and 4-byte). */
static void test_forms(void **state)
{
	struct bt_func bf;
	(void)state;
	decode(code, sizeof code, &bf);
	assert_int_equal(bf.fn.n, N(wants));
	for (size_t i = 0; i < N(wants); i++) {
		const struct memop *m = &bf.memops[i];
		const struct want *w = &wants[i];
		if (m->flags)
			fail_msg("%s: flags %u", w->text, m->flags);
		if (w->kind & LD)
			check_access(&m->ld, w, "load");
		else if (m->ld.valid)
			fail_msg("%s: a load", w->text);
		if (w->kind & ST)
			check_access(&m->st, w, "store");
		else if (m->st.valid)
			fail_msg("%s: a store", w->text);
	}
	bt_func_free(&bf);
}

/* Reserved widths and words no decoding knows are no accesses but undecoded bytes. */
static void test_reserved(void **state)
{
	static const uint8_t bad[] = {
		0x03, 0x75, 0x05, 0x00,   /* 0: load width 7 (reserved) */
		0x23, 0x42, 0xb5, 0x00,   /* 4: store width 4 (sq: not in RV64) */
		0x2f, 0x05, 0x05, 0x10,   /* 8: atomic width 0 (reserved) */
		0xc8, 0x41,               /* c: c.lw a0,4(a1) */
	};
	struct memop m;
	struct bt_func bf;
	(void)state;
	memset(&m, 0, sizeof m);
	assert_int_equal(memop_rv_fill(0x00057503u, &m), -1);
	decode(bad, sizeof bad, &bf);
	assert_int_equal(bf.fn.n, 4);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(bf.memops[i].flags, MEMOP_F_UNDECODED);
	assert_int_equal(bf.memops[3].flags, 0);
	assert_true(bf.memops[3].ld.valid);
	bt_func_free(&bf);
}

static const uint8_t walk[] = {
	0x83, 0xbf, 0x07, 0x00,   /* 0: ld t6,0(a5) */
	0x83, 0xb3, 0x0f, 0x05,   /* 4: ld t2,80(t6) */
	0x1e, 0x97,               /* 8: c.add a4,t2 */
	0xc8, 0x41,               /* a: c.lw a0,4(a1) */
	0x2a, 0x97,               /* c: c.add a4,a0 */
	0x22, 0xe4,               /* e: c.sdsp s0,8(sp) */
	0x2a, 0x97,               /* 10: c.add a4,a0 */
	0x9c, 0x6f,               /* 12: c.ld a5,24(a5) */
	0x2a, 0x97,               /* 14: c.add a4,a0 */
	0xc8, 0x41,               /* 16: c.lw a0,4(a1) */
	0xa1, 0x05,               /* 18: c.addi a1,8 */
	0x2a, 0x97,               /* 1a: c.add a4,a0 */
	0x83, 0x46, 0x00, 0x01,   /* 1c: lbu a3,16(zero) */
	0x2a, 0x97,               /* 20: c.add a4,a0 */
};

static struct bt_result bt(const struct bt_func *bf, uint64_t pc, unsigned ev,
			   const struct regfile *f)
{
	struct bt_query q = { .pc = pc, .event = (uint8_t)ev, .regs = f };
	struct bt_result r;
	int status = bt_func_resolve(bf, &q, &r);
	assert_int_equal(status, r.status);
	return r;
}

static void expect_ea(const struct bt_result *r, uint64_t trigger, uint64_t ea, uint16_t size)
{
	if (r->status != BT_EA)
		fail_msg("trigger %#llx: status %s (%s, reg %u)", (unsigned long long)r->trigger_pc,
			 bt_status_name(r->status), bt_why_name(r->why), r->clobber_reg);
	assert_int_equal(r->trigger_pc, trigger);
	assert_int_equal(r->ea, ea);
	assert_int_equal(r->size, size);
}

/* The data address from a raw sample's registers: base + offset, x0 a fixed address. */
static void test_backtrack(void **state)
{
	struct bt_func bf;
	struct regfile f;
	struct bt_result r;
	(void)state;
	memset(&f, 0, sizeof f);
	f.arch = BMPROF_ARCH_RISCV64;
	f.n = 32;
	f.valid = 0xffffffffu;
	for (unsigned n = 1; n < 32; n++)
		f.r[n] = 0x80100000u + ((uint64_t)n << 12);
	decode(walk, sizeof walk, &bf);

	r = bt(&bf, R + 8, BT_EV_LOAD, &f);           /* ld t2,80(t6) */
	expect_ea(&r, R + 4, f.r[31] + 80, 8);
	assert_int_equal(r.base, 31);
	assert_int_equal(r.disp, 80);
	r = bt(&bf, R + 0xc, BT_EV_LOAD, &f);         /* c.lw a0,4(a1) */
	expect_ea(&r, R + 0xa, f.r[11] + 4, 4);
	r = bt(&bf, R + 0x10, BT_EV_STORE, &f);       /* c.sdsp s0,8(sp) */
	expect_ea(&r, R + 0xe, f.r[2] + 8, 8);
	r = bt(&bf, R + 0x10, BT_EV_LOAD, &f);        /* past the store to the load */
	expect_ea(&r, R + 0xa, f.r[11] + 4, 4);
	assert_int_equal(r.skid, 2);

	/* c.ld a5,24(a5) writes its own base: the address is gone */
	r = bt(&bf, R + 0x14, BT_EV_LOAD, &f);
	assert_string_equal(bt_status_name(r.status), "ea-unknown");
	assert_string_equal(bt_why_name(r.why), "clobbered");
	assert_int_equal(r.trigger_pc, R + 0x12);
	assert_int_equal(r.clobber_reg, 15);
	/* c.addi a1,8 between the load and the pc */
	r = bt(&bf, R + 0x1a, BT_EV_LOAD, &f);
	assert_string_equal(bt_why_name(r.why), "clobbered");
	assert_int_equal(r.trigger_pc, R + 0x16);
	assert_int_equal(r.clobber_reg, 11);
	assert_int_equal(r.clobber_pc, R + 0x18);
	r = bt(&bf, R + 0x20, BT_EV_LOAD, NULL);      /* lbu a3,16(zero): no register */
	expect_ea(&r, R + 0x1c, 16, 1);
	/* a register file without the base: not captured */
	f.valid &= ~(1u << 31);
	r = bt(&bf, R + 8, BT_EV_LOAD, &f);
	assert_string_equal(bt_why_name(r.why), "not-captured");
	bt_func_free(&bf);
}

/* Every compressed word and pseudo-random 32-bit words, decoded and backtracked over: each
 * access names registers x1..x31 or none, a size the ISA has, and the backtracking stays
 * within the procedure (under ASan and UBSan). */
static void test_any_bytes(void **state)
{
	static uint8_t buf[1u << 17];
	struct bt_func bf;
	struct regfile f;
	uint64_t x = 0x9e3779b97f4a7c15ull;
	(void)state;
	size_t len = 0;
	for (unsigned c = 0; c < 0x10000; c++)
		if ((c & 3) != 3) {   /* the compressed ones, each an instruction of its own */
			buf[len++] = (uint8_t)c;
			buf[len++] = (uint8_t)(c >> 8);
		}
	for (int pass = 0; pass < 2; pass++) {
		if (pass) {
			len = sizeof buf;
			for (size_t i = 0; i < len; i++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				buf[i] = (uint8_t)(i & 3 ? x : (x | 3));   /* 32-bit forms */
			}
		}
		decode(buf, len, &bf);
		if (!pass)
			assert_int_equal(bf.fn.n, len / 2);
		memset(&f, 0, sizeof f);
		f.arch = BMPROF_ARCH_RISCV64;
		f.n = 32;
		f.valid = 0xfffffffeu;
		for (size_t i = 0; i < bf.fn.n; i++) {
			const struct memop_access *a[2] = { &bf.memops[i].ld, &bf.memops[i].st };
			for (int k = 0; k < 2; k++) {
				if (!a[k]->valid)
					continue;
				assert_true(a[k]->base == NOREG || (a[k]->base >= 1 && a[k]->base < 32));
				assert_int_equal(a[k]->index, NOREG);
				assert_true(a[k]->why == MEMOP_FORM ||
					    (a[k]->size && a[k]->size <= 16 &&
					     !(a[k]->size & (a[k]->size - 1))));
			}
			if (i % 64 == 0) {
				struct bt_result r = bt(&bf, bf.fn.insns[i].addr, BT_EV_ANY, &f);
				if (r.status == BT_EA || r.status == BT_EA_UNKNOWN)
					assert_true(r.trigger_pc >= R && r.trigger_pc < bf.fn.insns[i].addr);
			}
		}
		bt_func_free(&bf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_reserved),
		cmocka_unit_test(test_backtrack),
		cmocka_unit_test(test_any_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
