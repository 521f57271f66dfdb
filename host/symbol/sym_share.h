/* SPDX-License-Identifier: BSD-2-Clause */
/* One symbolizer per ELF file in the process: bmprof diff and stats load several profiles
 * of the same image, and a report may meet the image again as a firmware module. The
 * ELF's tables and decoded DWARF are then built once, and answers found for one profile
 * serve the next. A file is the same while its device, inode, size and modification time
 * are. */
#ifndef BMPROF_SYM_SHARE_H
#define BMPROF_SYM_SHARE_H

#include <stddef.h>
#include "symbol/symbolize.h"

/* symbolizer_open, or the symbolizer already open for the same file (one more user). */
struct symbolizer *sym_share_open(const char *path, char *err, size_t errlen);
/* One user less; the last closes it. */
void sym_share_close(struct symbolizer *s);

#endif
