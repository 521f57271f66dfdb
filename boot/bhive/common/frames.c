/* SPDX-License-Identifier: BSD-2-Clause */
/* The frames the block's pages map to (frames.h). */
#include "harness.h"
#include "frames.h"

uint64_t bhive_frames[BHIVE_FRAMES][512] __attribute__((aligned(4096)));
static unsigned pages, written, write_frames = BHIVE_FRAMES - 1;

void frames_reset(void)
{
	pages = written = 0;
}

unsigned space_set_write_frames(unsigned n)
{
	write_frames = n < BHIVE_FRAMES - 1 ? n : BHIVE_FRAMES - 1;
	return write_frames;
}

int frame_pick(int present, int writable, int write, uint64_t *frame)
{
	if (present && (!write || writable))
		return BHIVE_UNMAPPABLE;   /* mapped and allowed, yet it faulted */
	if (write && written == write_frames)
		return BHIVE_ALIASING;
	if (!present)
		pages++;
	/* written: a frame of its own (a page read before moves off the shared frame, whose
	 * contents every run starts from are the same) */
	*frame = (uintptr_t)bhive_frames[write ? ++written : 0];
	return BHIVE_OK;
}

unsigned frames_words(void)
{
	return 512 * (1 + written);
}

void space_fill_frames(void)
{
	arch_fill64(&bhive_frames[0][0], BHIVE_INIT, frames_words());
}

unsigned space_pages(void) { return pages; }
unsigned space_written(void) { return written; }
