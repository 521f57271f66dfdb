/* SPDX-License-Identifier: BSD-2-Clause */
/* A profile as pprof's profile.proto (proto/profile.proto), gzipped: the format go tool
 * pprof reads. One Location per sampled address (its Line: function and file:line from the
 * symbolizer), one Sample per location with its count (sample type samples/count) and,
 * when the timer's rate is known, its time (cpu/nanoseconds); the image is the Mapping,
 * with its build-id. */
#ifndef BMPROF_EXPORT_PPROF_H
#define BMPROF_EXPORT_PPROF_H

#include <stdio.h>
#include "profile/diff_load.h"

/* Write lr (loaded by function) to f. 0, or -1 with a one-line reason in err. */
int export_pprof(FILE *f, const struct loaded_run *lr, char *err, size_t errlen);

#endif
