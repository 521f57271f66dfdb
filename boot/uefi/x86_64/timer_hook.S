/* SPDX-License-Identifier: BSD-2-Clause */
/* bmrt_uefi_timer_entry: the firmware's timer vector, chained. The firmware's handler
 * (which sends the EOI and runs the firmware's timer tick) is entered through a frame
 * built here, as if the CPU had delivered the interrupt to it: its iretq comes back to 1:,
 * with interrupts still disabled, on this stack. The frame keeps the stack alignment the
 * CPU gives a handler (RSP = 8 mod 16 at entry). */
#include "../../../target/arch/x86_64/irq_save.inc"

	.text
	.globl bmrt_uefi_timer_entry
	.type bmrt_uefi_timer_entry, @function
bmrt_uefi_timer_entry:
	save_frame
	call bmprof_x86_tick_frame
	movq %rsp, %rax
	xorl %ecx, %ecx
	movw %ss, %cx
	pushq %rcx
	pushq %rax
	pushfq
	movw %cs, %cx
	pushq %rcx
	leaq 1f(%rip), %rcx
	pushq %rcx
	jmpq *bmrt_uefi_fw_timer(%rip)
1:	call bmprof_x86_irq_exit
	restore_frame
	.size bmrt_uefi_timer_entry, . - bmrt_uefi_timer_entry

	.data
	.balign 8
	.globl bmrt_uefi_fw_timer
bmrt_uefi_fw_timer:
	.quad 0

	.section .note.GNU-stack, "", @progbits
