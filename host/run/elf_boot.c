/* SPDX-License-Identifier: BSD-2-Clause */
/* Is an ELF one QEMU boots with -kernel (elf_boot.h). */
#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "run/elf_boot.h"

#define VIRT_RAM_BASE 0x40000000ull
#define RISCV_VIRT_RAM_BASE 0x80000000ull
#define XEN_ELFNOTE_PHYS32_ENTRY 18

#define HOW "bmprof boots images built with make image (docs/image.md) or linked with the " \
	    "bmprof runtime"

/* The image has a PT_NOTE holding a Xen note of type 18. */
static int has_pvh_note(Elf *e, size_t nph)
{
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		Elf_Data *d;
		GElf_Nhdr nh;
		size_t off = 0, name_off, desc_off;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_NOTE)
			continue;
		d = elf_getdata_rawchunk(e, (int64_t)ph.p_offset, ph.p_filesz, ELF_T_NHDR);
		while (d && (off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0)
			if (nh.n_type == XEN_ELFNOTE_PHYS32_ENTRY && nh.n_namesz == 4 &&
			    !memcmp((const char *)d->d_buf + name_off, "Xen", 4))
				return 1;
	}
	return 0;
}

static int check(Elf *e, const char *path, int machine, char *err, size_t n)
{
	GElf_Ehdr eh;
	size_t nph;
	int entry_ok = 0;
	uint64_t lowest = UINT64_MAX;

	if (!gelf_getehdr(e, &eh) || elf_getphdrnum(e, &nph)) {
		snprintf(err, n, "%s: cannot read its ELF headers: pass the image's ELF", path);
		return -1;
	}
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(e, (int)i, &ph))
			continue;
		if (ph.p_type == PT_INTERP) {
			snprintf(err, n, "%s is not a bootable image: it is a dynamically linked "
				 "program (it has an interpreter); %s", path, HOW);
			return -1;
		}
		if (ph.p_type != PT_LOAD)
			continue;
		if (ph.p_paddr < lowest)
			lowest = ph.p_paddr;
		if ((ph.p_flags & PF_X) && eh.e_entry >= ph.p_vaddr &&
		    eh.e_entry - ph.p_vaddr < ph.p_memsz)
			entry_ok = 1;
	}
	if (eh.e_type != ET_EXEC) {
		snprintf(err, n, "%s is not a bootable image: it is %s, not an executable linked "
			 "at fixed addresses; %s", path, eh.e_type == ET_DYN ? "position-independent "
			 "(a shared object or PIE program)" : eh.e_type == ET_REL ? "an object file" :
			 "of another ELF type", HOW);
		return -1;
	}
	if (!entry_ok) {
		snprintf(err, n, "%s is not a bootable image: its entry point 0x%llx is in no "
			 "executable loaded segment; %s", path, (unsigned long long)eh.e_entry, HOW);
		return -1;
	}
	if (machine == EM_X86_64 && !has_pvh_note(e, nph)) {
		snprintf(err, n, "%s is not a bootable image: it has no PVH entry note (Xen ELF "
			 "note 18), which QEMU's -kernel needs to boot a 64-bit ELF; %s", path, HOW);
		return -1;
	}
	if (machine == EM_ARM && (eh.e_ident[EI_CLASS] != ELFCLASS32 || !(eh.e_entry & 1))) {
		snprintf(err, n, "%s is not a bootable Cortex-M image: its entry point 0x%llx is not "
			 "Thumb code (bit 0 clear); %s", path, (unsigned long long)eh.e_entry, HOW);
		return -1;
	}
	if (machine == EM_RISCV && (lowest != RISCV_VIRT_RAM_BASE || eh.e_entry != lowest)) {
		snprintf(err, n, "%s is not a bootable image: QEMU's RISC-V virt board with -bios "
			 "none starts at 0x%llx, but it loads at 0x%llx with its entry at 0x%llx; %s",
			 path, RISCV_VIRT_RAM_BASE, (unsigned long long)lowest,
			 (unsigned long long)eh.e_entry, HOW);
		return -1;
	}
	if (machine == EM_AARCH64 && lowest < VIRT_RAM_BASE) {
		snprintf(err, n, "%s is not a bootable image: it loads at 0x%llx, below the RAM of "
			 "QEMU's virt board (0x%llx); %s", path, (unsigned long long)lowest,
			 VIRT_RAM_BASE, HOW);
		return -1;
	}
	return 0;
}

int elf_bootable(const char *path, int machine, char *err, size_t n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;
	Elf *e;

	if (fd < 0) {
		snprintf(err, n, "cannot open %s", path);
		return -1;
	}
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		snprintf(err, n, "%s is not an ELF file: pass the image's ELF", path);
		rc = -1;
	} else {
		rc = check(e, path, machine, err, n);
	}
	if (e)
		elf_end(e);
	close(fd);
	return rc;
}

int qemu_binary_matches(const char *qemu, const char *arch, const char *image, char *err,
			size_t n)
{
	const char *base, *sys;

	if (!qemu)
		return 0;
	base = strrchr(qemu, '/') ? strrchr(qemu, '/') + 1 : qemu;
	if (strncmp(base, "qemu-system-", 12))
		return 0;   /* a wrapper script: its name says nothing */
	sys = base + 12;
	if (!strcmp(sys, arch) || (!strcmp(arch, "cortex-m") && !strcmp(sys, "arm")))
		return 0;
	snprintf(err, n, "%s is an %s image, but --qemu %s runs %s guests: use "
		 "qemu-system-%s, or leave out --qemu", image, arch, qemu, sys,
		 strcmp(arch, "cortex-m") ? arch : "arm");
	return -1;
}
