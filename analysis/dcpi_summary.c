/* SPDX-License-Identifier: BSD-2-Clause */
/* Per-block CPIs and the procedure's summary (DCPI §6.3): where the cycles went, with
 * each dynamic cause as a low-high range. The definitions are in dcpi.h. */
#include "dcpi_steps.h"

static void block_cpis(const struct dcpi_input *in, struct dcpi_result *r)
{
	const struct cfg *g = in->cfg;

	for (size_t b = 0; b < g->nblocks; b++) {
		const struct cfg_block *bl = &g->blocks[b];
		struct dcpi_block *db = &r->blocks[b];
		double m = 0, cpe = 0;
		int known = 1;

		if (bl->n == 0)
			continue;
		for (uint32_t i = bl->first; i < bl->first + bl->n; i++) {
			db->samples += r->insns[i].samples;
			m += in->sched[i].M;
			if (r->insns[i].cpe < 0)
				known = 0;
			cpe += r->insns[i].cpe;
		}
		db->best_cpi = m / bl->n;
		db->actual_cpi = known ? cpe / bl->n : -1;
	}
}

/* Splits dynamic stall D of one instruction among its culprits. */
static void split_stall(const struct dcpi_insn *d, double D, struct dcpi_summary *s)
{
	double cap[DCPI_C__COUNT], total = 0;
	int unbounded = 0;

	if (!d->culprits) {
		s->unexplained_stall += D;
		return;
	}
	for (int c = 0; c < DCPI_C__COUNT; c++) {
		if (!(d->culprits & 1u << c))
			continue;
		cap[c] = D;
		if (d->bound[c] >= 0 && d->bound[c] * d->execs < D)
			cap[c] = d->bound[c] * d->execs;
		else if (d->bound[c] < 0)
			unbounded = 1;
		total += cap[c];
	}
	for (int c = 0; c < DCPI_C__COUNT; c++) {
		if (!(d->culprits & 1u << c))
			continue;
		double others = total - cap[c];

		s->dyn_hi[c] += cap[c];
		if (D > others)
			s->dyn_lo[c] += D - others;
	}
	if (!unbounded && D > total)
		s->unexplained_stall += D - total;
}

void dcpi_summarize(const struct dcpi_input *in, struct dcpi_result *r)
{
	const struct cfg *g = in->cfg;
	struct dcpi_summary *s = &r->sum;
	double wm = 0, wcpe = 0;

	block_cpis(in, r);
	for (size_t i = 0; i < g->ninsns; i++) {
		const struct dcpi_insn *d = &r->insns[i];
		const struct sched_insn *si = &in->sched[i];
		double X = d->execs;

		s->samples += d->samples;
		if (!(X > 0) || d->cpe < 0)
			continue;
		s->insn_execs += X;
		wm += X * si->M;
		wcpe += X * d->cpe;
		if (si->M > 0) {
			unsigned why = si->reason < SCHED__COUNT ? si->reason : SCHED_NONE;

			s->execution += X * (si->M - si->stall);
			s->static_stall[why] += X * si->stall;
			if (d->dyn_stall < 0)
				s->unexplained_gain += -d->dyn_stall * X;
		}
		if (d->dyn_stall > 0) {
			double D = d->dyn_stall * X;

			s->dyn_total += D;
			split_stall(d, D, s);
		}
	}
	s->cycles = (double)s->samples * in->period;
	double st = 0;

	for (int k = 0; k < SCHED__COUNT; k++)
		st += s->static_stall[k];

	s->sampling_error = s->cycles - (s->execution + st + s->dyn_total - s->unexplained_gain);
	s->best_cpi = s->insn_execs > 0 ? wm / s->insn_execs : -1;
	s->actual_cpi = s->insn_execs > 0 ? wcpe / s->insn_execs : -1;
}
