/* Interrupt entry stubs: the 32 CPU exception vectors, the runtime's IPI, and one for
 * vectors nobody asked for. An exception stub pushes a zero where the CPU pushes no error
 * code, then the vector, then every general register, and hands the frame (struct
 * bmrt_regs) to bmrt_exception(), which returns only for a fault it fixed up (the frame's
 * RIP moved): then the registers are restored and the stub returns past the error code. */

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
	movq %rsp, %rbx          /* callee-saved: the frame, after the call */
	andq $-16, %rsp
	call bmrt_exception
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
	addq $16, %rsp           /* vector, error code */
	iretq

/* A stray interrupt (a PIC line, a spurious APIC interrupt): ignored, and not
 * acknowledged, because a LAPIC EOI here would retire the timer's in-service bit. */
	.globl bmrt_isr_ignore
bmrt_isr_ignore:
	iretq

/* The runtime's IPI (BMRT_IPI_VECTOR): the registers the C ABI lets a callee clobber are
 * saved (nine pushes after the CPU's five-word frame keep RSP 16-byte aligned), then
 * bmrt_smp_ipi(), which may not return (the CPU parks). */
	.globl bmrt_isr_ipi
bmrt_isr_ipi:
	pushq %rax
	pushq %rcx
	pushq %rdx
	pushq %rsi
	pushq %rdi
	pushq %r8
	pushq %r9
	pushq %r10
	pushq %r11
	cld
	call bmrt_smp_ipi
	popq %r11
	popq %r10
	popq %r9
	popq %r8
	popq %rdi
	popq %rsi
	popq %rdx
	popq %rcx
	popq %rax
	iretq

	.section .rodata
	.balign 8
	.globl bmrt_exc_stubs
bmrt_exc_stubs:
	.irp v, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	.quad exc_\v
	.endr

	.section .note.GNU-stack, "", @progbits
