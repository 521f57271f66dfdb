/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof bhive's harness: the leading untracked segments (the calibration) run_emit wrote
 * last time, kept: the code for them at the code's start is the same for every block, so
 * only what follows is written again. Positions are in the arch's units of the code. */
#ifndef BHIVE_EMIT_H
#define BHIVE_EMIT_H

#include "harness.h"

/* How many of segs' leading segments are written already (0 or all the untracked ones),
 * with where the code goes on in *at; run_seg_at and _end of those cleared. */
unsigned emit_kept(const struct run_seg *segs, unsigned n, unsigned *at);
/* After segment k is written, ending at at: kept when it is the last untracked lead one. */
void emit_note(const struct run_seg *segs, unsigned n, unsigned k, unsigned at);

#endif
