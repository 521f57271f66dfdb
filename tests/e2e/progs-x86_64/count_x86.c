/* SPDX-License-Identifier: BSD-2-Clause */
/* Exact counts of instructions whose executions the source fixes (bmprof count,
 * tests/e2e/test_count.sh). Each loop is written in assembly with global labels
 * (cnt_NAME) at the instructions the test looks at, so their addresses come from the
 * symbol table and their counts from the loop counts below:
 *   cnt_rep_zero    rep movsb with RCX = 0, `reps` times (one retirement each)
 *   cnt_rep_big     rep stosq over BIG_QWORDS, `reps` times (a timer at a few kHz under
 *                   -icount interrupts each execution several times)
 *   cnt_rep_copy    rep movsb of 4096 bytes, `reps` times
 *   cnt_repe_cmp    repe cmpsb over 256 equal bytes, `reps` times
 *   cnt_mmio        a load from the LAPIC's version register (MMIO) in the middle of its
 *                   block, `mmio` times; cnt_mmio_before and cnt_mmio_after around it
 * and cnt_*_next, the instruction after each rep, as many times. Parameters: reps
 * (default 20), mmio (default 1000; 0 leaves the LAPIC alone, as ring 3 must). */
#include <bmrt.h>
#include <stdint.h>

#define BIG_QWORDS (1u << 16)         /* 512 KiB */
#define LAPIC_VERSION 0xFEE00030ull

static uint64_t big[BIG_QWORDS];
static uint8_t src[4096], dst[4096];

__attribute__((noinline)) static void rep_zero(uint64_t n)
{
	void *d = dst, *s = src;

	__asm__ volatile("1:\n\t"
			 "xor %%ecx, %%ecx\n\t"
			 ".globl cnt_rep_zero\ncnt_rep_zero:\n\t"
			 "rep movsb\n\t"
			 ".globl cnt_rep_zero_next\ncnt_rep_zero_next:\n\t"
			 "dec %0\n\t"
			 "jnz 1b"
			 : "+r"(n), "+D"(d), "+S"(s) : : "rcx", "memory", "cc");
}

__attribute__((noinline)) static void rep_big(uint64_t n)
{
	__asm__ volatile("1:\n\t"
			 "mov %1, %%rdi\n\t"
			 "mov %2, %%ecx\n\t"
			 "xor %%eax, %%eax\n\t"
			 ".globl cnt_rep_big\ncnt_rep_big:\n\t"
			 "rep stosq\n\t"
			 ".globl cnt_rep_big_next\ncnt_rep_big_next:\n\t"
			 "dec %0\n\t"
			 "jnz 1b"
			 : "+r"(n) : "r"(big), "i"(BIG_QWORDS) : "rax", "rcx", "rdi", "memory", "cc");
}

__attribute__((noinline)) static void rep_copy(uint64_t n)
{
	__asm__ volatile("1:\n\t"
			 "mov %1, %%rdi\n\t"
			 "mov %2, %%rsi\n\t"
			 "mov $4096, %%ecx\n\t"
			 ".globl cnt_rep_copy\ncnt_rep_copy:\n\t"
			 "rep movsb\n\t"
			 ".globl cnt_rep_copy_next\ncnt_rep_copy_next:\n\t"
			 "dec %0\n\t"
			 "jnz 1b"
			 : "+r"(n) : "r"(dst), "r"(src) : "rcx", "rdi", "rsi", "memory", "cc");
}

__attribute__((noinline)) static void repe_cmp(uint64_t n)
{
	__asm__ volatile("1:\n\t"
			 "mov %1, %%rdi\n\t"
			 "mov %1, %%rsi\n\t"
			 "mov $256, %%ecx\n\t"
			 ".globl cnt_repe_cmp\ncnt_repe_cmp:\n\t"
			 "repe cmpsb\n\t"
			 ".globl cnt_repe_cmp_next\ncnt_repe_cmp_next:\n\t"
			 "dec %0\n\t"
			 "jnz 1b"
			 : "+r"(n) : "r"(src) : "rcx", "rdi", "rsi", "memory", "cc");
}

__attribute__((noinline)) static uint32_t mmio(uint64_t n)
{
	uint32_t sum = 0, v;

	__asm__ volatile("1:\n\t"
			 ".globl cnt_mmio_before\ncnt_mmio_before:\n\t"
			 "add $1, %%r8\n\t"
			 ".globl cnt_mmio\ncnt_mmio:\n\t"
			 "movl (%3), %1\n\t"
			 ".globl cnt_mmio_after\ncnt_mmio_after:\n\t"
			 "add %1, %2\n\t"
			 "dec %0\n\t"
			 "jnz 1b"
			 : "+r"(n), "=&r"(v), "+r"(sum)
			 : "r"((volatile uint32_t *)(uintptr_t)LAPIC_VERSION)
			 : "r8", "memory", "cc");
	return sum;
}

int main(void)
{
	uint64_t reps = bm_param("reps", 20), n = bm_param("mmio", 1000);

	for (unsigned i = 0; i < sizeof src; i++)
		src[i] = (uint8_t)i;
	rep_zero(reps);
	rep_big(reps);
	rep_copy(reps);
	repe_cmp(reps);
	if (n)       /* ring 3 (--user) may not touch the LAPIC: mmio=0 skips it */
		bm_printf("count_x86: lapic version sum %u\n", (unsigned)mmio(n));
	return 0;
}
