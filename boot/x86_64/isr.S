/* Interrupt entry stubs: the 32 CPU exception vectors, and one for vectors nobody asked
 * for. An exception stub pushes a zero where the CPU pushes no error code, then the vector,
 * then every general register, and hands the frame (struct bmrt_regs) to
 * bmrt_exception(), which does not return. */

/* Vectors for which the CPU pushes an error code: #DF #TS #NP #SS #GP #PF #AC #CP #VC #SX */
#define HAS_ERR(v) ((v) == 8 || ((v) >= 10 && (v) <= 14) || (v) == 17 || (v) == 21 || \
		    (v) == 29 || (v) == 30)

	.text
.macro exc vec
	.balign 16
exc_\vec:
	.if HAS_ERR(\vec) == 0
	pushq $0
	.endif
	pushq $\vec
	jmp exc_common
.endm

	.irp v, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
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
	andq $-16, %rsp
	call bmrt_exception
1:	cli
	hlt
	jmp 1b

/* A stray interrupt (a PIC line, a spurious APIC interrupt): ignored, and not
 * acknowledged, because a LAPIC EOI here would retire the timer's in-service bit. */
	.globl bmrt_isr_ignore
bmrt_isr_ignore:
	iretq

	.section .rodata
	.balign 8
	.globl bmrt_exc_stubs
bmrt_exc_stubs:
	.irp v, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	.quad exc_\v
	.endr

	.section .note.GNU-stack, "", @progbits
