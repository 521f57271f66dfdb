/* SPDX-License-Identifier: BSD-2-Clause */
/* The PMU interrupt entries, built like bmprof_x86_timer_entry (irq_save.inc):
 *
 *   bmprof_x86_nmi_entry  IDT vector 2 (the PMI in NMI delivery mode): bmprof_x86_nmi
 *   bmprof_x86_pmi_entry  the PMI vector in fixed (IRQ) delivery mode: bmprof_x86_pmi
 *                         and the interrupt-exit drain (bmprof_x86_pmi_irq) */
#include "irq_save.inc"

	.text

	.globl bmprof_x86_nmi_entry
	.type bmprof_x86_nmi_entry, @function
bmprof_x86_nmi_entry:
	save_frame
	call bmprof_x86_nmi_frame
	restore_frame
	.size bmprof_x86_nmi_entry, . - bmprof_x86_nmi_entry

	.globl bmprof_x86_pmi_entry
	.type bmprof_x86_pmi_entry, @function
bmprof_x86_pmi_entry:
	save_frame
	call bmprof_x86_pmi_frame
	restore_frame
	.size bmprof_x86_pmi_entry, . - bmprof_x86_pmi_entry

	.section .note.GNU-stack, "", @progbits
