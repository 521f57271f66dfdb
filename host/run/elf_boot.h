/* SPDX-License-Identifier: BSD-2-Clause */
/* Whether QEMU can boot an ELF the way bmprof starts it (-kernel), checked before QEMU
 * starts, so a wrong file is one line of bmprof's instead of QEMU's errors and a missing
 * HELLO frame. */
#ifndef BMPROF_ELF_BOOT_H
#define BMPROF_ELF_BOOT_H

#include <stddef.h>

/* path, an ELF of machine e_machine (EM_X86_64, EM_AARCH64, EM_RISCV): an executable (ET_EXEC)
 * without an interpreter whose entry point is in an executable PT_LOAD segment; x86-64:
 * with a PVH entry note (Xen ELF note 18, what QEMU's -kernel boots a 64-bit ELF by);
 * AArch64: loaded at or above the virt board's RAM (0x40000000); 32-bit Arm (Cortex-M):
 * an ELF32 whose entry is Thumb code (bit 0 set; the board note is cm_board.h's). 0, or -1
 * with a one-line reason naming the file and what to do. */
int elf_bootable(const char *path, int e_machine, char *err, size_t n);

/* The QEMU binary `qemu` (a path or a name; NULL: fine) is for the ELF's architecture
 * `arch` ("x86_64", "aarch64") when its name says qemu-system-ARCH. 0, or -1 with err. */
int qemu_binary_matches(const char *qemu, const char *arch, const char *image, char *err,
			size_t n);

#endif
