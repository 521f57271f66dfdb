/* SPDX-License-Identifier: BSD-2-Clause */
/* PVH entry: QEMU's -kernel loads this ELF64 at its physical addresses and jumps to the
 * address in the Xen PHYS32_ENTRY note in 32-bit protected mode, paging off, EBX pointing
 * at the hvm_start_info (kept in bmrt_start_info: it may give the ACPI RSDP), ESP
 * undefined.
 *
 * From there: zero .bss (it holds the page tables and stacks), identity-map the first
 * 4 GiB with 2 MiB pages, enable PAE + SSE (OSFXSR, OSXMMEXCPT), EFER.LME, paging, and
 * far-jump into 64-bit code, which calls bmrt_start() in C. The other CPUs come up
 * through ap.S onto the same page tables. */

#define XEN_ELFNOTE_PHYS32_ENTRY 18
#define MSR_EFER 0xC0000080
#define PTE_P 0x1
#define PTE_RW 0x2
#define PTE_PS 0x80
#define STACK_SIZE (256 * 1024)

/* QEMU reads the descriptor as 8 bytes after a name padded to the note's alignment,
 * which must therefore be 4. */
	.section .note.Xen, "a", @note
	.balign 4
	.long 4                  /* namesz */
	.long 8                  /* descsz */
	.long XEN_ELFNOTE_PHYS32_ENTRY
	.asciz "Xen"
	.quad bmrt_pvh_entry

	.section .text.boot, "ax", @progbits
	.code32
	.globl bmrt_pvh_entry
	.type bmrt_pvh_entry, @function
bmrt_pvh_entry:
	cli
	cld
	movl $__bss_start, %edi
	movl $__bss_end, %ecx
	subl %edi, %ecx
	xorl %eax, %eax
	rep stosb
	movl %ebx, bmrt_start_info

	/* PML4[0] -> PDPT, PDPT[0..3] -> four page directories */
	movl $(bmrt_pdpt + PTE_P + PTE_RW), bmrt_pml4
	movl $(bmrt_pd + PTE_P + PTE_RW), %eax
	movl $bmrt_pdpt, %edi
	movl $4, %ecx
1:	movl %eax, (%edi)
	addl $4096, %eax
	addl $8, %edi
	loop 1b

	/* 2048 PD entries map 0 .. 4 GiB in 2 MiB pages */
	movl $(PTE_P + PTE_RW + PTE_PS), %eax
	movl $bmrt_pd, %edi
	movl $2048, %ecx
2:	movl %eax, (%edi)
	addl $0x200000, %eax
	addl $8, %edi
	loop 2b

	movl $bmrt_pml4, %eax
	movl %eax, %cr3
	movl %cr4, %eax
	orl $((1 << 5) | (1 << 9) | (1 << 10)), %eax   /* PAE, OSFXSR, OSXMMEXCPT */
	movl %eax, %cr4
	movl $MSR_EFER, %ecx
	rdmsr
	orl $(1 << 8), %eax                            /* LME */
	wrmsr
	movl %cr0, %eax
	andl $~((1 << 2) | (1 << 3)), %eax              /* x87/SSE on: EM and TS off */
	orl $((1 << 31) | (1 << 16) | (1 << 5) | (1 << 1) | 1), %eax  /* PG WP NE MP PE */
	movl %eax, %cr0
	lgdt boot_gdt_ptr
	ljmp $0x08, $long_mode

	.code64
long_mode:
	movw $0x10, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	xorl %eax, %eax
	movw %ax, %fs
	movw %ax, %gs
	movq $bmrt_stack_top, %rsp
	xorl %ebp, %ebp
	fninit
	call bmrt_start
3:	cli
	hlt
	jmp 3b
	.size bmrt_pvh_entry, . - bmrt_pvh_entry

/* The boot GDT: null, 64-bit code (0x08), data (0x10). bmrt_desc_init() replaces it with
 * one that has the same selectors plus a TSS. */
	.section .rodata
	.balign 16
boot_gdt:
	.quad 0
	.quad 0x00AF9A000000FFFF
	.quad 0x00CF92000000FFFF
boot_gdt_end:
boot_gdt_ptr:
	.word boot_gdt_end - boot_gdt - 1
	.long boot_gdt

/* Page tables and the main stack, zeroed above. The page below the main stack stays
 * unmapped (bmrt_paging_init), so a stack overflow faults instead of overwriting .bss
 * (the other CPUs' stacks are in smp.c, each with a guard page of its own). */
	.section .bss.boot, "aw", @nobits
	.balign 4096
	.globl bmrt_pml4, bmrt_pdpt, bmrt_pd
	.globl bmrt_stack_guard, bmrt_stack_top, bmrt_start_info
bmrt_pml4:	.skip 4096
bmrt_pdpt:	.skip 4096
bmrt_pd:	.skip 4 * 4096
bmrt_stack_guard:
	.skip 4096
	.skip STACK_SIZE
bmrt_stack_top:
bmrt_start_info:
	.skip 8

	.section .note.GNU-stack, "", @progbits
