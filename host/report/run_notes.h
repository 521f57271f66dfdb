/* SPDX-License-Identifier: BSD-2-Clause */
/* What a run's samples and clock mean, in words, for the report header, the capture
 * summary, annotate and cpi: the core clock under KVM, the emulator's speed under plain
 * TCG, instructions under -icount; a timer rate other than --freq; a sampling rate short of
 * the one asked for; shares that follow the emulator; samples on translation-block
 * starts. */
#ifndef BMPROF_RUN_NOTES_H
#define BMPROF_RUN_NOTES_H

#include <stddef.h>
#include "profile.h"

#define RUN_NOTE_LEN 400

/* The clock line's text, or "" when the profile has nothing to say about it. */
void run_notes_clock(char *buf, size_t n, const struct profile *p);

/* The warnings (a sampling timer that did not run at --freq, because the image does not
 * read the run configuration; a sampling rate below 90% of the one asked for) into warn,
 * and the notes
 * (shares that follow the emulator) into note; at most max each. Returns the number of
 * warnings; *nnotes the number of notes. */
unsigned run_notes(const struct profile *p, char (*warn)[RUN_NOTE_LEN],
		   char (*note)[RUN_NOTE_LEN], unsigned max, unsigned *nnotes);

/* Samples land on translation-block starts: the one-line note, or NULL when they do not
 * (-icount, -singlestep, KVM, a board). */
const char *run_notes_block_starts(const struct profile *p);

#endif
