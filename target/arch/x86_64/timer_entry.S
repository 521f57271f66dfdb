/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof_x86_timer_entry: the IDT handler for the sampling timer vector. It passes the
 * interrupted RIP to the neutral sampler's bmprof_sampler_timer_irq (the tick and the
 * interrupt-exit drain, for the CPU it runs on) and returns. */
#include "irq_save.inc"

	.text
	.globl bmprof_x86_timer_entry
	.type bmprof_x86_timer_entry, @function
bmprof_x86_timer_entry:
	save_frame
	call bmprof_x86_timer_frame
	restore_frame
	.size bmprof_x86_timer_entry, . - bmprof_x86_timer_entry

	.section .note.GNU-stack, "", @progbits
