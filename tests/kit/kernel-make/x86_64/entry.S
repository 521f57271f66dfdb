/* SPDX-License-Identifier: BSD-2-Clause */
/* A test kernel's entry: QEMU's -kernel finds the 32-bit entry point in the PVH ELF note
 * and jumps there in protected mode with paging off. Identity-map 4 GiB in 2 MiB pages
 * (the local APIC is at 0xFEE00000), switch to long mode, call kmain. */
	.section .note.Xen, "a", @note
	.balign 4
	.long 4, 8, 18                    /* namesz, descsz, XEN_ELFNOTE_PHYS32_ENTRY */
	.asciz "Xen"
	.quad pvh_start

	.section .text.entry, "ax", @progbits
	.code32
	.globl pvh_start
pvh_start:
	cli
	movl $bss_start, %edi
	movl $bss_end, %ecx
	subl %edi, %ecx
	xorl %eax, %eax
	rep stosb

	movl $(pdpt + 3), pml4            /* present, writable */
	movl $pd, %eax
	orl $3, %eax
	xorl %ecx, %ecx
1:	movl %eax, pdpt(, %ecx, 8)
	addl $4096, %eax
	incl %ecx
	cmpl $4, %ecx
	jne 1b
	movl $0x83, %eax                  /* present, writable, 2 MiB */
	xorl %ecx, %ecx
2:	movl %eax, pd(, %ecx, 8)
	addl $0x200000, %eax
	incl %ecx
	cmpl $2048, %ecx
	jne 2b

	movl $pml4, %eax
	movl %eax, %cr3
	movl %cr4, %eax
	orl $0x20, %eax                   /* PAE */
	movl %eax, %cr4
	movl $0xC0000080, %ecx            /* EFER.LME */
	rdmsr
	orl $0x100, %eax
	wrmsr
	movl %cr0, %eax
	orl $0x80000001, %eax             /* PG, PE */
	movl %eax, %cr0
	lgdt gdt_ptr
	ljmp $8, $start64

	.code64
start64:
	movl $16, %eax
	movl %eax, %ds
	movl %eax, %es
	movl %eax, %ss
	movq $stack_top, %rsp
	call kmain
3:	cli
	hlt
	jmp 3b

	.section .rodata
	.balign 8
gdt:	.quad 0, 0x00AF9A000000FFFF, 0x00CF92000000FFFF
gdt_ptr:
	.word gdt_ptr - gdt - 1
	.long gdt

	.section .bss
	.balign 4096
pml4:	.skip 4096
pdpt:	.skip 4096
pd:	.skip 4 * 4096
	.skip 64 * 1024
stack_top:

	.section .note.GNU-stack, "", @progbits
