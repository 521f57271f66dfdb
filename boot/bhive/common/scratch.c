/* SPDX-License-Identifier: BSD-2-Clause */
/* The scratch page made ready for an entry (scratch.h). */
#include "scratch.h"

void scratch_prepare(struct run_result *res, unsigned reps, unsigned rec_words)
{
	res->exited = 0;
	res->reps = reps;
	bhive_scratch[S_PTR] = BHIVE_SCRATCH_VA + 8 * S_REC;
	bhive_scratch[S_LEFT] = reps;
	bhive_scratch[S_FRAME_WORDS] = frames_words();
	arch_fill64(bhive_scratch + S_REC, 0, reps * run_segments * rec_words);
	space_fill_frames();
}
