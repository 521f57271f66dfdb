/* SPDX-License-Identifier: BSD-2-Clause */
/* Frequency equivalence classes of a CFG (cfg.h).
 *
 * Classes: every block reachable from ENTRY is split into an in-node and an out-node joined
 * by an internal edge; CFG edges join out-nodes to in-nodes, and EXIT->ENTRY closes the
 * graph. Blocks that cannot reach EXIT (infinite loops) get a LOOP_EXIT edge first, and
 * dead ends (stops) an implicit edge past EXIT used only here, so the graph is strongly
 * connected. Two edges of a strongly connected graph carry the same flow in every
 * circulation exactly when they are cycle equivalent, i.e. lie on the same undirected
 * cycles. We label each edge with the set of fundamental cycles (of a BFS spanning tree)
 * it lies on, as an XOR of fixed pseudo-random 64-bit values, one per non-tree edge: equal
 * labels mean equal cycle sets (a false match has probability ~E^2/2^64). Linear time
 * plus a sort of the labels. A block's class is the class of its internal edge.
 *
 * When some indirect jump's targets are unknown, flow may re-enter the procedure anywhere,
 * so (as DCPI) every reachable block and edge gets a class of its own. */
#include "cfg_classes.h"

#include <stdlib.h>
#include <string.h>

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

struct lab { uint64_t label; uint32_t item; };

static int lab_cmp(const void *a, const void *b)
{
	const struct lab *x = a, *y = b;

	if (x->label != y->label)
		return x->label < y->label ? -1 : 1;
	return x->item < y->item ? -1 : x->item > y->item;
}

/* Classes by cycle equivalence on the split graph (see the top comment). Graph edges:
 * 0..nb-1 internal edge of block b (in-node 2b, out-node 2b+1), nb..nb+ne-1 the CFG edges,
 * then EXIT->ENTRY, then the implicit dead-end edges. */
int cfg_classify(struct cfg *g, const uint8_t *live, const uint8_t *dead)
{
	size_t nb = g->nblocks, ne = g->nedges, ndead = 0;

	for (size_t b = 0; b < nb; b++)
		ndead += dead[b];
	size_t nge = nb + ne + 1 + ndead, nv = 2 * nb;
	uint32_t *eu = malloc(nge * sizeof(*eu)), *evv = malloc(nge * sizeof(*evv));
	uint8_t *use = calloc(nge, 1), *tree = calloc(nge, 1);
	uint32_t *deg = calloc(nv + 1, sizeof(*deg)), *adj = malloc(2 * nge * sizeof(*adj));
	uint32_t *par = malloc(nv * sizeof(*par)), *order = malloc(nv * sizeof(*order));
	uint64_t *acc = calloc(nv, sizeof(*acc)), *label = calloc(nge, sizeof(*label));
	uint8_t *seen = calloc(nv, 1);
	struct lab *labs = malloc(nge * sizeof(*labs));
	int rc = -1;

	if (!eu || !evv || !use || !tree || !deg || !adj || !par || !order || !acc || !label ||
	    !seen || !labs)
		goto out;
	for (size_t b = 0; b < nb; b++) {
		eu[b] = (uint32_t)(2 * b);
		evv[b] = (uint32_t)(2 * b + 1);
		use[b] = live[b];
	}
	for (size_t e = 0; e < ne; e++) {
		eu[nb + e] = 2 * g->edges[e].from + 1;
		evv[nb + e] = 2 * g->edges[e].to;
		use[nb + e] = live[g->edges[e].from];
	}
	eu[nb + ne] = 2 * CFG_EXIT + 1;
	evv[nb + ne] = 2 * CFG_ENTRY;
	use[nb + ne] = 1;
	size_t k = nb + ne + 1;
	for (size_t b = 0; b < nb; b++) {
		if (!dead[b])
			continue;
		eu[k] = (uint32_t)(2 * b + 1);
		evv[k] = 2 * CFG_EXIT + 1;   /* past EXIT: EXIT counts real leaves only */
		use[k++] = 1;
	}
	for (size_t e = 0; e < nge; e++) {
		if (use[e]) {
			deg[eu[e] + 1]++;
			deg[evv[e] + 1]++;
		}
	}
	for (size_t v = 0; v < nv; v++)
		deg[v + 1] += deg[v];
	{
		uint32_t *fill = malloc(nv * sizeof(*fill));

		if (!fill)
			goto out;
		memcpy(fill, deg, nv * sizeof(*fill));
		for (size_t e = 0; e < nge; e++) {
			if (use[e]) {
				adj[fill[eu[e]]++] = (uint32_t)e;
				adj[fill[evv[e]]++] = (uint32_t)e;
			}
		}
		free(fill);
	}
	/* BFS spanning tree from ENTRY's in-node; par[v] = tree edge to v */
	size_t head = 0, tail = 0;
	seen[2 * CFG_ENTRY] = 1;
	par[2 * CFG_ENTRY] = UINT32_MAX;
	order[tail++] = 2 * CFG_ENTRY;
	while (head < tail) {
		uint32_t v = order[head++];

		for (uint32_t j = deg[v]; j < deg[v + 1]; j++) {
			uint32_t e = adj[j], w = eu[e] == v ? evv[e] : eu[e];

			if (!seen[w]) {
				seen[w] = 1;
				par[w] = e;
				tree[e] = 1;
				order[tail++] = w;
			}
		}
	}
	uint64_t seed = 0x6366672d636c6173ull;
	for (size_t e = 0; e < nge; e++) {
		if (!use[e] || tree[e])
			continue;
		label[e] = splitmix(&seed);
		acc[eu[e]] ^= label[e];
		acc[evv[e]] ^= label[e];
	}
	for (size_t i = tail; i-- > 1;) {
		uint32_t v = order[i], e = par[v], p = eu[e] == v ? evv[e] : eu[e];

		label[e] = acc[v];
		acc[p] ^= acc[v];
	}
	/* number classes in order of first appearance: blocks, then edges */
	size_t nl = 0;
	for (size_t e = 0; e < nb + ne; e++)
		if (use[e])
			labs[nl++] = (struct lab){ label[e], (uint32_t)e };
	qsort(labs, nl, sizeof(*labs), lab_cmp);
	uint32_t *rep = malloc((nb + ne + 1) * sizeof(*rep));
	if (!rep)
		goto out;
	for (size_t i = 0; i < nl; i++)
		rep[labs[i].item] = (i && labs[i].label == labs[i - 1].label) ?
				    rep[labs[i - 1].item] : labs[i].item;
	uint32_t *num = malloc((nb + ne + 1) * sizeof(*num));
	if (!num) {
		free(rep);
		goto out;
	}
	for (size_t e = 0; e < nb + ne; e++)
		num[e] = CFG_NO_CLASS;
	uint32_t ncls = 0;
	for (size_t e = 0; e < nb + ne; e++) {
		if (!use[e])
			continue;
		uint32_t r = g->incomplete ? (uint32_t)e : rep[e];

		if (num[r] == CFG_NO_CLASS)
			num[r] = ncls++;
		if (e < nb)
			g->blocks[e].cls = num[r];
		else
			g->edges[e - nb].cls = num[r];
	}
	g->nclasses = ncls;
	free(rep);
	free(num);
	rc = 0;
out:
	free(eu);
	free(evv);
	free(use);
	free(tree);
	free(deg);
	free(adj);
	free(par);
	free(order);
	free(acc);
	free(label);
	free(seen);
	free(labs);
	return rc;
}

