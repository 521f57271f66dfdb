/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof_cm_systick_entry: the SysTick vector. The exception frame is on the stack the
 * interrupted code used: PSP when EXC_RETURN (lr) bit 2 is set, else MSP. Calls
 * bmprof_cm_systick(frame, exc_return, r7) (r7, the interrupted frame pointer, is not in
 * the exception frame) and returns through EXC_RETURN.
 * bmprof_cm_overflow_entry: the same for a PMU's overflow interrupt, calling
 * bmprof_cm_overflow(frame, exc_return, r7): a PMU driver points its vector here (the
 * DebugMonitor slot through bmprof_cm_debugmon_entry, or an external interrupt's). */
	.syntax unified
	.thumb
	.text
	.global bmprof_cm_systick_entry
	.type bmprof_cm_systick_entry, %function
	.thumb_func
bmprof_cm_systick_entry:
	tst lr, #4
	ite eq
	mrseq r0, msp
	mrsne r0, psp
	mov r1, lr
	mov r2, r7
	push {r1, lr}
	bl bmprof_cm_systick
	pop {r1, pc}
	.size bmprof_cm_systick_entry, . - bmprof_cm_systick_entry

	.global bmprof_cm_overflow_entry
	.type bmprof_cm_overflow_entry, %function
	.thumb_func
bmprof_cm_overflow_entry:
	tst lr, #4
	ite eq
	mrseq r0, msp
	mrsne r0, psp
	mov r1, lr
	mov r2, r7
	push {r1, lr}
	bl bmprof_cm_overflow
	pop {r1, pc}
	.size bmprof_cm_overflow_entry, . - bmprof_cm_overflow_entry

	.section .note.GNU-stack, "", %progbits
