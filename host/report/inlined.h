/* SPDX-License-Identifier: BSD-2-Clause */
/* A function that has no symbol because the compiler inlined it everywhere still has
 * samples: DWARF names it as the innermost function at pcs of its callers' symbols. For
 * bmprof annotate and cpi to say which caller to look at instead. */
#ifndef BMPROF_INLINED_H
#define BMPROF_INLINED_H

#include <stddef.h>

#include "report/resolve.h"

#define INLINED_MAX 4

/* The ELF symbols (at most INLINED_MAX, in address order) of r's sampled pcs whose innermost
 * (inlined) function is name: how many, "A, B" in buf, and the first in *first (NULL if
 * none). r's pcs must be resolved (resolve_pcs). */
size_t inlined_into(const struct resolved *r, const char *name, char *buf, size_t n,
		    const char **first);

#endif
