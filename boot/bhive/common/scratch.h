/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof bhive's harness: the scratch page the unrolled code reads and records into, in
 * 64-bit words: where the next record goes (S_PTR), how many passes are left (S_LEFT), how
 * many words of frames its reset refills (S_FRAME_WORDS: frames.h), and
 * from S_REC one record a timed run (the arch's REC_WORDS: the clock before and after,
 * and where there is one the steal counter before and after). Words below S_PTR are the
 * arch's own. */
#ifndef BHIVE_SCRATCH_H
#define BHIVE_SCRATCH_H

#include "harness.h"

#define S_PTR 8
#define S_LEFT 9
#define S_FRAME_WORDS 10
#define S_REC 16

/* Before an entry: res cleared for reps passes, the records emptied, the pointer at the
 * first, the frames in use refilled. */
void scratch_prepare(struct run_result *res, unsigned reps, unsigned rec_words);

#endif
