/* Entries for the CPU exceptions a program can cause, hooked into the firmware's IDT
 * while it runs (start.c): each pushes a zero where the CPU pushes no error code, the
 * vector and every general register (struct bmrt_regs, boot/x86_64/rt.h) and calls
 * bmrt_uefi_exception, which returns only for a fault it fixed up (the sampler's probing
 * MSR accesses); then the registers are restored and the entry returns past the error
 * code. bmrt_uefi_exc_entries[v] is vector v's entry (0 for vectors left alone). */

#define HAS_ERR(v) ((v) == 8 || ((v) >= 10 && (v) <= 14) || (v) == 17)

	.text
.macro exc vec
exc_\vec:
	.if HAS_ERR(\vec) == 0
	pushq $0
	.endif
	pushq $\vec
	jmp exc_common
.endm

	.irp v, 0,4,5,6,7,8,10,11,12,13,14,16,17,19
	exc \v
	.endr

exc_common:
	pushq %rax
	pushq %rcx
	pushq %rdx
	pushq %rbx
	pushq %rbp
	pushq %rsi
	pushq %rdi
	pushq %r8
	pushq %r9
	pushq %r10
	pushq %r11
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	cld
	movq %rsp, %rdi
	movq %rsp, %rbx
	andq $-16, %rsp
	call bmrt_uefi_exception
	movq %rbx, %rsp
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %r11
	popq %r10
	popq %r9
	popq %r8
	popq %rdi
	popq %rsi
	popq %rbp
	popq %rbx
	popq %rdx
	popq %rcx
	popq %rax
	addq $16, %rsp
	iretq

	.section .data.rel.ro, "aw"
	.balign 8
	.globl bmrt_uefi_exc_entries
bmrt_uefi_exc_entries:
	.irp v, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19
	.if \v == 0 || (\v >= 4 && \v <= 8) || (\v >= 10 && \v <= 14) || \v == 16 || \v == 17 || \v == 19
	.quad exc_\v
	.else
	.quad 0
	.endif
	.endr

	.section .note.GNU-stack, "", @progbits
