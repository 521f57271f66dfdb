/* SPDX-License-Identifier: BSD-2-Clause */
/* Into ring 3 with a fixed state, and back (harness.h). bhive_enter saves ring 0's
 * callee-saved registers and stack, switches to the block's page tables, resets the x87
 * unit, MXCSR (FTZ, DAZ, exceptions masked), every XMM lane and every general register to
 * BHIVE_INIT, and iretq's to ring 3. The exception hook (run.c) ends the run by returning
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
	fninit
	ldmxcsr mxcsr(%rip)
	movdqa vinit(%rip), %xmm0
	movdqa %xmm0, %xmm1
	movdqa %xmm0, %xmm2
	movdqa %xmm0, %xmm3
	movdqa %xmm0, %xmm4
	movdqa %xmm0, %xmm5
	movdqa %xmm0, %xmm6
	movdqa %xmm0, %xmm7
	movdqa %xmm0, %xmm8
	movdqa %xmm0, %xmm9
	movdqa %xmm0, %xmm10
	movdqa %xmm0, %xmm11
	movdqa %xmm0, %xmm12
	movdqa %xmm0, %xmm13
	movdqa %xmm0, %xmm14
	movdqa %xmm0, %xmm15
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

	.section .rodata
	.balign 16
vinit:	.quad INIT, INIT
mxcsr:	.long 0x9FC0            /* FTZ (15), DAZ (6), every exception masked */

	.bss
	.balign 8
	.globl bhive_saved_rsp
bhive_saved_rsp: .quad 0

	.section .note.GNU-stack, "", @progbits
