/* The PMU interrupt entries, like bmprof_x86_timer_entry (timer_entry.S): they save the
 * registers the C ABI lets a callee clobber (the C code never touches SSE), pass the
 * interrupted RIP, and return with IRETQ. The CPU aligned RSP to 16 before pushing its
 * 5-word frame; nine pushes keep it aligned at each call.
 *
 *   bmprof_x86_nmi_entry  IDT vector 2 (the PMI in NMI delivery mode): bmprof_x86_nmi
 *   bmprof_x86_pmi_entry  the PMI vector in fixed (IRQ) delivery mode: bmprof_x86_pmi
 *                         and the interrupt-exit drain (bmprof_x86_pmi_irq) */
	.text
.macro save
	pushq %rax
	pushq %rcx
	pushq %rdx
	pushq %rsi
	pushq %rdi
	pushq %r8
	pushq %r9
	pushq %r10
	pushq %r11
	cld
	movq 72(%rsp), %rdi
.endm

.macro restore
	popq %r11
	popq %r10
	popq %r9
	popq %r8
	popq %rdi
	popq %rsi
	popq %rdx
	popq %rcx
	popq %rax
	iretq
.endm

	.globl bmprof_x86_nmi_entry
	.type bmprof_x86_nmi_entry, @function
bmprof_x86_nmi_entry:
	save
	call bmprof_x86_nmi
	restore
	.size bmprof_x86_nmi_entry, . - bmprof_x86_nmi_entry

	.globl bmprof_x86_pmi_entry
	.type bmprof_x86_pmi_entry, @function
bmprof_x86_pmi_entry:
	save
	call bmprof_x86_pmi_irq
	restore
	.size bmprof_x86_pmi_entry, . - bmprof_x86_pmi_entry

	.section .note.GNU-stack, "", @progbits
