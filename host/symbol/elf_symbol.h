/* SPDX-License-Identifier: BSD-2-Clause */
/* One symbol of an ELF file by name (libelf), for bmprof qemu's recovery: the link-time
 * address of the target's recovery descriptor. */
#ifndef BMPROF_ELF_SYMBOL_H
#define BMPROF_ELF_SYMBOL_H

#include <stddef.h>
#include <stdint.h>

/* The value and size of the first defined symbol called name in path's symbol table. 0, or
 * -1 with a reason in err (no such file, not an ELF, no symbol table, no such symbol). */
int elf_symbol(const char *path, const char *name, uint64_t *value, uint64_t *size, char *err,
	       size_t errlen);

#endif
