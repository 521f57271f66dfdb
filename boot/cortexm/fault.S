/* SPDX-License-Identifier: BSD-2-Clause */
/* bmrt_fault_entry: every fault and unexpected exception. The frame is on PSP or MSP
 * (EXC_RETURN bit 2); bmrt_fault(frame, exc_return, ipsr) reports it and ends the run.
 * bmrt_semihost: BKPT 0xAB with the operation in r0 and its argument in r1. */
	.syntax unified
	.thumb
	.text
	.global bmrt_fault_entry
	.type bmrt_fault_entry, %function
	.thumb_func
bmrt_fault_entry:
	tst lr, #4
	ite eq
	mrseq r0, msp
	mrsne r0, psp
	mov r1, lr
	mrs r2, ipsr
	b bmrt_fault
	.size bmrt_fault_entry, . - bmrt_fault_entry

/* Vectors a PMU driver or a program may take over; until then, unexpected exceptions. */
	.weak bmprof_cm_debugmon_entry, bmrt_pendsv_entry, bmrt_svc_entry, bmrt_irq_entry
	.thumb_set bmprof_cm_debugmon_entry, bmrt_fault_entry
	.thumb_set bmrt_irq_entry, bmrt_fault_entry
	.thumb_set bmrt_pendsv_entry, bmrt_fault_entry
	.thumb_set bmrt_svc_entry, bmrt_fault_entry

	.global bmrt_semihost
	.type bmrt_semihost, %function
	.thumb_func
bmrt_semihost:
	bkpt 0xab
	bx lr
	.size bmrt_semihost, . - bmrt_semihost

	.section .note.GNU-stack, "", %progbits
