/* SPDX-License-Identifier: BSD-2-Clause */
/* Entries for the CPU exceptions a program can cause, hooked into the firmware's IDT
 * while it runs (start.c). Frame and return path: boot/x86_64/exc_frame.inc; the handler,
 * bmrt_uefi_exception, returns only for a fault it fixed up (the sampler's probing MSR
 * accesses). bmrt_uefi_exc_entries[v] is vector v's entry (0 for vectors left alone). */

#include "../../x86_64/exc_frame.inc"

	.text
	.irp v, 0,4,5,6,7,8,10,11,12,13,14,16,17,19
	exc \v
	.endr

exc_common:
	exc_common_body bmrt_uefi_exception

	.section .data.rel.ro, "aw"
	.balign 8
	.globl bmrt_uefi_exc_entries
bmrt_uefi_exc_entries:
	.irp v, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19
	.if \v == 0 || (\v >= 4 && \v <= 8) || (\v >= 10 && \v <= 14) || \v == 16 || \v == 17 || \v == 19
	.quad exc_\v
	.else
	.quad 0
	.endif
	.endr

	.section .note.GNU-stack, "", @progbits
