/* SPDX-License-Identifier: BSD-2-Clause */
/* Finding an image's ELF by its GNU build-id when the path a profile names is gone: the
 * places debuggers and perf keep ELFs by build-id, and bmprof's own. */
#ifndef BMPROF_ELF_FIND_H
#define BMPROF_ELF_FIND_H

#include <stddef.h>
#include <stdint.h>

/* The search path users add (--symfs DIR, or BMPROF_SYMFS, colon-separated): each DIR is
 * tried for DIR/.build-id/XX/REST[.debug], DIR/.build-id/XX/REST/elf and DIR/NAME. */
#define ELF_FIND_ENV "BMPROF_SYMFS"
void elf_find_add_dir(const char *dir);
/* Forgets the added directories (a command that added them, when it ends). */
void elf_find_clear_dirs(void);

/* The GNU build-id of the ELF at path into id (at most max bytes): its length, 0 when it
 * has none or is not a readable ELF. */
size_t elf_build_id(const char *path, uint8_t *id, size_t max);

/* A readable ELF whose build-id is id (len bytes), named name (the path a profile recorded,
 * for its base name; may be NULL), from: the added directories and BMPROF_SYMFS; the
 * profile database's images (BMPROF_DB/images/ID.elf); ~/.debug/.build-id (perf's
 * cache); /usr/lib/debug/.build-id (debuggers'). 0 with the path in out, or -1. */
int elf_find_by_build_id(const uint8_t *id, size_t len, const char *name, char *out, size_t n);

#endif
