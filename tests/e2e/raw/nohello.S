/* SPDX-License-Identifier: BSD-2-Clause */
/* An image that boots (PVH entry), prints a line on the serial console and exits QEMU
 * without ever sending a bmprof frame: what a crash at boot looks like to the host. */
	.section .note.pvh, "a", @note
	.p2align 2
	.long 4            /* name size: "Xen\0" */
	.long 4            /* descriptor size */
	.long 18           /* XEN_ELFNOTE_PHYS32_ENTRY */
	.asciz "Xen"
	.long entry

	.text
	.code32
	.globl entry
entry:
	mov $msg, %esi
1:	movb (%esi), %al
	test %al, %al
	jz 2f
	mov $0x3f8, %dx
	outb %al, %dx
	inc %esi
	jmp 1b
2:	mov $3, %eax       /* isa-debug-exit: QEMU exits with (3 << 1) | 1 */
	mov $0xf4, %dx
	outl %eax, %dx
3:	hlt
	jmp 3b

	.section .rodata
msg:	.asciz "nohello: booted, sending no stream\n"
