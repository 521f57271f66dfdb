/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof bhive's host side: the blocks reader, the result rows, the unroll factors and the
 * throughput formula, the harness's result lines, and what capstone tells before and
 * after a run. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bhive/bhive_csv.h"
#include "bhive/bhive_note.h"
#include "bhive/bhive_result.h"
#include "bhive/bhive_rip.h"
#include "bhive/bhive_unroll.h"
#include "bhive/bhive_run.h"

static int parse(const char *text, struct bhive_blocks *b, char *err, size_t n)
{
	return bhive_csv_parse(text, strlen(text), "b.csv", b, err, n);
}

static void test_csv_read(void **state)
{
	struct bhive_blocks b;
	char err[256];

	(void)state;
	assert_int_equal(parse("hex,throughput\n4801D8,100.00\r\n\n  488b18 , 1\n90", &b, err,
			       sizeof err), 0);
	assert_int_equal(b.n, 3);
	assert_string_equal(b.v[0].hex, "4801d8");
	assert_int_equal(b.v[0].len, 3);
	assert_memory_equal(b.v[0].code, "\x48\x01\xd8", 3);
	assert_int_equal(b.v[0].line, 2);
	assert_string_equal(b.v[1].hex, "488b18");
	assert_int_equal(b.v[1].line, 4);
	assert_string_equal(b.v[2].hex, "90");
	assert_int_equal(b.v[2].line, 5);
	bhive_blocks_free(&b);
	/* our own output fed back: the header and the extra columns are skipped */
	assert_int_equal(parse(BHIVE_CSV_HEADER "\n4801d8,1.00,ok,faults=0\n", &b, err,
			       sizeof err), 0);
	assert_int_equal(b.n, 1);
	bhive_blocks_free(&b);
	assert_int_equal(parse("", &b, err, sizeof err), 0);
	assert_int_equal(b.n, 0);
	bhive_blocks_free(&b);
}

static void test_csv_errors(void **state)
{
	static const struct { const char *text, *want; } bad[] = {
		{ "4801d8\n48zz,1\n", "b.csv:2: the first column is not hexadecimal" },
		{ "4801d\n", "b.csv:1: the first column has an odd number of hex digits" },
		{ "4801d8\n,100\n", "b.csv:2: the first column is empty" },
		{ "90\n\nhex\n", "b.csv:3: the first column is not hexadecimal" },  /* not line 1 */
		{ "48 01\n", "b.csv:1: the first column is not hexadecimal" },
	};
	struct bhive_blocks b;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_int_equal(parse(bad[i].text, &b, err, sizeof err), -1);
		assert_non_null(strstr(err, bad[i].want));
		assert_int_equal(b.n, 0);
		assert_null(b.v);
	}
	/* longer than the limit */
	size_t n = BHIVE_CSV_MAX_HEX + 2;
	char *big = malloc(n + 2);
	assert_non_null(big);
	memset(big, 'a', n);
	big[n] = '\n';
	big[n + 1] = 0;
	assert_int_equal(parse(big, &b, err, sizeof err), -1);
	assert_non_null(strstr(err, "b.csv:1: the block is longer than"));
	free(big);
}

static void test_csv_row(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	bhive_csv_row(f, "4801d8", 1.0, "ok", "a=1;b=2");
	bhive_csv_row(f, "f4", -1, "privileged", "x,y\"z\nw");
	fclose(f);
	assert_string_equal(text, "4801d8,1.00,ok,a=1;b=2\nf4,,privileged,x;y'z w\n");
	free(text);
}

static void test_unroll_factors(void **state)
{
	static const struct { size_t len; unsigned lo, hi; } want[] = {
		{ 1, 100, 200 }, { 3, 100, 200 }, { 81, 100, 200 }, { 82, 99, 198 },
		{ 100, 81, 162 }, { 4096, 2, 4 }, { 8192, 1, 2 },
	};
	unsigned lo = 0, hi = 0;

	(void)state;
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		assert_int_equal(bhive_unroll_factors(want[i].len, &lo, &hi), 1);
		assert_int_equal(lo, want[i].lo);
		assert_int_equal(hi, want[i].hi);
		assert_true(hi * want[i].len <= BHIVE_CODE_BUDGET);
	}
	assert_int_equal(bhive_unroll_factors(0, &lo, &hi), 0);
	assert_int_equal(bhive_unroll_factors(8193, &lo, &hi), 0);
}

static void test_throughput(void **state)
{
	(void)state;
	/* a block of throughput 2.5 with 40 cycles of overhead: cycles(u) = 40 + 2.5u, and
	 * cycles(u') = cycles(u) + (u' - u) * throughput (the paper's erratum: not divided) */
	uint64_t c100 = 40 + 250, c200 = c100 + (200 - 100) * 5 / 2;
	assert_true(bhive_throughput(c100, c200, 100, 200) == 2.5);
	assert_true(bhive_throughput(109, 209, 100, 200) == 1.0);
	assert_true(bhive_throughput(209, 109, 100, 200) < 0);
	assert_true(bhive_throughput(1, 2, 100, 100) < 0);
	/* calibration: 16 adds an iteration, 100 more iterations = 1600 cycles */
	assert_true(bhive_core_per_tick(1609, 3209) == 1.0);
	assert_true(bhive_core_per_tick(1000, 1800) == 2.0);
	assert_true(bhive_core_per_tick(0, 0) < 0);
}

static void test_result_line(void **state)
{
	struct bhive_result r;
	uint32_t i;
	char clock[8];

	(void)state;
	assert_int_equal(bhive_parse_line("@bhive 7 0 109 209 1609 3209 1 1 0 16 15 2 -1 0 -1 0", &i, &r),
			 0);
	assert_int_equal(i, 7);
	assert_int_equal(r.status, BHIVE_OK);
	assert_int_equal(r.t_lo, 109);
	assert_int_equal(r.t_hi, 209);
	assert_int_equal(r.cal_lo, 1609);
	assert_int_equal(r.cal_hi, 3209);
	assert_int_equal(r.faults, 1);
	assert_int_equal(r.kept_hi, 15);
	assert_int_equal(r.vector, -1);
	assert_false(r.have_regs);
	assert_int_equal(bhive_parse_line("@bhive 1 10 0 0 0 0 0 0 0 0 0 0 13 0x0 10 0x12346600 "
					  "8000000000000000 1 2 3 4 5 6 7 8 9 a b c d e f", &i, &r),
			 0);
	assert_int_equal(r.vector, 13);
	assert_int_equal(r.offset, 10);
	assert_true(r.have_regs);
	assert_int_equal(r.regs[0], 0x8000000000000000ull);
	assert_int_equal(r.regs[15], 0xf);
	assert_int_equal(bhive_parse_line("@bhive 1 99 0 0 0 0 0 0 0 0 0 0 -1 0 -1 0", &i, &r), -1);
	assert_int_equal(bhive_parse_line("@bhive 1 0 0", &i, &r), -1);
	assert_int_equal(bhive_parse_line("hello", &i, &r), -1);
	assert_int_equal(bhive_parse_clock("@bhive-clock tsc", clock, sizeof clock), 0);
	assert_string_equal(clock, "tsc");
	assert_int_equal(bhive_parse_clock("@bhive-clocks", clock, sizeof clock), -1);
	assert_string_equal(bhive_status_name(BHIVE_TOO_MANY_FAULTS), "too-many-faults");
	assert_string_equal(bhive_status_name(BHIVE_PRIVILEGED), "privileged");
}

/* Rip-relative operands: where their disp32 is, where their instruction ends, and the
 * block address (mod 64) that aligns them to their size. */
static void test_rip_operands(void **state)
{
	/* mov $0x113160, %edi; mov %rbx, 0x15ae63(%rip): the store ends at 12, its target is
	 * 12 + 0x15ae63 = 0x15ae6f from the block's start: 8-aligned when the block sits at 1
	 * modulo 8 (the smallest such: 1) */
	static const uint8_t store[] = { 0xbf, 0x60, 0x31, 0x11, 0x00, 0x48, 0x89, 0x1d,
					 0x63, 0xae, 0x15, 0x00 };
	/* movaps 0x100(%rip), %xmm0 (16 bytes; ends at 7: wants 7 + 0x100 + r = 0 mod 16,
	 * r = 9); mov 0x206(%rip), %eax (4 bytes; ends at 13: 13 + 0x206 + r = 0 mod 4: 9
	 * too); with 0x200 instead the two cannot both be aligned, and the larger wins */
	static const uint8_t two[] = { 0x0f, 0x28, 0x05, 0x00, 0x01, 0x00, 0x00,
				       0x8b, 0x05, 0x06, 0x02, 0x00, 0x00 };
	static const uint8_t clash[] = { 0x0f, 0x28, 0x05, 0x00, 0x01, 0x00, 0x00,
					 0x8b, 0x05, 0x00, 0x02, 0x00, 0x00 };
	/* cmpw $0, 0x33599f(%rip): an operand-size prefix (which capstone 4's disp_offset
	 * does not count), the disp32 at 3, the immediate after it: ends at 8;
	 * 8 + 0x33599f + r even */
	static const uint8_t cmpw[] = { 0x66, 0x83, 0x3d, 0x9f, 0x59, 0x33, 0x00, 0x00 };
	/* add %rbx, %rax: none */
	static const uint8_t none[] = { 0x48, 0x01, 0xd8 };
	struct bhive_in_rip r[BHIVE_MAX_RIP];
	unsigned align = 99;
	(void)state;

	assert_int_equal(bhive_rip_operands(store, sizeof store, r, &align), 1);
	assert_int_equal(r[0].disp_at, 8);
	assert_int_equal(r[0].end_at, 12);
	assert_int_equal(align, 1);
	assert_int_equal((12 + 0x15ae63 + align) % 8, 0);

	assert_int_equal(bhive_rip_operands(two, sizeof two, r, &align), 2);
	assert_int_equal(r[0].disp_at, 3);
	assert_int_equal(r[0].end_at, 7);
	assert_int_equal(r[1].disp_at, 9);
	assert_int_equal(r[1].end_at, 13);
	assert_int_equal(align, 9);
	assert_int_equal(bhive_rip_operands(clash, sizeof clash, r, &align), 2);
	assert_int_equal(align, 9);

	assert_int_equal(bhive_rip_operands(cmpw, sizeof cmpw, r, &align), 1);
	assert_int_equal(r[0].disp_at, 3);
	assert_int_equal(r[0].end_at, 8);
	assert_int_equal((8 + 0x33599f + align) % 2, 0);
	assert_int_equal(bhive_rip_operands(none, sizeof none, r, &align), 0);
	/* a truncated instruction: nothing to fix, the harness is not misled */
	assert_int_equal(bhive_rip_operands(store, sizeof store - 1, r, &align), 0);
}

static void test_capstone(void **state)
{
	uint64_t regs[16];
	unsigned insns;
	size_t bad = 0;

	(void)state;
	assert_int_equal(bhive_precheck((const uint8_t *)"\x48\x01\xd8\x48\x8b\x18", 6, &insns,
					&bad), BHIVE_OK);
	assert_int_equal(insns, 2);
	assert_int_equal(bhive_precheck((const uint8_t *)"\x48\x01\xd8\xeb\x00", 5, &insns,
					&bad), BHIVE_CONTROL_FLOW);
	assert_int_equal(bhive_precheck((const uint8_t *)"\x90\xc3", 2, &insns, &bad),
			 BHIVE_CONTROL_FLOW);
	assert_int_equal(bhive_precheck((const uint8_t *)"\x90\x0f", 2, &insns, &bad),
			 BHIVE_UNDECODABLE);
	assert_int_equal(bad, 1);
	for (int i = 0; i < 16; i++)
		regs[i] = 0x12345600;
	assert_int_equal(bhive_refine_gp((const uint8_t *)"\xf4", 1, 0, regs), BHIVE_PRIVILEGED);
	/* mov (%rax), %r8 with rax non-canonical, and canonical */
	regs[0] = 0x8000000000000000ull;
	assert_int_equal(bhive_refine_gp((const uint8_t *)"\x4c\x8b\x00", 3, 0, regs),
			 BHIVE_NONCANONICAL);
	regs[0] = 0x12345600;
	assert_int_equal(bhive_refine_gp((const uint8_t *)"\x4c\x8b\x00", 3, 0, regs),
			 BHIVE_GENERAL_PROTECTION);
	/* base + index * scale + disp: 0x7fff_ffff_f000 + 8 * 0x200 = 0x8000_0000_0000 */
	regs[3] = 0x7ffffffff000ull;
	regs[1] = 0x200;
	assert_int_equal(bhive_refine_gp((const uint8_t *)"\x48\x8b\x04\xcb", 4, 0, regs),
			 BHIVE_NONCANONICAL);
	assert_int_equal(bhive_refine_gp((const uint8_t *)"\x4c\x8b\x00", 3, 5, regs),
			 BHIVE_GENERAL_PROTECTION);   /* an offset outside the block */
}

/* AArch64: 4-byte little-endian words; every branch and exception-generating class */
static void test_precheck_a64(void **state)
{
	static const uint32_t leave[] = {
		0x14000001, 0x97ffffff,   /* b .+4, bl .-4 */
		0x54000040, 0x54000050,   /* b.eq, bc.eq */
		0xb4000040, 0x35000040,   /* cbz x0, cbnz w0 */
		0x36000040, 0xb7f80040,   /* tbz w0 #0, tbnz x0 #63 */
		0xd61f0000, 0xd63f0000,   /* br x0, blr x0 */
		0xd65f03c0, 0xd69f03e0,   /* ret, eret */
		0xd65f0bff,               /* retaa */
		0xd4000001, 0xd4000002,   /* svc #0, hvc #0 */
		0xd4000003, 0xd4200000,   /* smc #0, brk #0 */
		0xd4400000,               /* hlt #0 */
	};
	static const uint32_t stay[] = {
		0x8b010000, 0xf9400020,   /* add x0, x0, x1; ldr x0, [x1] */
		0xd503201f, 0xd5381000,   /* nop; mrs x0, sctlr_el1 (the harness judges it) */
		0xd503207f, 0x00000000,   /* wfi; udf #0 */
		0x1e602820, 0x4e083c00,   /* fadd d0, d1, d0; umov x0, v0.d[0] */
		0x10000000, 0x90000000,   /* adr x0, .; adrp x0, . */
	};
	uint8_t b[8];
	unsigned insns;
	size_t bad = 0;

	(void)state;
	for (size_t i = 0; i < sizeof leave / sizeof *leave; i++) {
		uint32_t ok = 0x8b010000;
		memcpy(b, &ok, 4);
		memcpy(b + 4, &leave[i], 4);
		assert_int_equal(bhive_precheck_a64(b, 8, &insns, &bad), BHIVE_CONTROL_FLOW);
		assert_int_equal(insns, 2);
	}
	for (size_t i = 0; i < sizeof stay / sizeof *stay; i++) {
		memcpy(b, &stay[i], 4);
		assert_int_equal(bhive_precheck_a64(b, 4, &insns, &bad), BHIVE_OK);
		assert_int_equal(insns, 1);
	}
	memcpy(b, &stay[0], 4);
	assert_int_equal(bhive_precheck_a64(b, 6, &insns, &bad), BHIVE_UNDECODABLE);
	assert_int_equal(bad, 4);
	assert_int_equal(bhive_precheck_a64(b, 3, &insns, &bad), BHIVE_UNDECODABLE);
	assert_int_equal(bad, 0);
}

/* The TCG note advises --accel kvm only where KVM can run the harness */
/* Only blocks the harness judged unstable are judged again; the rest, and what the host
 * judged alone, stay as they are. */
static void test_again_unstable(void **state)
{
	struct bhive_result r[5] = {
		{ .have = 1, .ran = 1, .status = BHIVE_UNSTABLE, .u_lo = 100, .u_hi = 200, .insns = 3 },
		{ .have = 1, .ran = 1, .status = BHIVE_OK },
		{ .have = 1, .ran = 0, .status = BHIVE_UNDECODABLE },
		{ .have = 1, .ran = 1, .status = BHIVE_UNSTABLE },
		{ .have = 0, .status = BHIVE_NOT_RUN },
	};
	(void)state;
	assert_int_equal(bhive_again_unstable(r, 5), 2);
	assert_int_equal(r[0].have, 0);
	assert_int_equal(r[0].u_lo, 100);
	assert_int_equal(r[0].u_hi, 200);
	assert_int_equal(r[0].insns, 3);
	assert_int_equal(r[1].have, 1);
	assert_int_equal(r[2].have, 1);
	assert_int_equal(r[3].have, 0);
	assert_int_equal(r[4].have, 0);
	assert_int_equal(bhive_again_unstable(r, 5), 0);
}

static void test_tcg_note(void **state)
{
	char s[256];

	(void)state;
	bhive_tcg_note(BHIVE_ARCH_X86_64, 1, "x86_64", s, sizeof s);
	assert_string_equal(s, "under TCG the cycles are QEMU's instructions (-icount), not a "
			    "CPU's (use --accel kvm for timings)");
	bhive_tcg_note(BHIVE_ARCH_AARCH64, 0, "aarch64", s, sizeof s);
	assert_non_null(strstr(s, "QEMU's host time"));
	assert_non_null(strstr(s, "(use --accel kvm for timings)"));
	bhive_tcg_note(BHIVE_ARCH_AARCH64, 1, "x86_64", s, sizeof s);
	assert_string_equal(s, "under TCG the cycles are QEMU's instructions (-icount), not a "
			    "CPU's (KVM cannot run aarch64 blocks on this x86_64 host: for timings, "
			    "run bmprof bhive --arch aarch64 --accel kvm on an aarch64 host)");
	bhive_tcg_note(BHIVE_ARCH_X86_64, 1, "aarch64", s, sizeof s);
	assert_non_null(strstr(s, "KVM cannot run x86_64 blocks on this aarch64 host"));
	assert_null(strstr(s, "use --accel kvm"));
	bhive_tcg_note(BHIVE_ARCH_AARCH64, 1, "", s, sizeof s);
	assert_non_null(strstr(s, "(use --accel kvm for timings)"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv_read),
		cmocka_unit_test(test_csv_errors),
		cmocka_unit_test(test_csv_row),
		cmocka_unit_test(test_unroll_factors),
		cmocka_unit_test(test_throughput),
		cmocka_unit_test(test_result_line),
		cmocka_unit_test(test_capstone),
		cmocka_unit_test(test_precheck_a64),
		cmocka_unit_test(test_tcg_note),
		cmocka_unit_test(test_again_unstable),
		cmocka_unit_test(test_rip_operands),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
