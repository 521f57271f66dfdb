/* SPDX-License-Identifier: BSD-2-Clause */
/* The vector table: IRQs from EL1 (either stack pointer) go to irq_handler with a struct
 * trap_frame (doc_env.h) on the stack; everything else is a fault. The handler may unmask
 * IRQs (bmprof's interrupt-exit drain does), so ELR and SPSR are kept in the frame. */
	.macro slot target
	.balign 0x80
	b \target
	.endm

	.text
	.balign 0x800
	.globl vectors
vectors:
	slot fault_entry   /* EL1t: sync, IRQ, FIQ, SError */
	slot irq_entry
	slot fault_entry
	slot fault_entry
	slot fault_entry   /* EL1h */
	slot irq_entry
	slot fault_entry
	slot fault_entry
	.rept 8            /* lower ELs: never used */
	slot fault_entry
	.endr

#define FRAME 192          /* x0-x18, fp, lr, elr, spsr: 184 bytes, 16-aligned */
irq_entry:
	sub sp, sp, #FRAME
	stp x0, x1, [sp, #0]
	stp x2, x3, [sp, #16]
	stp x4, x5, [sp, #32]
	stp x6, x7, [sp, #48]
	stp x8, x9, [sp, #64]
	stp x10, x11, [sp, #80]
	stp x12, x13, [sp, #96]
	stp x14, x15, [sp, #112]
	stp x16, x17, [sp, #128]
	str x18, [sp, #144]
	stp x29, x30, [sp, #152]
	mrs x0, elr_el1
	mrs x1, spsr_el1
	stp x0, x1, [sp, #168]
	mov x0, sp
	bl irq_handler
	ldp x0, x1, [sp, #168]
	msr elr_el1, x0
	msr spsr_el1, x1
	ldp x29, x30, [sp, #152]
	ldr x18, [sp, #144]
	ldp x16, x17, [sp, #128]
	ldp x14, x15, [sp, #112]
	ldp x12, x13, [sp, #96]
	ldp x10, x11, [sp, #80]
	ldp x8, x9, [sp, #64]
	ldp x6, x7, [sp, #48]
	ldp x4, x5, [sp, #32]
	ldp x2, x3, [sp, #16]
	ldp x0, x1, [sp, #0]
	add sp, sp, #FRAME
	eret

fault_entry:
	mrs x0, esr_el1
	mrs x1, elr_el1
	mrs x2, far_el1
	bl fault
1:	wfi
	b 1b

	.section .note.GNU-stack, "", @progbits
