/* SPDX-License-Identifier: BSD-2-Clause */
/* The loadable segments of an ELF that hold code (PT_LOAD with PF_X): where they are
 * loaded and where in the file they come from, as a memory map (pprof's Mapping) says. */
#ifndef BMPROF_ELF_SEGMENTS_H
#define BMPROF_ELF_SEGMENTS_H

#include <stddef.h>
#include <stdint.h>

struct elf_segment {
	uint64_t vaddr, memsz, offset;
};

/* At most max of them into seg, in the ELF's order: how many, or -1 if the file cannot be
 * read as an ELF. */
long elf_code_segments(const char *path, struct elf_segment *seg, size_t max);

#endif
