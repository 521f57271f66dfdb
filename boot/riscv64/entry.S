/* SPDX-License-Identifier: BSD-2-Clause */
/* Entry: QEMU virt with -bios none starts every hart at the start of RAM, in machine
 * mode, with mhartid in a0 and the device tree's address in a1. Every hart sets gp and tp
 * (tp: the one thread-local block, linker/riscv64.ld, which holds a C library's errno).
 * Hart 0 sets the stack, mtvec, FP (mstatus.FS), zeroes .bss and .tbss and calls
 * bmrt_start(); every other hart below BMRT_MAX_CPUS waits for smp.c to release it
 * (below), the rest wait for ever.
 *
 * bmrt_trap_entry (mtvec, direct mode): saves the interrupted registers on the current
 * stack (struct layout in rt.h; FP caller-saved registers too, as the C code may use
 * them), mepc, mcause, mstatus and mtval, calls bmrt_trap(frame), and restores mepc and
 * mstatus from the frame before mret: the drain at interrupt exit unmasks interrupts, so
 * a nested trap may have overwritten both CSRs. */

#ifndef BMPROF_RV_MAX_CPUS             /* as bmprof_riscv64.h: override with -D for both */
#define BMPROF_RV_MAX_CPUS 8
#endif
#define BMRT_MAX_CPUS BMPROF_RV_MAX_CPUS
#define CPU_STACK_SHIFT 16                /* rt.h */
#define FRAME_BYTES 464
#define FP_BASE 288

	.section .text.boot, "ax", %progbits
	.globl _start
	.type _start, %function
_start:
	csrw mie, zero
	csrci mstatus, 8
.option push
.option norelax
	la gp, __global_pointer$
.option pop
	la tp, __tls_base
	bnez a0, secondary
	la sp, bmrt_stack_top
	la t0, bmrt_trap_entry
	csrw mtvec, t0
	li t0, (1 << 13)                /* mstatus.FS = initial */
	csrs mstatus, t0
	csrw fcsr, zero
	la t0, __bss_start
	la t1, __bss_end
1:	bgeu t0, t1, 2f
	sd zero, 0(t0)
	addi t0, t0, 8
	j 1b
2:	la t0, __tbss_start
	la t1, __tbss_end
3:	bgeu t0, t1, 4f
	sb zero, 0(t0)
	addi t0, t0, 1
	j 3b
4:	la t0, bmrt_dtb
	sd a1, 0(t0)
	li ra, 0
	li s0, 0
	call bmrt_start
park:
	csrw mie, zero
1:	wfi
	j 1b

/* Hart a0 >= 1: its own stack, mtvec and FP; then, with only the machine software
 * interrupt enabled (interrupts off, so wfi just waits for it), wait until hart 0 has
 * cleared .bss and set bmrt_release (in .data), touching no .bss meanwhile. */
secondary:
	li t0, BMRT_MAX_CPUS
	bgeu a0, t0, park
	la sp, bmrt_cpu_stacks
	slli t0, a0, CPU_STACK_SHIFT
	add sp, sp, t0
	la t0, bmrt_trap_entry
	csrw mtvec, t0
	li t0, (1 << 13)
	csrs mstatus, t0
	csrw fcsr, zero
	li t0, (1 << 3)
	csrw mie, t0
	la t1, bmrt_release
2:	ld t0, 0(t1)
	bnez t0, 3f
	wfi
	j 2b
3:	fence r, rw
	li ra, 0
	li s0, 0
	call bmrt_secondary_start
	j park

	.text
	.globl bmrt_trap_entry
	.type bmrt_trap_entry, %function
	.balign 4
bmrt_trap_entry:
	addi sp, sp, -FRAME_BYTES
	sd x1, 8(sp)
	sd x3, 24(sp)
	sd x4, 32(sp)
	sd x5, 40(sp)
	sd x6, 48(sp)
	sd x7, 56(sp)
	sd x8, 64(sp)
	sd x9, 72(sp)
	sd x10, 80(sp)
	sd x11, 88(sp)
	sd x12, 96(sp)
	sd x13, 104(sp)
	sd x14, 112(sp)
	sd x15, 120(sp)
	sd x16, 128(sp)
	sd x17, 136(sp)
	sd x18, 144(sp)
	sd x19, 152(sp)
	sd x20, 160(sp)
	sd x21, 168(sp)
	sd x22, 176(sp)
	sd x23, 184(sp)
	sd x24, 192(sp)
	sd x25, 200(sp)
	sd x26, 208(sp)
	sd x27, 216(sp)
	sd x28, 224(sp)
	sd x29, 232(sp)
	sd x30, 240(sp)
	sd x31, 248(sp)
	addi t0, sp, FRAME_BYTES
	sd t0, 16(sp)
	csrr t0, mepc
	sd t0, 256(sp)
	csrr t0, mcause
	sd t0, 264(sp)
	csrr t0, mstatus
	sd t0, 272(sp)
	csrr t0, mtval
	sd t0, 280(sp)
	fsd ft0, FP_BASE + 0(sp)
	fsd ft1, FP_BASE + 8(sp)
	fsd ft2, FP_BASE + 16(sp)
	fsd ft3, FP_BASE + 24(sp)
	fsd ft4, FP_BASE + 32(sp)
	fsd ft5, FP_BASE + 40(sp)
	fsd ft6, FP_BASE + 48(sp)
	fsd ft7, FP_BASE + 56(sp)
	fsd ft8, FP_BASE + 64(sp)
	fsd ft9, FP_BASE + 72(sp)
	fsd ft10, FP_BASE + 80(sp)
	fsd ft11, FP_BASE + 88(sp)
	fsd fa0, FP_BASE + 96(sp)
	fsd fa1, FP_BASE + 104(sp)
	fsd fa2, FP_BASE + 112(sp)
	fsd fa3, FP_BASE + 120(sp)
	fsd fa4, FP_BASE + 128(sp)
	fsd fa5, FP_BASE + 136(sp)
	fsd fa6, FP_BASE + 144(sp)
	fsd fa7, FP_BASE + 152(sp)
	frcsr t0
	sd t0, FP_BASE + 160(sp)
	mv a0, sp
	call bmrt_trap
	ld t0, FP_BASE + 160(sp)
	fscsr t0
	fld ft0, FP_BASE + 0(sp)
	fld ft1, FP_BASE + 8(sp)
	fld ft2, FP_BASE + 16(sp)
	fld ft3, FP_BASE + 24(sp)
	fld ft4, FP_BASE + 32(sp)
	fld ft5, FP_BASE + 40(sp)
	fld ft6, FP_BASE + 48(sp)
	fld ft7, FP_BASE + 56(sp)
	fld ft8, FP_BASE + 64(sp)
	fld ft9, FP_BASE + 72(sp)
	fld ft10, FP_BASE + 80(sp)
	fld ft11, FP_BASE + 88(sp)
	fld fa0, FP_BASE + 96(sp)
	fld fa1, FP_BASE + 104(sp)
	fld fa2, FP_BASE + 112(sp)
	fld fa3, FP_BASE + 120(sp)
	fld fa4, FP_BASE + 128(sp)
	fld fa5, FP_BASE + 136(sp)
	fld fa6, FP_BASE + 144(sp)
	fld fa7, FP_BASE + 152(sp)
	ld t0, 256(sp)
	csrw mepc, t0
	ld t0, 272(sp)
	csrw mstatus, t0
	ld x1, 8(sp)
	ld x3, 24(sp)
	ld x4, 32(sp)
	ld x5, 40(sp)
	ld x6, 48(sp)
	ld x7, 56(sp)
	ld x8, 64(sp)
	ld x9, 72(sp)
	ld x10, 80(sp)
	ld x11, 88(sp)
	ld x12, 96(sp)
	ld x13, 104(sp)
	ld x14, 112(sp)
	ld x15, 120(sp)
	ld x16, 128(sp)
	ld x17, 136(sp)
	ld x18, 144(sp)
	ld x19, 152(sp)
	ld x20, 160(sp)
	ld x21, 168(sp)
	ld x22, 176(sp)
	ld x23, 184(sp)
	ld x24, 192(sp)
	ld x25, 200(sp)
	ld x26, 208(sp)
	ld x27, 216(sp)
	ld x28, 224(sp)
	ld x29, 232(sp)
	ld x30, 240(sp)
	ld x31, 248(sp)
	addi sp, sp, FRAME_BYTES
	mret

	.section .bss.boot, "aw", %nobits
	.balign 16
	.globl bmrt_stack_bottom
bmrt_stack_bottom:
	.space 256 * 1024
	.globl bmrt_stack_top
bmrt_stack_top:
	/* hart i's stack is [bmrt_cpu_stacks + (i - 1) << CPU_STACK_SHIFT, + 1 << it) */
	.globl bmrt_cpu_stacks
bmrt_cpu_stacks:
	.space (BMRT_MAX_CPUS - 1) << CPU_STACK_SHIFT
	.balign 8
	.globl bmrt_dtb
bmrt_dtb:
	.space 8
