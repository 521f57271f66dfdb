/* SPDX-License-Identifier: BSD-2-Clause */
/* Booting a UEFI application (a PE/COFF .efi built with make image BOOT=uefi) under the
 * firmware QEMU runs for its machine: OVMF on x86-64, AAVMF on AArch64.
 *
 * The application goes into a temporary directory as EFI/BOOT/BOOTX64.EFI (BOOTAA64.EFI),
 * which QEMU presents as a FAT disk (vvfat), next to a private copy of the firmware's
 * variable store; the firmware's removable-media boot path finds and starts it. The
 * firmware is looked for in the Debian packages' locations, or taken from $BMPROF_UEFI_CODE
 * and $BMPROF_UEFI_VARS.
 */
#ifndef BMPROF_QEMU_UEFI_H
#define BMPROF_QEMU_UEFI_H

#include <limits.h>
#include <stddef.h>

/* What booting a UEFI application of one architecture takes. */
struct qemu_firmware {
	const char *arch;               /* "x86_64", "aarch64" (struct qemu_machine's arch) */
	const char *package;            /* the Debian package with the firmware */
	const char *const *code;        /* candidate CODE images, NULL-terminated; */
	const char *const *vars;        /* and the VARS template that goes with each */
	const char *boot_file;          /* "BOOTX64.EFI" */
	long long pad;                  /* pflash size both images are padded to; 0: as is */
	int virtio_disk;                /* the disk on virtio-blk-pci, else the board's own */
	const char *const *args;        /* more QEMU arguments, NULL-terminated (or NULL) */
};

/* NULL for an architecture bmprof cannot boot UEFI applications of. */
const struct qemu_firmware *qemu_uefi_firmware(const char *arch);

/* A prepared boot. */
struct qemu_uefi {
	char dir[PATH_MAX];             /* the temporary directory (removed by cleanup) */
	char esp[PATH_MAX];             /* dir/esp: the FAT disk's contents */
	char code[PATH_MAX];            /* the CODE image QEMU reads (read-only) */
	char vars[PATH_MAX];            /* dir/vars.fd: this run's VARS */
	int virtio_disk;
	const char *const *args;        /* the firmware's own arguments (qemu_firmware) */
};

/* Which file boots and which one symbolizes: an image that is a PE (starts with "MZ")
 * boots as a UEFI application and needs the ELF beside it (NAME.efi -> NAME.elf); an ELF
 * with a PE NAME.efi beside it boots that. Returns 1 (UEFI; elf and efi filled), 0 (not
 * UEFI: boot the image itself), or -1 with a one-line reason in err. */
int qemu_uefi_locate(const char *image, char *elf, size_t elfn, char *efi, size_t efin,
		     char *err, size_t errn);

/* Find the firmware for fw (the environment overrides first), make the temporary
 * directory with the application and a VARS copy. 0, or -1 with a one-line reason in err
 * (nothing left behind). */
int qemu_uefi_prepare(struct qemu_uefi *u, const struct qemu_firmware *fw, const char *efi,
		      char *err, size_t errn);
/* Remove the temporary directory and everything in it (QEMU may have written files to
 * the FAT disk). Safe to call twice, or on a zeroed struct. */
void qemu_uefi_cleanup(struct qemu_uefi *u);

/* QEMU arguments for the prepared boot (pflash drives and the disk), NULL-terminated,
 * malloc'd (free each and the array); NULL if out of memory. */
char **qemu_uefi_argv(const struct qemu_uefi *u);

#endif
