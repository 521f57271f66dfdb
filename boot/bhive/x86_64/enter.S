/* SPDX-License-Identifier: BSD-2-Clause */
/* Into ring 3 with a fixed state, and back (harness.h). bhive_enter saves ring 0's
 * callee-saved registers and stack, switches to the block's page tables, sets every
 * general register to BHIVE_INIT and iretq's to ring 3 (the code's prologue resets the x87
 * unit, MXCSR and the XMM registers itself: a software KVM that emulates ring 0 may not
 * emulate those instructions). The exception hook (run.c) ends the run by returning
 * to bhive_land in ring 0 on the saved stack. */

#define INIT 0x12345600
#define SEL_UDATA (0x18 | 3)
#define SEL_UCODE (0x20 | 3)

	.text
	.globl bhive_enter
bhive_enter:                    /* rdi cr3, rsi rip, rdx rflags */
	pushq %rbx
	pushq %rbp
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	movq %rsp, bhive_saved_rsp(%rip)
	movq %rdi, %cr3
	pushq $SEL_UDATA
	pushq $INIT
	pushq %rdx
	pushq $SEL_UCODE
	pushq %rsi
	movq $INIT, %rax
	movq %rax, %rbx
	movq %rax, %rcx
	movq %rax, %rdx
	movq %rax, %rsi
	movq %rax, %rdi
	movq %rax, %rbp
	movq %rax, %r8
	movq %rax, %r9
	movq %rax, %r10
	movq %rax, %r11
	movq %rax, %r12
	movq %rax, %r13
	movq %rax, %r14
	movq %rax, %r15
	iretq

	.globl bhive_land
bhive_land:                     /* ring 0, rsp = bhive_saved_rsp */
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbp
	popq %rbx
	ret

	.bss
	.balign 8
	.globl bhive_saved_rsp
bhive_saved_rsp: .quad 0

	.section .note.GNU-stack, "", @progbits
