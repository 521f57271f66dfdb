/* SPDX-License-Identifier: BSD-2-Clause */
/* A file bmprof writes is replaced whole or not at all: the output goes to a temporary
 * file beside it (unique, so concurrent writers never mix), which replaces it by rename
 * once everything was written and synced. A failure (a full disk, a bad input found after
 * opening) leaves the old file as it was. */
#ifndef BMPROF_OUTFILE_H
#define BMPROF_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

struct outfile {
	FILE *f;            /* write here */
	char *path, *tmp;   /* NULL for standard output */
};

/* path NULL or "-": standard output (nothing to replace). 0, or -1 with err. */
int outfile_open(struct outfile *o, const char *path, char *err, size_t n);
/* Flush, sync and rename over the path. 0, or -1 with err (the temporary file removed). */
int outfile_commit(struct outfile *o, char *err, size_t n);
/* Drop what was written; the path keeps what it had. */
void outfile_abort(struct outfile *o);

#endif
