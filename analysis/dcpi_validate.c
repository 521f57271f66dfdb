/* SPDX-License-Identifier: BSD-2-Clause */
/* DCPI's accuracy measure of estimates against exact counts (dcpi_validate.h). */
#include "dcpi_validate.h"

static int is_branch(const struct insn *in)
{
	return in->flow == INSN_FLOW_JUMP || in->flow == INSN_FLOW_COND ||
	       in->flow == INSN_FLOW_INDIRECT || in->flow == INSN_FLOW_RETURN;
}

/* The true count of a CFG edge between real blocks: the transitions from the block's last
 * instruction to the next block's first when the last is a branch (jump, conditional,
 * indirect), else every execution of the last (it falls through, or a call returns). */
static uint64_t edge_truth(const struct truth *t, const struct cfg *g, const struct cfg_edge *e)
{
	const struct cfg_block *a = &g->blocks[e->from], *b = &g->blocks[e->to];
	const struct insn *last = &g->insns[a->first + a->n - 1];
	uint64_t to = g->insns[b->first].addr;

	if (is_branch(last))
		return truth_edge_count(t, last->addr, to);
	return truth_count(t, last->addr);
}

/* The samples behind an estimate of class c (dcpi.h's basis): 0 when it has none. */
static double basis_of(const struct dcpi_result *res, uint32_t c)
{
	return c == CFG_NO_CLASS ? 0 : res->classes[c].basis;
}

/* One estimate into a function's measure and the whole image's */
static void add(struct dcpi_accuracy *a, struct dcpi_accuracy *all, double est, double truth,
		double weight, double basis)
{
	dcpi_accuracy_add(a, est, truth, weight);
	dcpi_accuracy_add(all, est, truth, weight);
	dcpi_accuracy_add_noise(a, basis, weight);
	dcpi_accuracy_add_noise(all, basis, weight);
}

void dcpi_validate(const struct cfg *g, const struct dcpi_result *res, const struct truth *t,
		   struct dcpi_accuracy *insn, struct dcpi_accuracy *edge,
		   struct dcpi_accuracy *all_insn, struct dcpi_accuracy *all_edge)
{
	for (size_t k = 0; k < g->ninsns; k++) {
		const struct dcpi_insn *d = &res->insns[k];
		double basis;

		if (!d->samples)
			continue;
		basis = basis_of(res, g->blocks[g->block_of[k]].cls);
		add(insn, all_insn, d->execs, (double)truth_count(t, g->insns[k].addr),
		    (double)d->samples, basis);
	}
	for (size_t k = 0; k < g->nedges; k++) {
		const struct cfg_edge *e = &g->edges[k];
		uint64_t tr;

		if (e->kind != CFG_EDGE_FALL && e->kind != CFG_EDGE_TAKEN && e->kind != CFG_EDGE_TABLE)
			continue;
		if ((g->blocks[e->from].flags | g->blocks[e->to].flags) & CFG_BLOCK_VIRTUAL)
			continue;
		tr = edge_truth(t, g, e);
		if (tr)
			add(edge, all_edge, res->edges[k].execs, (double)tr, (double)tr,
			    basis_of(res, e->cls));
	}
}

size_t truth_mismatches(const struct truth *a, const struct truth *b, uint64_t lo,
			  uint64_t hi)
{
	size_t bad = 0;

	for (size_t i = 0; i < a->npcs; i++)
		if (a->pcs[i].pc >= lo && a->pcs[i].pc < hi)
			bad += a->pcs[i].count != truth_count(b, a->pcs[i].pc);
	for (size_t i = 0; i < b->npcs; i++)
		if (b->pcs[i].pc >= lo && b->pcs[i].pc < hi)
			bad += !truth_count(a, b->pcs[i].pc);
	for (size_t i = 0; i < a->nedges; i++)
		if (a->edges[i].from >= lo && a->edges[i].from < hi)
			bad += a->edges[i].count !=
				truth_edge_count(b, a->edges[i].from, a->edges[i].to);
	for (size_t i = 0; i < b->nedges; i++)
		if (b->edges[i].from >= lo && b->edges[i].from < hi)
			bad += !truth_edge_count(a, b->edges[i].from, b->edges[i].to);
	return bad;
}

