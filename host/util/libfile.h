/* SPDX-License-Identifier: BSD-2-Clause */
/* Files make builds beside bmprof (the QEMU plugin, the bhive harness image): in
 * lib/bmprof/ next to the bin/ that holds the running executable (build/bin/bmprof ->
 * build/lib/bmprof/, build/san/bin/bmprof -> build/san/lib/bmprof/, PREFIX/bin ->
 * PREFIX/lib/bmprof/), or where an environment variable names another. */
#ifndef BMPROF_LIBFILE_H
#define BMPROF_LIBFILE_H

#include <stddef.h>

/* The path of lib/bmprof/NAME into out, or $ENV when it is set and not empty; what names
 * the file in messages ("the insn_count QEMU plugin"). 0, or -1 with a one-line reason
 * (unreadable, missing: run make, or set ENV). */
int bm_lib_file(const char *env, const char *name, const char *what, char *out, size_t n,
		char *err, size_t errlen);

#endif
