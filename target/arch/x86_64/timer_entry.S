/* bmprof_x86_timer_entry: the IDT handler for the sampling timer vector.
 *
 * Saves the registers the C ABI lets a callee clobber (the C code never touches SSE, it is
 * built with -mgeneral-regs-only), passes the interrupted RIP to bmprof_x86_timer_irq
 * (bmprof_x86_tick and the interrupt-exit drain, for the CPU it runs on), and returns.
 * The CPU aligned RSP to 16 before pushing its 5-word frame; nine pushes here leave it
 * 16-byte aligned at the call. */
	.text
	.globl bmprof_x86_timer_entry
	.type bmprof_x86_timer_entry, @function
bmprof_x86_timer_entry:
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
	call bmprof_x86_timer_irq
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
	.size bmprof_x86_timer_entry, . - bmprof_x86_timer_entry

	.section .note.GNU-stack, "", @progbits
