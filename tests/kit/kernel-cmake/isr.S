/* SPDX-License-Identifier: BSD-2-Clause */
/* Interrupt entry stubs: save the scratch registers as a struct trap_frame (doc_env.h),
 * call the C handler with it, restore, iretq. The CPU aligned the stack before it pushed
 * the 5-word frame, so after 9 more words it is 16-byte aligned at the call. */
	.macro isr name, handler
	.globl \name
\name:
	pushq %rax
	pushq %rcx
	pushq %rdx
	pushq %rsi
	pushq %rdi
	pushq %r8
	pushq %r9
	pushq %r10
	pushq %r11
	movq %rsp, %rdi
	cld
	call \handler
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
	.endm

	.text
	isr timer_stub, timer_vector      /* bmprof's LAPIC timer: docs' timer_vector */
	isr pit_stub, pit_irq             /* the kernel's own tick: PIT IRQ 0 */

	.section .note.GNU-stack, "", @progbits
