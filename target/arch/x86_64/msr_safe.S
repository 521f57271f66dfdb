/* SPDX-License-Identifier: BSD-2-Clause */
/* RDMSR and WRMSR that return -1 instead of faulting, for probing MSRs a hypervisor or an
 * emulator may not implement. The #GP handler must call bmprof_x86_gp_fixup() (pmu_access.c),
 * which moves a faulting RIP from one of the two instructions below to its recovery code;
 * bmprof_x86_msr_fixups is that table of (instruction, recovery) addresses.
 *
 *   int bmprof_x86_rdmsr_safe(uint32_t msr, uint64_t *v)   0, or -1 (*v untouched)
 *   int bmprof_x86_wrmsr_safe(uint32_t msr, uint64_t v)    0, or -1 */
	.text
	.globl bmprof_x86_rdmsr_safe
	.type bmprof_x86_rdmsr_safe, @function
bmprof_x86_rdmsr_safe:
	movl %edi, %ecx
.Lrdmsr:
	rdmsr
	shlq $32, %rdx
	movl %eax, %eax
	orq %rdx, %rax
	movq %rax, (%rsi)
	xorl %eax, %eax
	ret
.Lrdmsr_fault:
	movl $-1, %eax
	ret
	.size bmprof_x86_rdmsr_safe, . - bmprof_x86_rdmsr_safe

	.globl bmprof_x86_wrmsr_safe
	.type bmprof_x86_wrmsr_safe, @function
bmprof_x86_wrmsr_safe:
	movl %edi, %ecx
	movl %esi, %eax
	movq %rsi, %rdx
	shrq $32, %rdx
.Lwrmsr:
	wrmsr
	xorl %eax, %eax
	ret
.Lwrmsr_fault:
	movl $-1, %eax
	ret
	.size bmprof_x86_wrmsr_safe, . - bmprof_x86_wrmsr_safe

	.section .rodata
	.balign 8
	.globl bmprof_x86_msr_fixups
	.type bmprof_x86_msr_fixups, @object
bmprof_x86_msr_fixups:
	.quad .Lrdmsr, .Lrdmsr_fault
	.quad .Lwrmsr, .Lwrmsr_fault
	.size bmprof_x86_msr_fixups, . - bmprof_x86_msr_fixups

	.section .note.GNU-stack, "", @progbits
