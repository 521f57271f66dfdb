/* SPDX-License-Identifier: BSD-2-Clause */
/* A semihosting call (HLT #0xF000). Without QEMU -semihosting the HLT is undefined: the
 * synchronous exception handler (exception.c) resumes after it with x0 = -1. */
	.text
	.global bmrt_hlt_semihost, bmrt_hlt_insn
	.type bmrt_hlt_semihost, %function
bmrt_hlt_semihost:	/* x0 = operation, x1 = its parameter block */
bmrt_hlt_insn:
	hlt	#0xf000
	ret
	.size bmrt_hlt_semihost, . - bmrt_hlt_semihost
	.section .note.GNU-stack, "", %progbits
