/* SPDX-License-Identifier: BSD-2-Clause */
/* Per instruction: executions, cycles per execution, dynamic stall, and its possible
 * culprits, "guilty until proven innocent" (DCPI §6.3). The rules and bounds are in
 * dcpi.h. */
#include "dcpi_steps.h"

#include <stdlib.h>

/* Register writers, found in one pass instead of a walk back per instruction (which made a
 * long block quadratic): the last writer of each register so far in the block being
 * explained, the last writer in every block, and the first instruction of each class so
 * far in the block. */
#define NREGS 128

struct writers {
	int32_t last[NREGS];            /* before the current instruction, in its block; -1 */
	int32_t *end;                   /* [nblocks][NREGS]: the block's last writer; -1 */
	int32_t first_cls[IC__COUNT];   /* before the current instruction, in its block; -1 */
};

/* The registers of a set, in increasing order, into out; how many. */
static unsigned regs_of(const struct insn_regs *set, uint8_t out[NREGS])
{
	unsigned n = 0;

	for (unsigned k = 0; k < 2; k++)
		for (uint64_t m = set->w[k]; m; m &= m - 1)
			out[n++] = (uint8_t)(k * 64 + (unsigned)__builtin_ctzll(m));
	return n;
}

static int writers_init(struct writers *wr, const struct cfg *g)
{
	wr->end = malloc((g->nblocks ? g->nblocks : 1) * NREGS * sizeof(*wr->end));
	if (!wr->end)
		return -1;
	for (size_t b = 0; b < g->nblocks; b++) {
		const struct cfg_block *bl = &g->blocks[b];
		int32_t *end = &wr->end[b * NREGS];

		uint8_t regs[NREGS];

		for (unsigned r = 0; r < NREGS; r++)
			end[r] = -1;
		for (uint32_t i = bl->first; i < bl->first + bl->n; i++)
			for (unsigned k = 0, n = regs_of(&g->insns[i].wr, regs); k < n; k++)
				end[regs[k]] = (int32_t)i;
	}
	return 0;
}

static void writers_block(struct writers *wr)
{
	for (unsigned r = 0; r < NREGS; r++)
		wr->last[r] = -1;
	for (unsigned c = 0; c < IC__COUNT; c++)
		wr->first_cls[c] = -1;
}

/* After instruction i. */
static void writers_step(struct writers *wr, const struct insn *x, uint32_t i)
{
	uint8_t regs[NREGS];

	for (unsigned k = 0, n = regs_of(&x[i].wr, regs); k < n; k++)
		wr->last[regs[k]] = (int32_t)i;
	if (x[i].cls < IC__COUNT && wr->first_cls[x[i].cls] < 0)
		wr->first_cls[x[i].cls] = (int32_t)i;
}

/* The nearest instruction before the current one in its block writing a register in rd,
 * or -1. */
static long last_writer(const struct writers *wr, const struct insn_regs *rd)
{
	uint8_t regs[NREGS];
	long w = -1;

	for (unsigned k = 0, n = regs_of(rd, regs); k < n; k++)
		if (wr->last[regs[k]] > w)
			w = wr->last[regs[k]];
	return w;
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
static int uses_load(const struct cfg *g, const struct writers *wr, uint32_t i,
		     const uint64_t *ev, double *evsum)
{
	const struct insn *x = g->insns;
	const struct cfg_block *bl = &g->blocks[g->block_of[i]];
	struct loads seen = { .n = 0 };
	uint8_t regs[NREGS];
	int guilty = 0;

	*evsum = 0;
	if (x[i].mem & INSN_MEM_LOAD) {
		guilty = 1;
		count_load(&seen, i, ev, evsum);
	}
	for (unsigned k = 0, n = regs_of(&x[i].rd, regs); k < n; k++) {
		unsigned r = regs[k];
		long w = wr->last[r];

		if (w >= 0) {
			if (x[w].mem & INSN_MEM_LOAD) {
				guilty = 1;
				count_load(&seen, w, ev, evsum);
			}
			continue;
		}
		for (uint32_t e = 0; e < bl->nin; e++) {
			uint32_t p = g->edges[g->in[bl->in_at + e]].from;

			if (g->blocks[p].n == 0)
				continue;
			w = wr->end[(size_t)p * NREGS + r];
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
 * in the block when the block can run again (the previous iteration: i itself counts). */
static int unit_busy(const struct cfg *g, const struct writers *wr, const struct uarch *u,
		     uint32_t i)
{
	const struct cfg_block *bl = &g->blocks[g->block_of[i]];
	unsigned c = g->insns[i].cls;

	if (!u || c >= IC__COUNT || u->cls[c].busy <= 1)
		return 0;
	return bl->flags & CFG_BLOCK_IN_LOOP || wr->first_cls[c] >= 0;
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

int dcpi_explain(const struct dcpi_input *in, struct dcpi_result *r)
{
	const struct cfg *g = in->cfg;
	const struct uarch *u = in->uarch;
	uint64_t line = u && u->line_size ? u->line_size : 64;
	struct writers wr;

	if (writers_init(&wr, g))
		return -1;
	retired_per_class(in, r);
	for (uint32_t i = 0; i < g->ninsns; i++) {
		struct dcpi_insn *d = &r->insns[i];
		const struct cfg_block *bl = &g->blocks[g->block_of[i]];
		const struct insn *x = &g->insns[i];
		double X = r->blocks[g->block_of[i]].execs, ev;

		if (bl->first == i)
			writers_block(&wr);
		d->execs = X;
		d->dep_on = (int32_t)last_writer(&wr, &x->rd);
		if (!(X > 0))
			goto next;
		d->cpe = (double)d->samples * in->period / X;
		d->dyn_stall = d->cpe - in->sched[i].M;
		if (!(d->dyn_stall > 0))
			goto next;
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
		if (uses_load(g, &wr, i, in->dmiss.samples, &ev))
			set_culprit(d, DCPI_C_DCACHE, event_bound(&in->dmiss, ev, mem, X));
		if (uses_load(g, &wr, i, in->dtlb.samples, &ev))
			set_culprit(d, DCPI_C_DTLB, event_bound(&in->dtlb, ev,
								u ? u->dtlb_miss : 0, X));
		if (after_branch(g, i, in->mispredict.samples, &ev))
			set_culprit(d, DCPI_C_MISPREDICT,
				    event_bound(&in->mispredict, ev, u ? u->mispredict : 0, X));
		if (x->mem & INSN_MEM_STORE)
			set_culprit(d, DCPI_C_WRITE_BUFFER, -1);
		if (unit_busy(g, &wr, u, i))
			set_culprit(d, DCPI_C_UNIT_BUSY, u->cls[x->cls].busy);
		if (d->dep_on >= 0)
			set_culprit(d, DCPI_C_DEPENDENCY, -1);
next:
		writers_step(&wr, g->insns, i);
	}
	free(wr.end);
	return 0;
}
