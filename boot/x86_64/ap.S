/* SPDX-License-Identifier: BSD-2-Clause */
/* The other CPUs' way in: a real-mode trampoline that smp.c copies to BMRT_AP_TRAMPOLINE
 * (0x8000, page-aligned, below 1 MiB) and points the start-up IPI at (vector 0x08: the CPU
 * starts at 0800:0000 in real mode).
 *
 * It loads a GDT of its own (null, 64-bit code 0x08, data 0x10, 32-bit code 0x18), enters
 * protected mode, enables PAE + SSE, loads the first CPU's page tables, sets EFER.LME and
 * paging, enters 64-bit mode and calls the C entry with the CPU index, on the stack the
 * parameter block gives. smp.c fills the block (struct bmrt_ap_params) for one CPU at a
 * time and waits until that CPU has checked in before it starts the next.
 *
 * Everything here runs from the copy, so every address is taken relative to the start
 * of the trampoline and rebased to BMRT_AP_TRAMPOLINE. */

#define TRAMPOLINE 0x8000      /* BMRT_AP_TRAMPOLINE in rt.h */
#define AT(x) ((x) - bmrt_ap_trampoline + TRAMPOLINE)
#define MSR_EFER 0xC0000080

	.section .rodata.ap, "a"
	.code16
	.globl bmrt_ap_trampoline, bmrt_ap_params, bmrt_ap_trampoline_end
bmrt_ap_trampoline:
	cli
	cld
	xorw %ax, %ax
	movw %ax, %ds
	lgdtl AT(tr_gdt_ptr)
	movl %cr0, %eax
	orl $1, %eax                                   /* PE */
	movl %eax, %cr0
	ljmpl $0x18, $AT(prot32)

	.code32
prot32:
	movw $0x10, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	movl %cr4, %eax
	orl $((1 << 5) | (1 << 9) | (1 << 10)), %eax   /* PAE, OSFXSR, OSXMMEXCPT */
	movl %eax, %cr4
	movl AT(bmrt_ap_params), %eax                  /* cr3 */
	movl %eax, %cr3
	movl $MSR_EFER, %ecx
	rdmsr
	orl $(1 << 8), %eax                            /* LME */
	wrmsr
	movl %cr0, %eax
	andl $~((1 << 2) | (1 << 3)), %eax              /* x87/SSE on: EM and TS off */
	orl $((1 << 31) | (1 << 16) | (1 << 5) | (1 << 1) | 1), %eax  /* PG WP NE MP PE */
	movl %eax, %cr0
	ljmp $0x08, $AT(long64)

	.code64
long64:
	movw $0x10, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	xorl %eax, %eax
	movw %ax, %fs
	movw %ax, %gs
	movq AT(bmrt_ap_params) + 8, %rsp              /* stack */
	movl AT(bmrt_ap_params) + 24, %edi             /* cpu */
	xorl %ebp, %ebp
	fninit
	movq AT(bmrt_ap_params) + 16, %rax             /* entry */
	call *%rax
1:	cli
	hlt
	jmp 1b

	.balign 8
tr_gdt:
	.quad 0
	.quad 0x00AF9A000000FFFF       /* 0x08: 64-bit code */
	.quad 0x00CF92000000FFFF       /* 0x10: data */
	.quad 0x00CF9A000000FFFF       /* 0x18: 32-bit code */
tr_gdt_end:
tr_gdt_ptr:
	.word tr_gdt_end - tr_gdt - 1
	.long AT(tr_gdt)

/* struct bmrt_ap_params: u64 cr3, u64 stack, u64 entry, u32 cpu */
	.balign 8
bmrt_ap_params:
	.skip 28
bmrt_ap_trampoline_end:

	.section .note.GNU-stack, "", @progbits
