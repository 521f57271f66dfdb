/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof_a64_irq_entry: an IRQ handler for a VBAR_EL1 table's IRQ slots to branch to.
 *
 * Saves what the C ABI lets a callee clobber (x0-x18, x29, x30; the C code never touches
 * FP/SIMD, it is built with -mgeneral-regs-only), ELR_EL1/SPSR_EL1, which a nested
 * interrupt during the interrupt-exit drain would overwrite, and x19-x28 for raw samples
 * (not restored: the C code keeps them). The layout is bmprof_aarch64.h's
 * BMPROF_A64_FRAME_*. The frame starts with a frame
 * record (x29, x30) so x29 chains through it. Calls bmprof_a64_irq_frame(the frame: the interrupted x29, x30, ELR_EL1 and sp) and
 * bmprof_a64_irq_exit(), restores, and returns with ERET. */
	.text
	.globl bmprof_a64_irq_entry
	.type bmprof_a64_irq_entry, %function
	.balign 16
bmprof_a64_irq_entry:
	sub sp, sp, #272
	stp x29, x30, [sp, #0]
	stp x0, x1, [sp, #16]
	stp x2, x3, [sp, #32]
	stp x4, x5, [sp, #48]
	stp x6, x7, [sp, #64]
	stp x8, x9, [sp, #80]
	stp x10, x11, [sp, #96]
	stp x12, x13, [sp, #112]
	stp x14, x15, [sp, #128]
	stp x16, x17, [sp, #144]
	mrs x0, elr_el1
	mrs x1, spsr_el1
	stp x18, x0, [sp, #160]
	str x1, [sp, #176]
	stp x19, x20, [sp, #192]
	stp x21, x22, [sp, #208]
	stp x23, x24, [sp, #224]
	stp x25, x26, [sp, #240]
	stp x27, x28, [sp, #256]
	mov x29, sp
	mov x0, sp
	bl bmprof_a64_irq_frame
	bl bmprof_a64_irq_exit
	ldp x18, x0, [sp, #160]
	ldr x1, [sp, #176]
	msr elr_el1, x0
	msr spsr_el1, x1
	ldp x0, x1, [sp, #16]
	ldp x2, x3, [sp, #32]
	ldp x4, x5, [sp, #48]
	ldp x6, x7, [sp, #64]
	ldp x8, x9, [sp, #80]
	ldp x10, x11, [sp, #96]
	ldp x12, x13, [sp, #112]
	ldp x14, x15, [sp, #128]
	ldp x16, x17, [sp, #144]
	ldp x29, x30, [sp, #0]
	add sp, sp, #272
	eret
	.size bmprof_a64_irq_entry, . - bmprof_a64_irq_entry

	.section .note.GNU-stack, "", %progbits
