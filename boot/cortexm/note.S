/* SPDX-License-Identifier: BSD-2-Clause */
/* The board note, which `bmprof qemu` reads to boot the image: ELF note "bmprof", type 1,
 * its description { u32 config area address, u32 its size, QEMU's machine name, NUL,
 * its CPU name, NUL }. The host loads the run's config text at that address
 * (-device loader), where cfgarea.c reads it. */
#ifndef BMRT_CM_MACHINE
#error "BMRT_CM_MACHINE: build through mk/image-cortexm.mk"
#endif
	.section .note.bmprof, "a", %note
	.balign 4
	.word 2f - 1f          /* namesz */
	.word 4f - 3f          /* descsz */
	.word 1                /* type: board */
1:	.asciz "bmprof"
2:	.balign 4
3:	.word bmrt_config_area
	.word BMRT_CM_CONFIG_BYTES
	.asciz BMRT_CM_MACHINE
	.asciz BMRT_CM_CPU
4:	.balign 4

	.section .note.GNU-stack, "", %progbits
