/* SPDX-License-Identifier: BSD-2-Clause */
/* The capstone wrapper: known x86-64, i386 and AArch64 encodings, undecodable bytes, and a
 * whole function from the fixture ELF decoded at objdump's instruction boundaries. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elf.h>
#include <cmocka.h>

#include "symbol/disasm.h"
#include "symbol/symbolize.h"

struct want {
	uint64_t addr;
	unsigned size;
	const char *mnemonic, *operands;
};

static void check(int machine, const uint8_t *code, size_t len, uint64_t addr,
		  const struct want *w, size_t nw)
{
	char err[256];
	struct disasm *d = disasm_open(machine, err, sizeof(err));
	assert_non_null(d);
	struct disasm_insn *in;
	long n = disasm_range(d, code, len, addr, &in);
	assert_int_equal(n, (long)nw);
	for (size_t i = 0; i < nw; i++) {
		assert_int_equal(in[i].addr, w[i].addr);
		assert_int_equal(in[i].size, w[i].size);
		assert_string_equal(in[i].mnemonic, w[i].mnemonic);
		assert_string_equal(in[i].operands, w[i].operands);
	}
	free(in);
	disasm_close(d);
}

static void test_x86_64(void **state)
{
	(void)state;
	const uint8_t code[] = { 0x55, 0x48, 0x89, 0xe5, 0x0f, 0x1f, 0x44, 0x00, 0x00,
				 0xe8, 0x00, 0x00, 0x00, 0x00, 0x48, 0x8b, 0x05, 0x10,
				 0x00, 0x00, 0x00, 0xc3 };
	const struct want w[] = {
		{ 0x1000, 1, "pushq", "%rbp" },
		{ 0x1001, 3, "movq", "%rsp, %rbp" },
		{ 0x1004, 5, "nopl", "(%rax, %rax)" },
		{ 0x1009, 5, "callq", "0x100e" },
		{ 0x100e, 7, "movq", "0x10(%rip), %rax" },
		{ 0x1015, 1, "retq", "" },
	};
	check(EM_X86_64, code, sizeof(code), 0x1000, w, sizeof(w) / sizeof(w[0]));
}

static void test_i386(void **state)
{
	(void)state;
	const uint8_t code[] = { 0x55, 0x89, 0xe5, 0xc3 };
	const struct want w[] = {
		{ 0x100000, 1, "pushl", "%ebp" },
		{ 0x100001, 2, "movl", "%esp, %ebp" },
		{ 0x100003, 1, "retl", "" },
	};
	check(EM_386, code, sizeof(code), 0x100000, w, sizeof(w) / sizeof(w[0]));
}

static void test_aarch64(void **state)
{
	(void)state;
	const uint8_t code[] = { 0xfd, 0x7b, 0xbf, 0xa9, 0xfd, 0x03, 0x00, 0x91, 0x00, 0x00,
				 0x00, 0x94, 0x1f, 0x20, 0x03, 0xd5, 0xc0, 0x03, 0x5f, 0xd6 };
	const struct want w[] = {
		{ 0x40000000, 4, "stp", "x29, x30, [sp, #-0x10]!" },
		{ 0x40000004, 4, "mov", "x29, sp" },
		{ 0x40000008, 4, "bl", "#0x40000008" },
		{ 0x4000000c, 4, "nop", "" },
		{ 0x40000010, 4, "ret", "" },
	};
	check(EM_AARCH64, code, sizeof(code), 0x40000000, w, sizeof(w) / sizeof(w[0]));
}

/* Thumb with data in it (disasm_range_data): a tbb and its table, code, data ending at a
 * halfword and at a byte, as objdump shows them (.word only where word-aligned). */
static void test_thumb_data(void **state)
{
	(void)state;
	const uint8_t code[] = { 0xdf, 0xe8, 0x03, 0xf0, 0x3d, 0x34, 0x2b, 0x22, 0x12, 0x03,
				 0x93, 0x1c, 0x40, 0x07, 0x00, 0x00, 0x70, 0x47 };
	const struct sym_range data[] = { { 0x2792, 0x2798 }, { 0x279a, 0x279d },
					  { 0x279d, 0x279e } };
	const struct want w[] = {
		{ 0x278e, 4, "tbb", "[pc, r3]" },
		{ 0x2792, 2, ".short", "0x343d" },
		{ 0x2794, 4, ".word", "0x0312222b" },
		{ 0x2798, 2, "adds", "r3, r2, #2" },
		{ 0x279a, 2, ".short", "0x0740" },
		{ 0x279c, 1, ".byte", "0x00" },
		{ 0x279d, 1, ".byte", "0x00" },
		{ 0x279e, 2, "bx", "lr" },
	};
	char err[256];
	struct disasm *d = disasm_open(EM_ARM, err, sizeof(err));
	struct disasm_insn *in;

	assert_non_null(d);
	assert_int_equal(disasm_range_data(d, code, sizeof code, 0x278e, data, 3, &in), 8);
	for (size_t i = 0; i < 8; i++) {
		assert_int_equal(in[i].addr, w[i].addr);
		assert_int_equal(in[i].size, w[i].size);
		assert_string_equal(in[i].mnemonic, w[i].mnemonic);
		assert_string_equal(in[i].operands, w[i].operands);
	}
	free(in);
	disasm_close(d);
}

/* RISC-V through disasm_rv.c, against objdump's text: compressed and 32-bit forms mixed,
 * branch and jump targets absolute, aliases as objdump shows them (li, mv, ret, bnez, j,
 * csrr), CSRs by name, an AMO, FP, fence, and an unknown halfword; a cut-off tail. */
static void test_riscv(void **state)
{
	(void)state;
	const uint8_t code[] = {
		0x41, 0x11,                 /* c.addi sp,-16 */
		0x22, 0xe4,                 /* c.sdsp s0,8 */
		0xb7, 0xf7, 0xfa, 0x02,     /* lui a5,0x2faf */
		0x33, 0x05, 0xd5, 0x02,     /* mul a0,a0,a3 */
		0x3a, 0x95,                 /* c.add a0,a4 */
		0xe5, 0xff,                 /* c.bnez a5,-8 */
		0x82, 0x80,                 /* c.jr ra */
		0x73, 0x25, 0x40, 0xf1,     /* csrr a0,mhartid */
		0x2f, 0xb5, 0xa5, 0x0e,     /* amoswap.d.aqrl a0,a0,(a1) */
		0xd3, 0x77, 0xb5, 0x02,     /* fadd.d fa5,fa0,fa1 */
		0x0f, 0x00, 0x50, 0x0f,     /* fence iorw,ow */
		0x05, 0x45,                 /* c.li a0,1 */
		0x2a, 0x85,                 /* c.mv a0,a0 */
		0x01, 0xa0,                 /* c.j 0 */
		0x00, 0x00,                 /* illegal */
		0x13,                       /* a cut-off tail */
	};
	const struct want w[] = {
		{ 0x80000000, 2, "addi", "sp,sp,-16" },
		{ 0x80000002, 2, "sd", "s0,8(sp)" },
		{ 0x80000004, 4, "lui", "a5,0x2faf" },
		{ 0x80000008, 4, "mul", "a0,a0,a3" },
		{ 0x8000000c, 2, "add", "a0,a0,a4" },
		{ 0x8000000e, 2, "bnez", "a5,0x80000006" },
		{ 0x80000010, 2, "ret", "" },
		{ 0x80000012, 4, "csrr", "a0,mhartid" },
		{ 0x80000016, 4, "amoswap.d.aqrl", "a0,a0,(a1)" },
		{ 0x8000001a, 4, "fadd.d", "fa5,fa0,fa1" },
		{ 0x8000001e, 4, "fence", "iorw,ow" },
		{ 0x80000022, 2, "li", "a0,1" },
		{ 0x80000024, 2, "mv", "a0,a0" },
		{ 0x80000026, 2, "j", "0x80000026" },
		{ 0x80000028, 2, ".insn", "0x0000" },
		{ 0x8000002a, 1, ".byte", "0x13" },
	};
	check(EM_RISCV, code, sizeof(code), 0x80000000, w, sizeof(w) / sizeof(w[0]));
}

/* Bytes that decode to nothing still occupy entries, and so does a cut-off tail. */
static void test_undecodable_bytes(void **state)
{
	(void)state;
	const uint8_t x86[] = { 0x06, 0xc3, 0x48, 0x8b };
	const struct want wx[] = {
		{ 0x10, 1, ".byte", "0x06" },
		{ 0x11, 1, "retq", "" },
		{ 0x12, 1, ".byte", "0x48" },
		{ 0x13, 1, ".byte", "0x8b" },
	};
	check(EM_X86_64, x86, sizeof(x86), 0x10, wx, sizeof(wx) / sizeof(wx[0]));
	const uint8_t a64[] = { 0xff, 0xff, 0xff, 0xff, 0xc0, 0x03, 0x5f, 0xd6, 0x12 };
	const struct want wa[] = {
		{ 0x20, 4, ".byte", "0xff, 0xff, 0xff, 0xff" },
		{ 0x24, 4, "ret", "" },
		{ 0x28, 1, ".byte", "0x12" },
	};
	check(EM_AARCH64, a64, sizeof(a64), 0x20, wa, sizeof(wa) / sizeof(wa[0]));
}

static void test_bad_machine(void **state)
{
	(void)state;
	char err[256] = "";
	assert_null(disasm_open(EM_SPARC, err, sizeof(err)));
	assert_non_null(strstr(err, "no disassembler"));
	char dummy[1] = { 0 };
	struct disasm *d = disasm_open(EM_X86_64, err, sizeof(err));
	struct disasm_insn *in = (struct disasm_insn *)dummy;
	assert_int_equal(disasm_range(d, (const uint8_t *)"", 0, 0, &in), 0);
	assert_null(in);
	disasm_close(d);
}

/* Every byte of a compiled function in exactly one entry, at objdump's boundaries. */
static void test_whole_function(void **state)
{
	(void)state;
	const char *dir = getenv("BMPROF_FIXTURES");
	char elf[512];
	snprintf(elf, sizeof(elf), "%s/sym_dw5.elf", dir && *dir ? dir : "build/fixtures");
	char err[256];
	struct symbolizer *s = symbolizer_open(elf, err, sizeof(err));
	assert_non_null(s);
	const char *names[] = { "compute", "branchy", "other_loop" };
	for (size_t f = 0; f < 3; f++) {
		uint64_t start, size;
		assert_int_equal(symbolizer_find_function(s, names[f], &start, &size), 0);
		uint8_t *code = malloc(size);
		assert_int_equal(symbolizer_read(s, start, code, size), 0);
		struct disasm *d = disasm_open(symbolizer_machine(s), err, sizeof(err));
		assert_non_null(d);
		struct disasm_insn *in;
		long n = disasm_range(d, code, size, start, &in);
		assert_true(n > 5);
		uint64_t at = start;
		for (long i = 0; i < n; i++) {
			assert_int_equal(in[i].addr, at);
			assert_string_not_equal(in[i].mnemonic, ".byte");
			at += in[i].size;
		}
		assert_int_equal(at, start + size);
		char cmd[1024];
		snprintf(cmd, sizeof(cmd),
			 "objdump -d --no-show-raw-insn --start-address=0x%" PRIx64
			 " --stop-address=0x%" PRIx64 " %s | grep -c '^ *[0-9a-f]*:'",
			 start, start + size, elf);
		FILE *p = popen(cmd, "r");
		long want = -1;
		assert_int_equal(fscanf(p, "%ld", &want), 1);
		pclose(p);
		assert_int_equal(n, want);
		free(in);
		free(code);
		disasm_close(d);
	}
	symbolizer_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86_64),
		cmocka_unit_test(test_i386),
		cmocka_unit_test(test_aarch64),
		cmocka_unit_test(test_riscv),
		cmocka_unit_test(test_thumb_data),
		cmocka_unit_test(test_undecodable_bytes),
		cmocka_unit_test(test_bad_machine),
		cmocka_unit_test(test_whole_function),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
