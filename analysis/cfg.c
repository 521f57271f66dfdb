/* SPDX-License-Identifier: BSD-2-Clause */
/* Control-flow graph of one procedure (cfg.h): blocks, edges, reachability, the virtual
 * exits of infinite loops; the classes are computed in cfg_classes.c. */
#include "cfg.h"
#include "cfg_classes.h"

#include <stdlib.h>
#include <string.h>

long cfg_insn_at(const struct cfg *g, uint64_t addr)
{
	return insn_find(g->insns, g->ninsns, addr);
}

void cfg_free(struct cfg *g)
{
	free(g->blocks);
	free(g->edges);
	free(g->in);
	free(g->out);
	free(g->block_of);
	memset(g, 0, sizeof(*g));
}

static int ends_block(unsigned flow)
{
	return flow == INSN_FLOW_JUMP || flow == INSN_FLOW_COND || flow == INSN_FLOW_INDIRECT ||
	       flow == INSN_FLOW_RETURN || flow == INSN_FLOW_STOP;
}

struct edge_vec {
	struct cfg_edge *e;
	size_t n, cap;
};

static int add_edge(struct edge_vec *v, uint32_t from, uint32_t to, unsigned kind)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 16;
		struct cfg_edge *e = realloc(v->e, cap * sizeof(*e));

		if (!e)
			return -1;
		v->e = e;
		v->cap = cap;
	}
	v->e[v->n++] = (struct cfg_edge){ .from = from, .to = to, .kind = (uint8_t)kind,
					  .cls = CFG_NO_CLASS };
	return 0;
}

/* The block a control transfer to addr lands on, or CFG_EXIT when it leaves the
 * procedure (or lands inside an instruction). */
static uint32_t block_at(const struct cfg *g, uint64_t addr)
{
	long i = cfg_insn_at(g, addr);

	return i < 0 ? CFG_EXIT : g->block_of[i];
}

static int find_leaders(const struct insn *insns, size_t n, const struct cfg *g, uint8_t *lead)
{
	lead[0] = 1;
	for (size_t i = 0; i < n; i++) {
		const struct insn *x = &insns[i];
		long t;

		if (ends_block(x->flow) && i + 1 < n)
			lead[i + 1] = 1;
		if (x->flow == INSN_FLOW_JUMP || x->flow == INSN_FLOW_COND) {
			t = cfg_insn_at(g, x->target);
			if (t >= 0)
				lead[t] = 1;
		}
		if (x->flow == INSN_FLOW_INDIRECT && x->targets) {
			for (uint32_t k = 0; k < x->ntargets; k++) {
				t = cfg_insn_at(g, x->targets[k]);
				if (t >= 0)
					lead[t] = 1;
			}
		}
	}
	return 0;
}

static int add_block_edges(struct cfg *g, struct edge_vec *ev, uint32_t b)
{
	const struct cfg_block *bl = &g->blocks[b];
	const struct insn *x = &g->insns[bl->first + bl->n - 1];
	uint32_t next = b + 1 < g->nblocks ? b + 1 : CFG_EXIT;
	uint32_t to;
	int rc = 0;

	switch (x->flow) {
	case INSN_FLOW_JUMP:
		to = block_at(g, x->target);
		return add_edge(ev, b, to, to == CFG_EXIT ? CFG_EDGE_EXIT : CFG_EDGE_TAKEN);
	case INSN_FLOW_COND:
		to = block_at(g, x->target);
		rc |= add_edge(ev, b, to, to == CFG_EXIT ? CFG_EDGE_EXIT : CFG_EDGE_TAKEN);
		rc |= add_edge(ev, b, next, next == CFG_EXIT ? CFG_EDGE_EXIT : CFG_EDGE_FALL);
		return rc;
	case INSN_FLOW_INDIRECT: {
		size_t first = ev->n;
		int out = 0;

		if (!x->targets || x->ntargets == 0) {
			g->blocks[b].flags |= CFG_BLOCK_UNRESOLVED;
			g->incomplete = 1;
			return add_edge(ev, b, CFG_EXIT, CFG_EDGE_EXIT);
		}
		for (uint32_t k = 0; k < x->ntargets; k++) {
			int dup = 0;

			to = block_at(g, x->targets[k]);
			if (to == CFG_EXIT) {
				out = 1;
				continue;
			}
			for (size_t j = first; j < ev->n; j++)
				dup |= ev->e[j].to == to;
			if (!dup)
				rc |= add_edge(ev, b, to, CFG_EDGE_TABLE);
		}
		if (out)
			rc |= add_edge(ev, b, CFG_EXIT, CFG_EDGE_EXIT);
		return rc;
	}
	case INSN_FLOW_RETURN:
		return add_edge(ev, b, CFG_EXIT, CFG_EDGE_EXIT);
	case INSN_FLOW_STOP:
		return 0;
	default:   /* NEXT, CALL: on to the next block, or off the end of the procedure */
		return add_edge(ev, b, next, next == CFG_EXIT ? CFG_EDGE_EXIT : CFG_EDGE_FALL);
	}
}

/* in[]/out[] adjacency from the edge list */
static int index_edges(struct cfg *g)
{
	uint32_t *in = malloc((g->nedges + 1) * sizeof(*in));
	uint32_t *out = malloc((g->nedges + 1) * sizeof(*out));

	if (!in || !out) {
		free(in);
		free(out);
		return -1;
	}
	free(g->in);
	free(g->out);
	g->in = in;
	g->out = out;
	for (size_t b = 0; b < g->nblocks; b++)
		g->blocks[b].nin = g->blocks[b].nout = 0;
	for (size_t e = 0; e < g->nedges; e++) {
		g->blocks[g->edges[e].from].nout++;
		g->blocks[g->edges[e].to].nin++;
	}
	uint32_t ai = 0, ao = 0;
	for (size_t b = 0; b < g->nblocks; b++) {
		g->blocks[b].in_at = ai;
		g->blocks[b].out_at = ao;
		ai += g->blocks[b].nin;
		ao += g->blocks[b].nout;
		g->blocks[b].nin = g->blocks[b].nout = 0;
	}
	for (size_t e = 0; e < g->nedges; e++) {
		struct cfg_block *f = &g->blocks[g->edges[e].from];
		struct cfg_block *t = &g->blocks[g->edges[e].to];

		out[f->out_at + f->nout++] = (uint32_t)e;
		in[t->in_at + t->nin++] = (uint32_t)e;
	}
	return 0;
}

/* Mark blocks reachable from start along out-edges (dir 0) or in-edges (dir 1). */
static void reach(const struct cfg *g, uint32_t start, int dir, uint8_t *seen, uint32_t *stack)
{
	size_t sp = 0;

	seen[start] = 1;
	stack[sp++] = start;
	while (sp) {
		const struct cfg_block *b = &g->blocks[stack[--sp]];
		uint32_t n = dir ? b->nin : b->nout;

		for (uint32_t k = 0; k < n; k++) {
			const struct cfg_edge *e = &g->edges[dir ? g->in[b->in_at + k] :
								  g->out[b->out_at + k]];
			uint32_t v = dir ? e->from : e->to;

			if (!seen[v]) {
				seen[v] = 1;
				stack[sp++] = v;
			}
		}
	}
}

/* Marks blocks on a cycle (CFG_BLOCK_IN_LOOP), and for each bottom strongly connected
 * component among the reachable blocks that cannot reach EXIT adds a LOOP_EXIT edge from
 * a block that closes its loop (the source of an edge back to the component's first block
 * in DFS order, the latest such), or for a dead end marks the block itself.
 * dead[b] = 1 marks dead ends (no edge is added for them to the CFG). Iterative Tarjan. */
static int loop_closers(struct cfg *g, const uint8_t *live, const uint8_t *to_exit,
			struct edge_vec *ev, uint8_t *dead)
{
	size_t nb = g->nblocks;
	uint32_t *idx = malloc(nb * sizeof(*idx)), *low = malloc(nb * sizeof(*low));
	uint32_t *stk = malloc(nb * sizeof(*stk)), *cs = malloc(nb * sizeof(*cs));
	uint32_t *ck = malloc(nb * sizeof(*ck)), *comp = malloc(nb * sizeof(*comp));
	uint8_t *on = calloc(nb, 1);
	/* added after the search: adding reallocates the edges it walks */
	uint32_t *closers = malloc(nb * sizeof(*closers)), nclosers = 0;
	int rc = -1;

	if (!idx || !low || !stk || !cs || !ck || !comp || !on || !closers)
		goto out;
	for (size_t b = 0; b < nb; b++)
		idx[b] = comp[b] = UINT32_MAX;
	uint32_t counter = 0, sp = 0;
	for (uint32_t root = 0; root < nb; root++) {
		if (!live[root] || idx[root] != UINT32_MAX)
			continue;
		uint32_t csp = 0;

		cs[csp] = root;
		ck[csp++] = 0;
		idx[root] = low[root] = counter++;
		stk[sp++] = root;
		on[root] = 1;
		while (csp) {
			uint32_t v = cs[csp - 1];
			const struct cfg_block *bv = &g->blocks[v];

			if (ck[csp - 1] < bv->nout) {
				uint32_t w = g->edges[g->out[bv->out_at + ck[csp - 1]++]].to;

				if (idx[w] == UINT32_MAX) {
					idx[w] = low[w] = counter++;
					stk[sp++] = w;
					on[w] = 1;
					cs[csp] = w;
					ck[csp++] = 0;
				} else if (on[w] && idx[w] < low[v]) {
					low[v] = idx[w];
				}
				continue;
			}
			csp--;
			if (csp && low[v] < low[cs[csp - 1]])
				low[cs[csp - 1]] = low[v];
			if (low[v] != idx[v])
				continue;
			/* v heads a component: pop it and see whether it is a bottom one */
			uint32_t top = sp;
			do {
				sp--;
				on[stk[sp]] = 0;
				comp[stk[sp]] = v;
			} while (stk[sp] != v);
			int bottom = 1;
			uint32_t closer = UINT32_MAX, best = 0;
			for (uint32_t k = sp; k < top; k++) {
				const struct cfg_block *bb = &g->blocks[stk[k]];

				for (uint32_t j = 0; j < bb->nout; j++) {
					uint32_t w = g->edges[g->out[bb->out_at + j]].to;

					if (comp[w] != v)
						bottom = 0;
					else if (w == v && idx[stk[k]] >= best) {
						best = idx[stk[k]];
						closer = stk[k];
					}
				}
			}
			if (closer != UINT32_MAX)
				for (uint32_t k = sp; k < top; k++)
					g->blocks[stk[k]].flags |= CFG_BLOCK_IN_LOOP;
			if (!bottom || to_exit[v])
				continue;
			if (closer == UINT32_MAX)
				dead[v] = 1;
			else
				closers[nclosers++] = closer;
		}
	}
	for (uint32_t k = 0; k < nclosers; k++)
		if (add_edge(ev, closers[k], CFG_EXIT, CFG_EDGE_LOOP_EXIT))
			goto out;
	rc = 0;
out:
	free(closers);
	free(idx);
	free(low);
	free(stk);
	free(cs);
	free(ck);
	free(comp);
	free(on);
	return rc;
}

int cfg_build(struct cfg *g, const struct insn *insns, size_t n)
{
	struct edge_vec ev = { 0 };
	uint8_t *lead = NULL, *live = NULL, *to_exit = NULL, *dead = NULL;
	uint32_t *stack = NULL;

	memset(g, 0, sizeof(*g));
	if (!insns || n == 0)
		return -1;
	g->insns = insns;
	g->ninsns = n;
	lead = calloc(n, 1);
	g->block_of = malloc(n * sizeof(*g->block_of));
	if (!lead || !g->block_of)
		goto fail;
	find_leaders(insns, n, g, lead);
	size_t nb = 2;
	for (size_t i = 0; i < n; i++)
		nb += lead[i];
	g->blocks = calloc(nb, sizeof(*g->blocks));
	if (!g->blocks)
		goto fail;
	g->nblocks = nb;
	g->blocks[CFG_ENTRY].flags = g->blocks[CFG_EXIT].flags = CFG_BLOCK_VIRTUAL;
	uint32_t b = 1;
	for (size_t i = 0; i < n; i++) {
		if (lead[i]) {
			b++;
			g->blocks[b].first = (uint32_t)i;
		}
		g->blocks[b].n++;
		g->block_of[i] = b;
	}
	if (add_edge(&ev, CFG_ENTRY, 2, CFG_EDGE_ENTRY))
		goto fail;
	for (b = 2; b < nb; b++)
		if (add_block_edges(g, &ev, b))
			goto fail;
	g->edges = ev.e;
	g->nedges = ev.n;
	if (index_edges(g))
		goto fail;

	live = calloc(nb, 1);
	to_exit = calloc(nb, 1);
	dead = calloc(nb, 1);
	stack = malloc(nb * sizeof(*stack));
	if (!live || !to_exit || !dead || !stack)
		goto fail;
	reach(g, CFG_ENTRY, 0, live, stack);
	reach(g, CFG_EXIT, 1, to_exit, stack);
	live[CFG_EXIT] = 1;
	for (b = 0; b < nb; b++) {
		if (!live[b])
			g->blocks[b].flags |= CFG_BLOCK_UNREACHED;
		else if (!to_exit[b])
			g->blocks[b].flags |= CFG_BLOCK_NO_EXIT;
	}
	size_t before = ev.n;
	if (loop_closers(g, live, to_exit, &ev, dead))
		goto fail;
	g->edges = ev.e;
	g->nedges = ev.n;
	if (ev.n != before && index_edges(g))
		goto fail;
	if (cfg_classify(g, live, dead))
		goto fail;
	for (b = 0; b < nb; b++)
		if (!live[b])
			g->blocks[b].cls = CFG_NO_CLASS;
	free(lead);
	free(live);
	free(to_exit);
	free(dead);
	free(stack);
	return 0;
fail:
	g->edges = ev.e;   /* the live buffer, whatever was assigned before */
	free(lead);
	free(live);
	free(to_exit);
	free(dead);
	free(stack);
	cfg_free(g);
	return -1;
}
