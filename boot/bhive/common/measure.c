/* SPDX-License-Identifier: BSD-2-Clause */
/* One block measured (measure.h), as BHive does. The code (the calibration unless the
 * clock counts core cycles, then both unroll factors) runs until it reaches its end, each
 * mappable page fault mapping the page (read: to the shared frame; written: to a frame of
 * its own, at most arch_write_frames, frames.h) and restarting from the same state (at
 * most max_faults); a fault that cannot be mapped ends the block with a status (more
 * written pages than frames: aliasing). Then the block unrolled u_lo and u_hi times is timed
 * BHIVE_TIMINGS times each a round, alternately, in one entry (run.c); a timing is clean
 * when the run reached its end and no time was stolen in its window; the block's timing is
 * kept when at least BHIVE_KEEP clean timings agree (agree.c), else another round, up to
 * BHIVE_ROUNDS. Alignment checks are on while the pages are mapped (misalign.h): the
 * mapping passes run every unroll factor from the state the timed runs start from, so
 * they make every access the timed runs make; the block is timed with the checks off
 * when an access inside one line was stepped over. */
#include "measure.h"
#include "agree.h"
#include "misalign.h"
#include "opts.h"

/* Runs until the code reaches its end, mapping pages as it faults. */
static int map_pages(struct measure *m)
{
	struct run_result *r = &m->last;
	uint64_t addr;
	int write, st;

	for (;;) {
		run_once(r, 1);
		if (r->exited)
			return BHIVE_OK;
		m->faulted = 1;
		st = fault_page(r, &addr, &write);
		if (st)
			return st;
		if (m->faults == bhive_opts.max_faults)
			return BHIVE_TOO_MANY_FAULTS;
		st = space_map(addr, write);
		if (st)
			return st;
		m->faults++;
		m->faulted = 0;
	}
}

/* Rounds of BHIVE_TIMINGS passes, each timing the segments in turn, until every
 * segment's timing is kept. */
static int time_code(struct measure *m, unsigned nseg, uint64_t *t, unsigned *kept)
{
	uint64_t v[RUN_MAX_SEGS][BHIVE_TIMINGS];

	for (unsigned round = 0; round < BHIVE_ROUNDS; round++) {
		unsigned n[RUN_MAX_SEGS] = { 0 };
		int ok = 1;
		m->tries++;
		run_once(&m->last, BHIVE_TIMINGS);
		if (!m->last.exited) {
			m->faulted = 1;
			return fault_status(&m->last);
		}
		for (unsigned i = 0; i < nseg * BHIVE_TIMINGS; i++)
			if (!m->last.stolen[i])
				v[i % nseg][n[i % nseg]++] = m->last.ticks[i];
		for (unsigned k = 0; k < nseg; k++)
			ok &= agree(v[k], n[k], &t[k], &kept[k]);
		if (ok && !bhive_opts.unstable)
			return BHIVE_OK;
	}
	return BHIVE_UNSTABLE;
}

void measure(const void *code, const struct bhive_in_block *b, const struct bhive_in_rip *rip,
	     const struct bhive_in_access *acc, struct measure *m)
{
	unsigned cal_len;
	const void *cal = arch_cal(&cal_len);
	const unsigned len = b->len, u_lo = b->u_lo, u_hi = b->u_hi;
	/* the calibration first: the same code at the same place for every block, written
	 * once (emit.h); the block after it */
	const struct run_seg segs[4] = { { cal, cal_len, BHIVE_CAL_LO, 0, 0, 0, 0 },
					 { cal, cal_len, BHIVE_CAL_HI, 0, 0, 0, 0 },
					 { code, len, u_lo, 1, rip, b->nrip, b->rip_align },
					 { code, len, u_hi, 1, rip, b->nrip, b->rip_align } };
	const unsigned first = bhive_opts.pmc ? 2 : 0, nseg = 4 - first;
	uint64_t t[4] = { 0 };
	unsigned kept[4] = { 0 };

	/* the pages are mapped by a pass over the very code that is timed: pc-relative
	 * addresses depend on where each copy is */
	space_reset();
	run_emit(segs + first, nseg);
	misalign_block(b, acc);
	misalign.probing = 1;
	run_align(1);
	m->status = map_pages(m);
	misalign.probing = 0;
	run_align(!misalign.stepped);
	if (m->status)
		return;
	m->status = time_code(m, nseg, t, kept);
	for (unsigned k = 0; k < 2; k++) {
		m->t[k] = t[nseg - 2 + k];
		m->kept[k] = kept[nseg - 2 + k];
		m->cal[k] = bhive_opts.pmc ? 0 : t[k];
	}
}
