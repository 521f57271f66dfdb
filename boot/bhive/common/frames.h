/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof bhive's harness: the frames the pages a block touches map to. A page it only
 * reads maps to the one shared frame, read-only; a page it writes to a frame of its own,
 * so all its data stays in L1D and no load reads what a store to another page wrote (no
 * dependence the block does not have). There are at most write_frames written pages: as
 * many as L1D keeps apart (arch_write_frames). */
#ifndef BHIVE_FRAMES_H
#define BHIVE_FRAMES_H

#include <stdint.h>

#define BHIVE_FRAMES 9u                  /* the shared frame, 8 written pages' */

/* frames[0] the shared read-only frame, frames[1 ..] the written pages' own, in order */
extern uint64_t bhive_frames[BHIVE_FRAMES][512];

void frames_reset(void);                 /* no page mapped yet */
/* at most n written pages (capped at BHIVE_FRAMES - 1, which it returns); more is
 * BHIVE_ALIASING */
unsigned space_set_write_frames(unsigned n);
/* A fault on a page (present: mapped already; writable: for stores too; write: the fault
 * was a store): 0 with the frame it maps to now in *frame (writable when write), else the
 * status that refuses it. */
int frame_pick(int present, int writable, int write, uint64_t *frame);
/* the frames in use (the shared one, then one per written page): every 64-bit word
 * BHIVE_INIT */
void space_fill_frames(void);
unsigned frames_words(void);             /* the frames in use, in 64-bit words */

#endif
