/* SPDX-License-Identifier: BSD-2-Clause */
	.text
/* every exception: report and stop (the error code, when there is one, is taken for rip:
 * this kernel only says that something went wrong) */
	.globl fault_entry
fault_entry:
	movq (%rsp), %rdi
	andq $-16, %rsp
	call fault
1:	cli
	hlt
	jmp 1b

	.globl spurious_entry
spurious_entry:
	iretq

	.section .note.GNU-stack, "", @progbits
