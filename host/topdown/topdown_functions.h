/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof topdown --per-function: each function's level-1 Top-Down from a run that sampled
 * the Top-Down events (docs/bmprof-topdown.md "Per function"). */
#ifndef BMPROF_TOPDOWN_FUNCTIONS_H
#define BMPROF_TOPDOWN_FUNCTIONS_H

#include <stdio.h>

#include "profile.h"
#include "topdown.h"

/* The table for p (samples of the events its topdown_events meta key names), symbolized
 * against elf (NULL: the ELF the profile names; profile_path for finding it beside the
 * profile), at most limit rows. json: one JSON object instead of text. 0, or -1 with the
 * reason printed. */
int topdown_functions_print(FILE *f, const struct td_model *m, const struct profile *p,
			    const char *profile_path, const char *elf, unsigned limit, int json);

#endif
