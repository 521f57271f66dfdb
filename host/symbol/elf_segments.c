/* SPDX-License-Identifier: BSD-2-Clause */
/* An ELF's code segments (elf_segments.h). */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include "symbol/elf_segments.h"

long elf_code_segments(const char *path, struct elf_segment *seg, size_t max)
{
	int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	Elf *e;
	size_t n = 0;
	long k = 0;

	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || elf_getphdrnum(e, &n)) {
		if (e)
			elf_end(e);
		close(fd);
		return -1;
	}
	for (size_t i = 0; i < n && (size_t)k < max; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X) ||
		    !ph.p_memsz)
			continue;
		seg[k++] = (struct elf_segment){ ph.p_vaddr, ph.p_memsz, ph.p_offset };
	}
	elf_end(e);
	close(fd);
	return k;
}
