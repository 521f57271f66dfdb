/* SPDX-License-Identifier: BSD-2-Clause */
/* One symbol of an ELF file by name: see elf_symbol.h. */
#include "symbol/elf_symbol.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int find(Elf *elf, const char *name, uint64_t *value, uint64_t *size)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0, n = sh.sh_size / sh.sh_entsize; i < n; i++) {
			GElf_Sym sym;
			const char *s;

			if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF)
				continue;
			s = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (s && !strcmp(s, name)) {
				GElf_Ehdr eh;

				*value = sym.st_value;
				/* a Thumb function's address has bit 0 set in its value */
				if (GELF_ST_TYPE(sym.st_info) == STT_FUNC && gelf_getehdr(elf, &eh) &&
				    eh.e_machine == EM_ARM)
					*value &= ~1ull;
				*size = sym.st_size;
				return 0;
			}
		}
	}
	return -1;
}

int elf_symbol(const char *path, const char *name, uint64_t *value, uint64_t *size, char *err,
	       size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = -1;
	Elf *elf;

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF)
		snprintf(err, errlen, "%s is not an ELF file", path);
	else if ((rc = find(elf, name, value, size)))
		snprintf(err, errlen, "%s has no symbol %s (stripped, or built with a bmprof "
			 "that predates it)", path, name);
	if (elf)
		elf_end(elf);
	close(fd);
	return rc;
}
