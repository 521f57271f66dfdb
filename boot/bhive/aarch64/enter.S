/* SPDX-License-Identifier: BSD-2-Clause */
/* Into EL0 with a fixed state, and back (harness.h). bhive_enter saves the callee-saved
 * registers, the program's stack pointer (SP_EL0: main runs at EL1t), DAIF and the
 * runtime's VBAR and EL1&0 regime, switches to the block's regime (its tables, the 48-bit
 * TCR, the SCTLR with alignment checks) and to bhive_vectors, sets every general register
 * and SP_EL0 to BHIVE_INIT and erets to EL0 with D, A, I and F masked (EL0 cannot unmask
 * them: SCTLR_EL1.UMA is clear). The block's own code resets NZCV, FPCR, FPSR and the
 * vector registers (run.c).
 *
 * Any exception from EL0 lands in bhive_vectors' lower-EL slots on SP_EL1: they save the
 * registers and syndrome in bhive_ctx, switch back to the runtime's regime and vectors
 * first (nothing else of the runtime is mapped in the block's tables), and eret to EL1t
 * at the saved stack, where bhive_enter returns. An exception taken at EL1 while the
 * block's vectors are installed goes to the runtime's vectors.
 *
 * bhive_resume goes back to EL0 the same way but where the exception left it: the pc,
 * every general register and SP_EL0 from bhive_ctx, PSTATE from its argument (run.c
 * steps over one misaligned access with it). The vector registers, FPCR and FPSR are
 * the block's still: the harness does not use them (-mgeneral-regs-only). */

#define INIT_LO 0x5600
#define INIT_HI 0x1234
#define SPSR_EL0_MASKED 0x3c0           /* EL0t, D A I F masked */
#define SPSR_EL1T 0x4
#define CTX_SP (31 * 8)
#define CTX_ELR (32 * 8)
#define CTX_ESR (34 * 8)
#define CTX_KIND (36 * 8)

	.text
	.globl bhive_resume
	.type bhive_resume, %function
bhive_resume:                           /* x0: the EL0 PSTATE (SPSR_EL1) */
	mov x1, x0
	adrp x0, bhive_ctx
	add x0, x0, :lo12:bhive_ctx
	ldr x0, [x0, #CTX_ELR]
	mov x2, #1
	b enter
	.size bhive_resume, . - bhive_resume

	.globl bhive_enter
	.type bhive_enter, %function
bhive_enter:                            /* x0: the EL0 pc */
	mov x1, #SPSR_EL0_MASKED
	mov x2, #0
enter:                                  /* x0 pc, x1 SPSR, x2 1: registers from bhive_ctx */
	stp x29, x30, [sp, #-96]!
	stp x19, x20, [sp, #16]
	stp x21, x22, [sp, #32]
	stp x23, x24, [sp, #48]
	stp x25, x26, [sp, #64]
	stp x27, x28, [sp, #80]
	mov x19, x0
	mov x20, x1
	mov x21, x2
	adrp x9, saved
	add x9, x9, :lo12:saved
	mov x1, sp
	mrs x2, daif
	orr x2, x2, #SPSR_EL1T
	stp x1, x2, [x9]
	mrs x1, vbar_el1
	str x1, [x9, #16]
	adrp x10, bhive_own_regime
	add x10, x10, :lo12:bhive_own_regime
	mrs x1, ttbr0_el1
	mrs x2, tcr_el1
	mrs x3, sctlr_el1
	stp x1, x2, [x10]
	str x3, [x10, #16]
	adrp x10, bhive_block_regime
	add x10, x10, :lo12:bhive_block_regime
	ldp x1, x2, [x10]
	ldr x3, [x10, #16]
	dsb ish                         /* the tables, written before, seen by the walker */
	msr ttbr0_el1, x1
	msr tcr_el1, x2
	msr sctlr_el1, x3
	isb
	tlbi vmalle1
	dsb ish
	adrp x1, bhive_vectors
	add x1, x1, :lo12:bhive_vectors
	msr vbar_el1, x1
	msr elr_el1, x19
	msr spsr_el1, x20
	isb
	cbnz x21, resume
	movz x0, #INIT_LO
	movk x0, #INIT_HI, lsl #16
	mov sp, x0                      /* SP_EL0 */
	mov x1, x0
	mov x2, x0
	mov x3, x0
	mov x4, x0
	mov x5, x0
	mov x6, x0
	mov x7, x0
	mov x8, x0
	mov x9, x0
	mov x10, x0
	mov x11, x0
	mov x12, x0
	mov x13, x0
	mov x14, x0
	mov x15, x0
	mov x16, x0
	mov x17, x0
	mov x18, x0
	mov x19, x0
	mov x20, x0
	mov x21, x0
	mov x22, x0
	mov x23, x0
	mov x24, x0
	mov x25, x0
	mov x26, x0
	mov x27, x0
	mov x28, x0
	mov x29, x0
	mov x30, x0
	eret

resume:
	adrp x30, bhive_ctx
	add x30, x30, :lo12:bhive_ctx
	ldr x0, [x30, #CTX_SP]
	mov sp, x0                      /* SP_EL0: this runs at EL1t */
	ldp x0, x1, [x30]
	ldp x2, x3, [x30, #16]
	ldp x4, x5, [x30, #32]
	ldp x6, x7, [x30, #48]
	ldp x8, x9, [x30, #64]
	ldp x10, x11, [x30, #80]
	ldp x12, x13, [x30, #96]
	ldp x14, x15, [x30, #112]
	ldp x16, x17, [x30, #128]
	ldp x18, x19, [x30, #144]
	ldp x20, x21, [x30, #160]
	ldp x22, x23, [x30, #176]
	ldp x24, x25, [x30, #192]
	ldp x26, x27, [x30, #208]
	ldp x28, x29, [x30, #224]
	ldr x30, [x30, #240]
	eret

back:                                   /* EL1t, sp: the saved stack */
	ldp x19, x20, [sp, #16]
	ldp x21, x22, [sp, #32]
	ldp x23, x24, [sp, #48]
	ldp x25, x26, [sp, #64]
	ldp x27, x28, [sp, #80]
	ldp x29, x30, [sp], #96
	ret
	.size bhive_enter, . - bhive_enter

.macro own_slot off
	.balign 0x80
	b bmrt_vectors + \off
.endm

.macro el0_slot kind
	.balign 0x80
	stp x0, x1, [sp, #-16]!
	mov x0, #\kind
	b land
.endm

	.balign 2048
	.globl bhive_vectors
bhive_vectors:
	own_slot 0x000
	own_slot 0x080
	own_slot 0x100
	own_slot 0x180
	own_slot 0x200
	own_slot 0x280
	own_slot 0x300
	own_slot 0x380
	el0_slot 0
	el0_slot 1
	el0_slot 2
	el0_slot 3
	own_slot 0x600
	own_slot 0x680
	own_slot 0x700
	own_slot 0x780

land:                                   /* SP_EL1: x0, x1 of EL0; x0 the slot's kind */
	adrp x1, bhive_ctx
	add x1, x1, :lo12:bhive_ctx
	str x0, [x1, #CTX_KIND]
	stp x2, x3, [x1, #16]
	stp x4, x5, [x1, #32]
	stp x6, x7, [x1, #48]
	stp x8, x9, [x1, #64]
	stp x10, x11, [x1, #80]
	stp x12, x13, [x1, #96]
	stp x14, x15, [x1, #112]
	stp x16, x17, [x1, #128]
	stp x18, x19, [x1, #144]
	stp x20, x21, [x1, #160]
	stp x22, x23, [x1, #176]
	stp x24, x25, [x1, #192]
	stp x26, x27, [x1, #208]
	stp x28, x29, [x1, #224]
	str x30, [x1, #240]
	ldp x2, x3, [sp], #16
	stp x2, x3, [x1]
	mrs x2, sp_el0
	str x2, [x1, #CTX_SP]
	mrs x2, elr_el1
	mrs x3, spsr_el1
	stp x2, x3, [x1, #CTX_ELR]
	mrs x2, esr_el1
	mrs x3, far_el1
	stp x2, x3, [x1, #CTX_ESR]
	adrp x1, bhive_own_regime
	add x1, x1, :lo12:bhive_own_regime
	ldp x2, x3, [x1]
	ldr x4, [x1, #16]
	msr sctlr_el1, x4
	msr ttbr0_el1, x2
	msr tcr_el1, x3
	isb
	tlbi vmalle1
	dsb ish
	adrp x1, saved
	add x1, x1, :lo12:saved
	ldp x2, x3, [x1]                /* the program's sp, SPSR for EL1t with its DAIF */
	ldr x4, [x1, #16]
	msr sp_el0, x2
	msr spsr_el1, x3
	msr vbar_el1, x4
	adr x2, back
	msr elr_el1, x2
	isb
	eret

	.bss
	.balign 8
saved:  .skip 24                        /* sp, SPSR, VBAR */
	.globl bhive_own_regime, bhive_block_regime, bhive_ctx
bhive_own_regime: .skip 24
bhive_block_regime: .skip 24
bhive_ctx: .skip 38 * 8

	.section .note.GNU-stack, "", %progbits
