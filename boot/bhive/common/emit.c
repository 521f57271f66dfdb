/* SPDX-License-Identifier: BSD-2-Clause */
/* The calibration written once (emit.h). */
#include "emit.h"

static struct run_seg kept_segs[RUN_MAX_SEGS];
static unsigned kept_n, kept_end;

static unsigned lead_of(const struct run_seg *segs, unsigned n)
{
	unsigned lead = 0;

	while (lead < n && !segs[lead].track)
		lead++;
	return lead;
}

static int same_seg(const struct run_seg *a, const struct run_seg *b)
{
	return a->block == b->block && a->len == b->len && a->copies == b->copies &&
	       a->track == b->track && a->rip == b->rip && a->nrip == b->nrip &&
	       a->rip_align == b->rip_align;
}

unsigned emit_kept(const struct run_seg *segs, unsigned n, unsigned *at)
{
	unsigned lead = lead_of(segs, n);

	*at = 0;
	if (!lead || lead != kept_n) {
		kept_n = 0;   /* the code's start is written anew */
		return 0;
	}
	for (unsigned i = 0; i < lead; i++)
		if (!same_seg(&segs[i], &kept_segs[i]))
			return 0;
	for (unsigned i = 0; i < lead; i++)
		run_seg_at[i] = run_seg_end[i] = 0;
	*at = kept_end;
	return lead;
}

void emit_note(const struct run_seg *segs, unsigned n, unsigned k, unsigned at)
{
	unsigned lead = lead_of(segs, n);

	if (k + 1 != lead)
		return;
	for (unsigned i = 0; i < lead; i++)
		kept_segs[i] = segs[i];
	kept_n = lead;
	kept_end = at;
}
