/* Per instruction: executions, cycles per execution, dynamic stall, and its possible
 * culprits, "guilty until proven innocent" (DCPI §6.3). The rules and bounds are in
 * dcpi.h. */
#include "dcpi_steps.h"

#include <stdlib.h>

static int regs_meet(const struct insn_regs *a, const struct insn_regs *b)
{
	return (a->w[0] & b->w[0]) || (a->w[1] & b->w[1]);
}

/* the nearest instruction of [lo, i) writing a register in rd, or -1 */
static long last_writer(const struct insn *x, uint32_t lo, uint32_t i,
			const struct insn_regs *rd)
{
	while (i-- > lo)
		if (regs_meet(&x[i].wr, rd))
			return i;
	return -1;
}

static uint32_t last_of(const struct cfg_block *bl) { return bl->first + bl->n - 1; }

/* I-cache (unit = line size) or I-TLB (page): can instruction i miss? It can when it
 * starts or straddles a unit, or starts a block that some predecessor (or the caller)
 * reaches from another unit. */
static int may_miss_fetch(const struct cfg *g, uint32_t i, uint64_t unit)
{
	const struct insn *x = &g->insns[i];
	const struct cfg_block *bl = &g->blocks[g->block_of[i]];
	uint64_t u = x->addr / unit;

	if (x->addr % unit == 0 || (x->addr + (x->size ? x->size : 1) - 1) / unit != u)
		return 1;
	if (bl->first != i)
		return 0;
	for (uint32_t k = 0; k < bl->nin; k++) {
		const struct cfg_edge *e = &g->edges[g->in[bl->in_at + k]];
		const struct cfg_block *p = &g->blocks[e->from];

		if (p->n == 0 || g->insns[last_of(p)].addr / unit != u)
			return 1;
	}
	return 0;
}

/* Loads already counted for one instruction, so each load's samples count once. */
struct loads { long at[32]; int n; };

static void count_load(struct loads *l, long w, const uint64_t *ev, double *evsum)
{
	for (int k = 0; k < l->n; k++)
		if (l->at[k] == w)
			return;
	if (l->n < 32)
		l->at[l->n++] = w;
	*evsum += ev ? (double)ev[w] : 0;
}

/* D-cache/D-TLB: i is a load or reads a register last written by a load, in its block or
 * (for the registers its block has not written yet) at the end of a predecessor block.
 * Sums the event samples of those loads (ev may be NULL). */
static int uses_load(const struct cfg *g, uint32_t i, const uint64_t *ev, double *evsum)
{
	const struct insn *x = g->insns;
	const struct cfg_block *bl = &g->blocks[g->block_of[i]];
	struct loads seen = { .n = 0 };
	int guilty = 0;

	*evsum = 0;
	if (x[i].mem & INSN_MEM_LOAD) {
		guilty = 1;
		count_load(&seen, i, ev, evsum);
	}
	for (unsigned r = 0; r < 128; r++) {
		struct insn_regs one = { { 0, 0 } };

		if (!insn_regs_has(&x[i].rd, r))
			continue;
		insn_regs_add(&one, r);
		long w = last_writer(x, bl->first, i, &one);

		if (w >= 0) {
			if (x[w].mem & INSN_MEM_LOAD) {
				guilty = 1;
				count_load(&seen, w, ev, evsum);
			}
			continue;
		}
		for (uint32_t k = 0; k < bl->nin; k++) {
			const struct cfg_block *p = &g->blocks[g->edges[g->in[bl->in_at + k]].from];

			if (p->n == 0)
				continue;
			w = last_writer(x, p->first, p->first + p->n, &one);
			if (w >= 0 && x[w].mem & INSN_MEM_LOAD) {
				guilty = 1;
				count_load(&seen, w, ev, evsum);
			}
		}
	}
	return guilty;
}

/* Mispredict: i starts a block entered from a conditional or indirect branch (taken or
 * falling through). Sums the branches' event samples. */
static int after_branch(const struct cfg *g, uint32_t i, const uint64_t *ev, double *evsum)
{
	const struct cfg_block *bl = &g->blocks[g->block_of[i]];
	int guilty = 0;

	*evsum = 0;
	if (bl->first != i)
		return 0;
	for (uint32_t k = 0; k < bl->nin; k++) {
		const struct cfg_block *p = &g->blocks[g->edges[g->in[bl->in_at + k]].from];

		if (p->n == 0)
			continue;
		uint32_t j = last_of(p);
		unsigned f = g->insns[j].flow;

		if (f == INSN_FLOW_COND || f == INSN_FLOW_INDIRECT) {
			guilty = 1;
			*evsum += ev ? (double)ev[j] : 0;
		}
	}
	return guilty;
}

/* Unit busy: i's class has a non-pipelined unit used earlier in the block, or anywhere
 * in the block when the block can run again (the previous iteration). */
static int unit_busy(const struct cfg *g, const struct uarch *u, uint32_t i)
{
	const struct cfg_block *bl = &g->blocks[g->block_of[i]];
	unsigned c = g->insns[i].cls;

	if (!u || c >= IC__COUNT || u->cls[c].busy <= 1)
		return 0;
	uint32_t end = bl->flags & CFG_BLOCK_IN_LOOP ? bl->first + bl->n : i;

	for (uint32_t k = bl->first; k < end; k++)
		if (g->insns[k].cls == c && (k != i || bl->flags & CFG_BLOCK_IN_LOOP))
			return 1;
	return 0;
}

/* cycles per execution that ev event samples can account for at cost cycles each */
static double event_bound(const struct dcpi_event_samples *ev, double evsum, double cost,
			  double execs)
{
	if (!ev->samples || !(ev->period > 0) || cost <= 0 || !(execs > 0))
		return -1;
	return evsum * ev->period * cost / execs;
}

static void set_culprit(struct dcpi_insn *d, unsigned c, double bound)
{
	if (bound == 0)
		return;       /* ruled out by its event samples */
	d->culprits |= 1u << c;
	d->bound[c] = bound;
}

static void retired_per_class(const struct dcpi_input *in, struct dcpi_result *r)
{
	const struct cfg *g = in->cfg;

	if (!in->retired.samples || !(in->retired.period > 0))
		return;
	double *sum = calloc(g->nclasses ? g->nclasses : 1, sizeof(*sum));
	size_t *n = calloc(g->nclasses ? g->nclasses : 1, sizeof(*n));

	for (size_t i = 0; i < g->ninsns; i++) {
		uint32_t c = g->blocks[g->block_of[i]].cls;

		r->insns[i].retired_execs = (double)in->retired.samples[i] * in->retired.period;
		if (sum && n && c != CFG_NO_CLASS) {
			sum[c] += (double)in->retired.samples[i];
			n[c]++;
		}
	}
	/* pooled over the class: every instruction of a class runs equally often (without
	 * memory for the sums, each instruction keeps its own count) */
	for (size_t i = 0; sum && n && i < g->ninsns; i++) {
		uint32_t c = g->blocks[g->block_of[i]].cls;

		if (c != CFG_NO_CLASS)
			r->insns[i].retired_execs = sum[c] * in->retired.period / (double)n[c];
	}
	free(sum);
	free(n);
}

void dcpi_explain(const struct dcpi_input *in, struct dcpi_result *r)
{
	const struct cfg *g = in->cfg;
	const struct uarch *u = in->uarch;
	uint64_t line = u && u->line_size ? u->line_size : 64;

	retired_per_class(in, r);
	for (uint32_t i = 0; i < g->ninsns; i++) {
		struct dcpi_insn *d = &r->insns[i];
		const struct cfg_block *bl = &g->blocks[g->block_of[i]];
		const struct insn *x = &g->insns[i];
		double X = r->blocks[g->block_of[i]].execs, ev;

		d->execs = X;
		d->dep_on = -1;
		{
			long w = last_writer(g->insns, bl->first, i, &x->rd);

			if (w >= 0)
				d->dep_on = (int32_t)w;
		}
		if (!(X > 0))
			continue;
		d->cpe = (double)d->samples * in->period / X;
		d->dyn_stall = d->cpe - in->sched[i].M;
		if (!(d->dyn_stall > 0))
			continue;
		double mem = u ? (u->memory > u->dcache_miss ? u->memory : u->dcache_miss) : 0;
		double imem = u ? (u->memory > u->icache_miss ? u->memory : u->icache_miss) : 0;

		if (may_miss_fetch(g, i, line)) {
			ev = in->imiss.samples ? (double)in->imiss.samples[i] : 0;
			set_culprit(d, DCPI_C_ICACHE, event_bound(&in->imiss, ev, imem, X));
		}
		if (may_miss_fetch(g, i, DCPI_PAGE_SIZE)) {
			ev = in->itlb.samples ? (double)in->itlb.samples[i] : 0;
			set_culprit(d, DCPI_C_ITLB, event_bound(&in->itlb, ev,
								u ? u->itlb_miss : 0, X));
		}
		if (uses_load(g, i, in->dmiss.samples, &ev))
			set_culprit(d, DCPI_C_DCACHE, event_bound(&in->dmiss, ev, mem, X));
		if (uses_load(g, i, in->dtlb.samples, &ev))
			set_culprit(d, DCPI_C_DTLB, event_bound(&in->dtlb, ev,
								u ? u->dtlb_miss : 0, X));
		if (after_branch(g, i, in->mispredict.samples, &ev))
			set_culprit(d, DCPI_C_MISPREDICT,
				    event_bound(&in->mispredict, ev, u ? u->mispredict : 0, X));
		if (x->mem & INSN_MEM_STORE)
			set_culprit(d, DCPI_C_WRITE_BUFFER, -1);
		if (unit_busy(g, u, i))
			set_culprit(d, DCPI_C_UNIT_BUSY, u->cls[x->cls].busy);
		if (d->dep_on >= 0)
			set_culprit(d, DCPI_C_DEPENDENCY, -1);
	}
}
