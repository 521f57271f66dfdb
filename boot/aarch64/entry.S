/* SPDX-License-Identifier: BSD-2-Clause */
/* Entry: QEMU virt's -kernel loads this ELF at its link address and starts the boot CPU
 * at _start, at EL1 (or EL2 with -M virt,virtualization=on), MMU and caches off.
 *
 * From EL2: give EL1 the whole machine (AArch64, no traps, the physical timer and
 * counter, every PMU counter, the GICv3 system registers) and drop to EL1h. At EL1: set
 * VBAR_EL1, run on the exception stack (SP_EL1), zero .bss, enable FP/SIMD, turn the MMU
 * on (bmrt_mmu_init), then move to the program stack on SP_EL0 (EL1t) so that exceptions
 * and interrupts run on SP_EL1 even when the program overflowed its stack, and call
 * bmrt_start() in C. Entered at EL3 (-M virt,secure=on, not supported) it prints one line
 * and stops.
 *
 * The other CPUs enter at bmrt_secondary_entry (PSCI CPU_ON, smp.c) with their index in
 * x0, at the EL the boot CPU was entered at: the same EL2 hand-over, then VBAR_EL1, their
 * own stacks, FP/SIMD, the MMU with the boot CPU's tables and register values
 * (bmrt_mmu_regs, which the boot CPU wrote before its own MMU and caches were on, so they
 * are in memory for a CPU whose caches are still off), TPIDR_EL1 = the index, and
 * bmrt_secondary_start(index) in C. */

#include "layout.h"

#define SPSR_EL1H_MASKED 0x3c5          /* EL1h, D A I F masked */
#define SCTLR_EL1_RES1 0x30d00800       /* MMU and caches off, little-endian */
#define CPTR_EL2_RES1 0x33ff            /* and TFP clear: no FP/SIMD trap */
#define HCR_EL2_RW (1 << 31)
#define ICC_SRE_EL2 S3_4_C12_C9_5
#define ICH_HCR_EL2 S3_4_C12_C11_0
#define PL011_BASE 0x09000000
#define PL011_FR 0x18

	.section .text.boot, "ax", %progbits
	.globl _start
	.type _start, %function
_start:
	msr daifset, #0xf
	mrs x19, CurrentEL
	ubfx x19, x19, #2, #2
	cmp x19, #2
	b.eq from_el2
	cmp x19, #1
	b.ne unsupported_el

at_el1:
	ldr x0, =bmrt_vectors
	msr vbar_el1, x0
	ldr x0, =bmrt_exc_stack_top
	mov sp, x0
	ldr x0, =__bss_start
	ldr x1, =__bss_end
1:	cmp x0, x1
	b.hs 2f
	stp xzr, xzr, [x0], #16
	b 1b
2:	ldr x0, =bmrt_entry_el
	str x19, [x0]
	mov x0, #(3 << 20)              /* CPACR_EL1.FPEN: FP/SIMD at EL0 and EL1 */
	msr cpacr_el1, x0
	isb
	msr tpidr_el1, xzr              /* CPU index 0 */
	bl bmrt_mmu_init
	ldr x0, =bmrt_stack_top
	msr sp_el0, x0
	msr spsel, #0
	mov x29, #0
	mov x30, #0
	bl bmrt_start
stop:
	wfi
	b stop

/* Entered at EL3: say so on the PL011 (usable without set-up under QEMU) and stop. */
unsupported_el:
	ldr x0, =el3_message
	mov x1, #PL011_BASE
4:	ldrb w2, [x0], #1
	cbz w2, stop
5:	ldr w3, [x1, #PL011_FR]
	tbnz w3, #5, 5b                 /* TXFF */
	str w2, [x1]
	b 4b

from_el2:
	adr x20, at_el1
	b el2_to_el1

/* Hand EL1 the machine and continue at x20 in EL1h, D A I F masked. */
el2_to_el1:
	mov x0, #0                      /* MDCR_EL2.HPMN = PMCR_EL0.N: EL1 owns every counter */
	mrs x1, id_aa64dfr0_el1         /* PMUVer 0 (none) or 0xF (IMPDEF): no PMCR_EL0 */
	ubfx x1, x1, #8, #4
	cbz x1, 6f
	cmp x1, #0xf
	b.eq 6f
	mrs x0, pmcr_el0
	ubfx x0, x0, #11, #5
6:	msr mdcr_el2, x0
	mov x0, #HCR_EL2_RW
	msr hcr_el2, x0
	mov x0, #3                      /* CNTHCTL_EL2.EL1PCTEN, EL1PCEN */
	msr cnthctl_el2, x0
	msr cntvoff_el2, xzr
	mrs x0, midr_el1
	msr vpidr_el2, x0
	mrs x0, mpidr_el1
	msr vmpidr_el2, x0
	mov x0, #CPTR_EL2_RES1
	msr cptr_el2, x0
	mrs x0, id_aa64pfr0_el1         /* GICv3 system registers: let EL1 use them */
	ubfx x0, x0, #24, #4
	cbz x0, 3f
	mrs x0, ICC_SRE_EL2
	orr x0, x0, #0xf                /* SRE, DFB, DIB, Enable */
	msr ICC_SRE_EL2, x0
	isb
	msr ICH_HCR_EL2, xzr
3:	ldr x0, =SCTLR_EL1_RES1
	msr sctlr_el1, x0
	mov x0, #SPSR_EL1H_MASKED
	msr spsr_el2, x0
	msr elr_el2, x20
	isb
	eret
	.size _start, . - _start

/* x0 = this CPU's index, from CPU_ON's context id */
	.globl bmrt_secondary_entry
	.type bmrt_secondary_entry, %function
bmrt_secondary_entry:
	msr daifset, #0xf
	mov x21, x0
	mrs x19, CurrentEL
	ubfx x19, x19, #2, #2
	adr x20, secondary_el1
	cmp x19, #2
	b.eq el2_to_el1
	cmp x19, #1
	b.ne stop
secondary_el1:
	ldr x0, =bmrt_vectors
	msr vbar_el1, x0
	ldr x1, =bmrt_cpu_stacks - CPU_STACKS
	ldr x2, =CPU_STACKS
	madd x1, x21, x2, x1            /* this CPU's guard page */
	ldr x2, =GUARD_SIZE + CPU_EXC_STACK_SIZE
	add x0, x1, x2
	mov sp, x0
	mov x0, #(3 << 20)
	msr cpacr_el1, x0
	ldr x0, =bmrt_mmu_regs
	ldp x2, x3, [x0]                /* MAIR, TCR */
	ldp x4, x5, [x0, #16]           /* TTBR0, SCTLR */
	msr mair_el1, x2
	msr tcr_el1, x3
	msr ttbr0_el1, x4
	dsb ish
	tlbi vmalle1
	dsb ish
	isb
	msr sctlr_el1, x5
	isb
	msr tpidr_el1, x21
	ldr x2, =CPU_STACKS
	add x0, x1, x2
	msr sp_el0, x0
	msr spsel, #0
	mov x0, x21
	mov x29, #0
	mov x30, #0
	bl bmrt_secondary_start
	b stop
	.size bmrt_secondary_entry, . - bmrt_secondary_entry

/* Stacks, each above an unmapped guard page (bmrt_mmu_init), so an overflow faults
 * (layout.h). */
	.section .bss.boot, "aw", %nobits
	.balign 4096
	.globl bmrt_exc_stack_guard, bmrt_exc_stack_top, bmrt_stack_guard, bmrt_stack_top
	.globl bmrt_cpu_stacks
bmrt_exc_stack_guard:
	.skip GUARD_SIZE
	.skip EXC_STACK_SIZE
bmrt_exc_stack_top:
bmrt_stack_guard:
	.skip GUARD_SIZE
	.skip STACK_SIZE
bmrt_stack_top:
bmrt_cpu_stacks:
	.skip (BMRT_MAX_CPUS - 1) * CPU_STACKS

	.section .rodata
el3_message:
	.ascii "bmprof: QEMU started the image at EL3 (-M virt,secure=on), which the runtime "
	.asciz "does not support; run it without secure=on\n"

	.section .data
	.balign 8
	.globl bmrt_entry_el
bmrt_entry_el:
	.quad 0

	.section .note.GNU-stack, "", %progbits
