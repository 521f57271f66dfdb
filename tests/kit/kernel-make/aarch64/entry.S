/* SPDX-License-Identifier: BSD-2-Clause */
/* A test kernel's entry on QEMU virt: -kernel starts the ELF at _start at EL1 on CPU 0
 * (the other CPUs stay off until PSCI starts them). The MMU stays off the whole run: every
 * data access is to Device memory, so everything here is built -mstrict-align. */
	.section .text.entry, "ax"
	.globl _start
_start:
	ldr x0, =stack_top
	mov sp, x0
	ldr x0, =vectors
	msr vbar_el1, x0
	isb
	ldr x0, =bss_start
	ldr x1, =bss_end
1:	cmp x0, x1
	b.hs 2f
	str xzr, [x0], #8
	b 1b
2:	bl kmain
3:	wfi
	b 3b

	.section .bss
	.balign 16
	.skip 64 * 1024
stack_top:

	.section .note.GNU-stack, "", @progbits
