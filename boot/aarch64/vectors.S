/* SPDX-License-Identifier: BSD-2-Clause */
/* The EL1 exception vectors. IRQs go to irq_entry, which saves what the C ABI lets a callee
 * clobber (x0-x18, x29, x30; the runtime is built with -mgeneral-regs-only, so no FP/SIMD),
 * ELR_EL1/SPSR_EL1 (a nested interrupt during the interrupt-exit drain overwrites them)
 * and x19-x28 for raw samples (the C code may move them before it reads them; it restores
 * them itself), calls bmrt_irq(the frame, as bmprof_aarch64.h's BMPROF_A64_FRAME_* lay it
 * out, 272 bytes below the interrupted sp)
 * and returns with ERET. Every other exception saves the
 * whole register file (struct bmrt_regs) on SP_EL1 and calls bmrt_exception(), which
 * reports it and ends the run, or returns after skipping a probe instruction (trap.S):
 * then the registers are restored and the exception returns. */

#define FRAME 304
#define OFF_SP (31 * 8)
#define OFF_ELR (32 * 8)
#define OFF_ESR (34 * 8)
#define OFF_KIND (36 * 8)

.macro slot kind
	.balign 0x80
	sub sp, sp, #FRAME
	stp x0, x1, [sp, #0]
	mov x0, #\kind
	b exc_save
.endm

.macro irq_slot
	.balign 0x80
	b irq_entry
.endm

	.text
	.balign 2048
	.globl bmrt_vectors
bmrt_vectors:
	/* current EL, SP_EL0 (the program) */
	slot 0
	irq_slot
	slot 2
	slot 3
	/* current EL, SP_EL1 (boot, handlers) */
	slot 0
	irq_slot
	slot 2
	slot 3
	/* lower EL, AArch64 and AArch32: never used, reported */
	slot 0
	irq_slot
	slot 2
	slot 3
	slot 0
	irq_slot
	slot 2
	slot 3

/* The frame starts with a frame record (x29, x30) so x29 chains through it. */
irq_entry:
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
	bl bmrt_irq
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

exc_save:
	stp x2, x3, [sp, #16]
	stp x4, x5, [sp, #32]
	stp x6, x7, [sp, #48]
	stp x8, x9, [sp, #64]
	stp x10, x11, [sp, #80]
	stp x12, x13, [sp, #96]
	stp x14, x15, [sp, #112]
	stp x16, x17, [sp, #128]
	stp x18, x19, [sp, #144]
	stp x20, x21, [sp, #160]
	stp x22, x23, [sp, #176]
	stp x24, x25, [sp, #192]
	stp x26, x27, [sp, #208]
	stp x28, x29, [sp, #224]
	str x30, [sp, #240]
	str x0, [sp, #OFF_KIND]
	/* the interrupted SP: SP_EL0 unless SPSR.M[0] says it ran on SP_EL1 */
	mrs x1, spsr_el1
	mrs x2, sp_el0
	add x3, sp, #FRAME
	tst x1, #1
	csel x2, x3, x2, ne
	str x2, [sp, #OFF_SP]
	mrs x2, elr_el1
	stp x2, x1, [sp, #OFF_ELR]
	mrs x2, esr_el1
	mrs x3, far_el1
	stp x2, x3, [sp, #OFF_ESR]
	mov x29, #0
	mov x0, sp
	bl bmrt_exception
	ldp x2, x1, [sp, #OFF_ELR]
	msr elr_el1, x2
	msr spsr_el1, x1
	ldp x0, x1, [sp, #0]
	ldp x2, x3, [sp, #16]
	ldp x4, x5, [sp, #32]
	ldp x6, x7, [sp, #48]
	ldp x8, x9, [sp, #64]
	ldp x10, x11, [sp, #80]
	ldp x12, x13, [sp, #96]
	ldp x14, x15, [sp, #112]
	ldp x16, x17, [sp, #128]
	ldp x18, x19, [sp, #144]
	ldp x20, x21, [sp, #160]
	ldp x22, x23, [sp, #176]
	ldp x24, x25, [sp, #192]
	ldp x26, x27, [sp, #208]
	ldp x28, x29, [sp, #224]
	ldr x30, [sp, #240]
	add sp, sp, #FRAME
	eret

	.section .note.GNU-stack, "", %progbits
