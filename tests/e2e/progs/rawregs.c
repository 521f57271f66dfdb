/* SPDX-License-Identifier: BSD-2-Clause */
/* Known registers for raw-sample tests: raw_loop (assembly) walks arr with a base register
 * and reloads it at the end, a fixed number of times, holding four values the test checks
 * in every raw sample whose pc lies in [raw_loop_body, raw_loop_end):
 *   x86-64   rbx  inside arr (arr <= rbx <= arr_end),  r15 = arr_end,
 *            r13 = RAW_MAGIC1 (callee-saved),  rsi = RAW_MAGIC2 (caller-saved)
 *   AArch64  x19  inside arr,  x20 = arr_end,  x21 = RAW_MAGIC1,  x9 = RAW_MAGIC2
 * main prints arr's bounds (the test reads them from the console). With the run-time
 * parameter chatty=N it first prints N long lines: the console holds the UART for each
 * whole line, so samples taken meanwhile wait in the raw ring (a tiny one overflows). */
#include <bmrt.h>

#ifndef ROUNDS
#define ROUNDS 20000
#endif
#define WORDS 512

unsigned long arr[WORDS];
unsigned long raw_sum;

void raw_loop(unsigned long *base, unsigned long *end, unsigned long rounds,
	      unsigned long *sum);

#if defined(__x86_64__)
__asm__(
	"	.text\n"
	"	.globl raw_loop, raw_loop_body, raw_loop_end\n"
	"	.type raw_loop, @function\n"
	"raw_loop:\n"
	"	pushq %rbx\n"
	"	pushq %r12\n"
	"	pushq %r13\n"
	"	pushq %r14\n"
	"	pushq %r15\n"
	"	pushq %rsi\n"
	"	movq %rcx, %r14\n"
	"	movq %rdi, %rbx\n"
	"	movq %rsi, %r15\n"
	"	movq %rdx, %r12\n"
	"	movabsq $0x5a5a1234c3c3beef, %r13\n"
	"	movabsq $0x0123456789abcdef, %rsi\n"
	"	xorl %eax, %eax\n"
	"raw_loop_body:\n"
	"1:	addq (%rbx), %rax\n"
	"	addq $8, %rbx\n"
	"	cmpq %r15, %rbx\n"
	"	jb 1b\n"
	"	leaq -4096(%r15), %rbx\n"
	"	decq %r12\n"
	"	jnz 1b\n"
	"raw_loop_end:\n"
	"	movq %rax, (%r14)\n"
	"	popq %rsi\n"
	"	popq %r15\n"
	"	popq %r14\n"
	"	popq %r13\n"
	"	popq %r12\n"
	"	popq %rbx\n"
	"	ret\n"
	"	.size raw_loop, . - raw_loop\n");
#elif defined(__aarch64__)
__asm__(
	"	.text\n"
	"	.globl raw_loop, raw_loop_body, raw_loop_end\n"
	"	.type raw_loop, %function\n"
	"raw_loop:\n"
	"	stp x19, x20, [sp, #-48]!\n"
	"	stp x21, x22, [sp, #16]\n"
	"	str x23, [sp, #32]\n"
	"	mov x19, x0\n"
	"	mov x20, x1\n"
	"	mov x22, x2\n"
	"	mov x23, x3\n"
	"	movz x21, #0xbeef\n"
	"	movk x21, #0xc3c3, lsl #16\n"
	"	movk x21, #0x1234, lsl #32\n"
	"	movk x21, #0x5a5a, lsl #48\n"
	"	movz x9, #0xcdef\n"
	"	movk x9, #0x89ab, lsl #16\n"
	"	movk x9, #0x4567, lsl #32\n"
	"	movk x9, #0x0123, lsl #48\n"
	"	mov x0, #0\n"
	"raw_loop_body:\n"
	"1:	ldr x1, [x19]\n"
	"	add x0, x0, x1\n"
	"	add x19, x19, #8\n"
	"	cmp x19, x20\n"
	"	b.lo 1b\n"
	"	sub x19, x20, #4096\n"
	"	subs x22, x22, #1\n"
	"	b.ne 1b\n"
	"raw_loop_end:\n"
	"	str x0, [x23]\n"
	"	ldr x23, [sp, #32]\n"
	"	ldp x21, x22, [sp, #16]\n"
	"	ldp x19, x20, [sp], #48\n"
	"	ret\n"
	"	.size raw_loop, . - raw_loop\n");
#else
#error "rawregs.c: x86-64 or AArch64"
#endif

static char line[4000];

int main(void)
{
	uint64_t chatty = bm_param("chatty", 0);

	for (unsigned i = 0; i + 1 < sizeof line; i++)
		line[i] = (char)('a' + i % 26);
	for (uint64_t i = 0; i < chatty; i++)
		bm_puts(line);
	for (unsigned i = 0; i < WORDS; i++)
		arr[i] = i;
	bm_printf("arr %#lx %#lx\n", (unsigned long)arr, (unsigned long)(arr + WORDS));
	raw_loop(arr, arr + WORDS, ROUNDS, &raw_sum);
	bm_printf("sum %lu\n", raw_sum);
	return 0;
}
