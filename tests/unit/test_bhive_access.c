/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof bhive's misaligned-access rule: which accesses cross a 64-byte line, the address
 * the harness computes from a described access and the registers at an #AC, the accesses
 * the host describes with capstone, and the reason a misaligned block is given. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "bhive/bhive_access.h"
#include "bhive/bhive_result.h"

#define RAX 0
#define RCX 1
#define RSP 4
#define NOREG BHIVE_ACC_NOREG

static void test_splits_line(void **state)
{
	(void)state;
	/* inside one line: misaligned, but not split */
	assert_false(bhive_splits_line(0x12345601, 8));
	assert_false(bhive_splits_line(0x12345638, 8));   /* ends at the boundary */
	assert_false(bhive_splits_line(0x1234563f, 1));
	assert_false(bhive_splits_line(0x12345631, 15));
	assert_false(bhive_splits_line(0x40, 64));
	/* across a boundary */
	assert_true(bhive_splits_line(0x1234563c, 8));
	assert_true(bhive_splits_line(0x1234563f, 2));
	assert_true(bhive_splits_line(0x12345631, 16));
	assert_true(bhive_splits_line(0x41, 64));
	assert_true(bhive_splits_line(0xfff9, 8));          /* and a page */
}

static void test_effective_address(void **state)
{
	uint64_t regs[16];
	const struct bhive_in_access based = { .base = RAX, .index = RCX, .shift = 2, .disp = -4,
					       .size = 8 };
	const struct bhive_in_access rip = { .flags = BHIVE_ACC_RIP, .base = NOREG,
					     .index = NOREG, .disp = 0x17, .size = 4 };
	const struct bhive_in_access fs = { .flags = BHIVE_ACC_FS, .base = NOREG,
					    .index = RAX, .disp = 0x28, .size = 8 };
	const struct bhive_in_access a32 = { .flags = BHIVE_ACC_ADDR32, .base = RAX,
					     .index = NOREG, .disp = 0x10, .size = 4 };
	(void)state;

	for (unsigned i = 0; i < 16; i++)
		regs[i] = 0x12345600;
	regs[RCX] = 3;
	assert_int_equal(bhive_access_ea(&based, regs, 0, 0), 0x12345600 + 12 - 4);
	/* rip-relative: from where the harness makes them point */
	assert_int_equal(bhive_access_ea(&rip, regs, 0x7f0040000009ull, 0), 0x7f0040000020ull);
	assert_int_equal(bhive_access_ea(&fs, regs, 0, 0x12345600), 0x2468ac28ull);
	regs[RAX] = 0x1fffffff8ull;
	assert_int_equal(bhive_access_ea(&a32, regs, 0, 0), 0x8);
}

static void test_accesses_x86(void **state)
{
	/* mov 0x1(%rax), %rbx; add %rbx, %rax; mov 0x8(%rax,%rcx,4), %rax;
	 * mov %fs:0x28, %rax; mov 0x10(%rip), %rcx; lea 0x1(%rax), %rax; push %rax;
	 * movsq; addq $1, 0x3(%rax) */
	static const uint8_t code[] = {
		0x48, 0x8b, 0x58, 0x01,                                  /* 0 */
		0x48, 0x01, 0xd8,                                        /* 4 */
		0x48, 0x8b, 0x44, 0x88, 0x08,                            /* 7 */
		0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0x00, 0x00, 0x00,    /* 12 */
		0x48, 0x8b, 0x0d, 0x10, 0x00, 0x00, 0x00,                /* 21 */
		0x48, 0x8d, 0x40, 0x01,                                  /* 28 */
		0x50,                                                    /* 32 */
		0x48, 0xa5,                                              /* 33 */
		0x48, 0x83, 0x40, 0x03, 0x01,                            /* 35 */
	};
	struct bhive_in_access a[16];
	(void)state;

	assert_int_equal(bhive_accesses(0, code, sizeof code, a, 16), 6);
	assert_int_equal(a[0].at, 0);
	assert_int_equal(a[0].len, 4);
	assert_int_equal(a[0].size, 8);
	assert_int_equal(a[0].base, RAX);
	assert_int_equal(a[0].index, NOREG);
	assert_int_equal(a[0].disp, 1);
	assert_int_equal(a[1].at, 7);
	assert_int_equal(a[1].base, RAX);
	assert_int_equal(a[1].index, RCX);
	assert_int_equal(a[1].shift, 2);
	assert_int_equal(a[1].disp, 8);
	assert_int_equal(a[2].at, 12);
	assert_int_equal(a[2].flags, BHIVE_ACC_FS);
	assert_int_equal(a[2].base, NOREG);
	assert_int_equal(a[2].disp, 0x28);
	assert_int_equal(a[3].at, 21);
	assert_int_equal(a[3].flags, BHIVE_ACC_RIP);
	assert_int_equal(a[3].disp, 28 + 0x10);   /* the instruction's end + disp32 */
	/* lea accesses nothing; push %rax stores 8 bytes below rsp */
	assert_int_equal(a[4].at, 32);
	assert_int_equal(a[4].base, RSP);
	assert_int_equal(a[4].disp, -8);
	assert_int_equal(a[4].size, 8);
	/* movsq has two addresses: not described; the read-modify-write is one */
	assert_int_equal(a[5].at, 35);
	assert_int_equal(a[5].size, 8);
	assert_int_equal(a[5].disp, 3);
	assert_ptr_equal(bhive_access_at(a, 6, 35), &a[5]);
	assert_null(bhive_access_at(a, 6, 33));

	/* mov 0x1(%rax), %rbx reaches one address in every copy; mov (%rax), %rax and push
	 * %rax move their own address */
	static const uint8_t fixed[] = { 0x48, 0x8b, 0x58, 0x01 };
	static const uint8_t chase[] = { 0x48, 0x8b, 0x00 };
	static const uint8_t push[] = { 0x50 };
	assert_int_equal(bhive_accesses(0, fixed, sizeof fixed, a, 16), 1);
	assert_true(bhive_accesses_fixed(fixed, sizeof fixed, a, 1));
	assert_int_equal(bhive_accesses(0, chase, sizeof chase, a, 16), 1);
	assert_false(bhive_accesses_fixed(chase, sizeof chase, a, 1));
	assert_int_equal(bhive_accesses(0, push, sizeof push, a, 16), 1);
	assert_false(bhive_accesses_fixed(push, sizeof push, a, 1));

	/* cmpsb (rsi and rdi), bt %rcx, (%rax) (past the operand), fxsave (512 bytes): none */
	static const uint8_t other[] = { 0xa6, 0x48, 0x0f, 0xa3, 0x08, 0x0f, 0xae, 0x00 };
	assert_int_equal(bhive_accesses(0, other, sizeof other, a, 16), 0);
}

static void test_accesses_a64(void **state)
{
	/* ldur x0, [x1, #1]; add x0, x0, x1; ldp x0, x1, [x1]; strb w0, [x1, #3];
	 * an unallocated word; ldr q0, [x1] */
	static const uint8_t code[] = {
		0x20, 0x10, 0x40, 0xf8, 0x00, 0x00, 0x01, 0x8b, 0x20, 0x04, 0x40, 0xa9,
		0x20, 0x0c, 0x00, 0x39, 0xff, 0xff, 0xff, 0xff, 0x20, 0x00, 0xc0, 0x3d,
	};
	struct bhive_in_access a[8];
	(void)state;

	assert_int_equal(bhive_accesses(1, code, sizeof code, a, 8), 4);
	assert_int_equal(a[0].at, 0);
	assert_int_equal(a[0].size, 8);
	assert_int_equal(a[1].at, 8);
	assert_int_equal(a[1].size, 16);   /* both registers of the pair */
	assert_int_equal(a[2].at, 12);
	assert_int_equal(a[2].size, 1);
	assert_int_equal(a[3].at, 20);
	assert_int_equal(a[3].size, 16);
}

static void test_misaligned_reason(void **state)
{
	/* mov 0x3c(%rax), %rbx; movsq */
	static const uint8_t x86[] = { 0x48, 0x8b, 0x58, 0x3c, 0x48, 0xa5 };
	/* ldur x0, [x1, #1]; ldxr x0, [x1] */
	static const uint8_t a64[] = { 0x20, 0x10, 0x40, 0xf8, 0x20, 0x7c, 0x5f, 0xc8 };
	struct bhive_result r = { .status = BHIVE_MISALIGNED, .vector = 17, .offset = 0,
				  .addr = 0x1234563c };
	(void)state;

	bhive_misaligned_reason(0, x86, sizeof x86, &r);
	assert_int_equal(r.misaligned, BHIVE_MIS_SPLIT);
	assert_int_equal(r.acc_size, 8);
	assert_string_equal(bhive_misaligned_name(r.misaligned), "line-split");
	r.offset = 4, r.addr = 0;
	bhive_misaligned_reason(0, x86, sizeof x86, &r);
	assert_int_equal(r.misaligned, BHIVE_MIS_UNDESCRIBED);
	assert_int_equal(r.acc_size, 0);
	/* AArch64: inside a line, yet it faulted (an exclusive load needs alignment) */
	r = (struct bhive_result){ .vector = 0x24, .offset = 4, .addr = 0x12345601 };
	bhive_misaligned_reason(1, a64, sizeof a64, &r);
	assert_int_equal(r.misaligned, BHIVE_MIS_STRICT);
	assert_string_equal(bhive_misaligned_name(r.misaligned), "strict");
	r = (struct bhive_result){ .vector = 0x26, .offset = 0, .addr = 0x12345601 };
	bhive_misaligned_reason(1, a64, sizeof a64, &r);
	assert_int_equal(r.misaligned, BHIVE_MIS_SP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_splits_line),
		cmocka_unit_test(test_effective_address),
		cmocka_unit_test(test_accesses_x86),
		cmocka_unit_test(test_accesses_a64),
		cmocka_unit_test(test_misaligned_reason),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
