/* SPDX-License-Identifier: BSD-2-Clause */
/* Exact counts on AArch64 (bmprof count, tests/e2e/test_count.sh): instructions at global
 * labels whose executions the source fixes.
 *   cnt_loop       the first instruction of a loop body run `n` times (default 1000)
 *   cnt_mmio       a load from the PL011's flag register (MMIO) in the middle of its
 *                  block, `n` times; cnt_mmio_before and cnt_mmio_after around it
 * With the parameter mode=1 main then executes cnt_udf, an undefined instruction: the
 * runtime reports the exception and ends the run, so cnt_udf never retires while
 * cnt_before_udf, just before it, retires once. */
#include <bmrt.h>
#include <stdint.h>

#define PL011_FR 0x09000018ul

__attribute__((noinline)) static uint64_t loop(uint64_t n)
{
	uint64_t x = 1;

	__asm__ volatile("1:\n\t"
			 ".globl cnt_loop\ncnt_loop:\n\t"
			 "add %1, %1, #3\n\t"
			 "eor %1, %1, %1, lsr #7\n\t"
			 "subs %0, %0, #1\n\t"
			 "b.ne 1b"
			 : "+r"(n), "+r"(x) : : "cc");
	return x;
}

__attribute__((noinline)) static uint32_t mmio(uint64_t n)
{
	uint64_t k = 0;
	uint32_t sum = 0, v;

	__asm__ volatile("1:\n\t"
			 ".globl cnt_mmio_before\ncnt_mmio_before:\n\t"
			 "add %3, %3, #1\n\t"
			 ".globl cnt_mmio\ncnt_mmio:\n\t"
			 "ldr %w1, [%4]\n\t"
			 ".globl cnt_mmio_after\ncnt_mmio_after:\n\t"
			 "add %w2, %w2, %w1\n\t"
			 "subs %0, %0, #1\n\t"
			 "b.ne 1b"
			 : "+r"(n), "=&r"(v), "+r"(sum), "+r"(k)
			 : "r"((volatile uint32_t *)PL011_FR)
			 : "memory", "cc");
	return sum;
}

__attribute__((noinline)) static void undefined(void)
{
	__asm__ volatile(".globl cnt_before_udf\ncnt_before_udf:\n\t"
			 "nop\n\t"
			 ".globl cnt_udf\ncnt_udf:\n\t"
			 "udf #0");
}

int main(void)
{
	uint64_t n = bm_param("n", 1000);

	bm_printf("count_a64: %llu %u\n", (unsigned long long)loop(n), (unsigned)mmio(n));
	if (bm_param("mode", 0) == 1)
		undefined();
	return 0;
}
