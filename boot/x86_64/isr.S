/* SPDX-License-Identifier: BSD-2-Clause */
/* Interrupt entry points: the 32 CPU exception vectors (their frame and return path:
 * exc_frame.inc; the handler: bmrt_exception()), the runtime's IPI, and one for vectors
 * nobody asked for. */

#include "exc_frame.inc"

	.text
	.irp v, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	exc \v
	.endr

exc_common:
	exc_common_body bmrt_exception

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
