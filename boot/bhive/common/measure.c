/* SPDX-License-Identifier: BSD-2-Clause */
/* One block measured (measure.h), as BHive does. The code (both unroll factors, and the
 * calibration unless the clock counts core cycles) runs until it reaches its end, each
 * mappable page fault mapping the page to the shared frame and restarting from the same
 * state (at most max_faults); a fault that cannot be mapped ends the block with a status.
 * A block that wrote a page and touched another may see 4K aliasing through the shared
 * frame and is excluded. Then the block unrolled u_lo and u_hi times is timed
 * BHIVE_TIMINGS times each a round, alternately, in one entry (run.c); a timing is clean
 * when the run reached its end and no time was stolen in its window; the block's timing is
 * kept when at least BHIVE_KEEP clean timings agree (agree.c), else another round, up to
 * BHIVE_ROUNDS. */
#include "measure.h"
#include "agree.h"
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
		if (ok)
			return BHIVE_OK;
	}
	return BHIVE_UNSTABLE;
}

void measure(const void *code, unsigned len, unsigned u_lo, unsigned u_hi, struct measure *m)
{
	unsigned cal_len, nseg = bhive_opts.pmc ? 2 : 4;
	const void *cal = arch_cal(&cal_len);
	const struct run_seg segs[4] = { { code, len, u_lo, 1 }, { code, len, u_hi, 1 },
					 { cal, cal_len, BHIVE_CAL_LO, 0 },
					 { cal, cal_len, BHIVE_CAL_HI, 0 } };
	uint64_t t[4] = { 0 };
	unsigned kept[4] = { 0 };

	/* the pages are mapped by a pass over the very code that is timed: pc-relative
	 * addresses depend on where each copy is */
	space_reset();
	run_emit(segs, nseg);
	m->status = map_pages(m);
	if (m->status)
		return;
	if (space_pages() > 1 && space_written()) {
		m->status = BHIVE_ALIASING;
		return;
	}
	m->status = time_code(m, nseg, t, kept);
	for (unsigned k = 0; k < 2; k++) {
		m->t[k] = t[k];
		m->kept[k] = kept[k];
		m->cal[k] = t[2 + k];
	}
}
