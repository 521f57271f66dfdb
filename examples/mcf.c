/* SPDX-License-Identifier: BSD-2-Clause */
/* Data-space profiling example after SPEC CPU2000's 181.mcf: a spanning tree of nodes and
 * the arcs of a network, the structures laid out as mcf lays them out. The walks touch the
 * members very unequally:
 *   refresh_potential  the tree in preorder (child, sibling and pred pointers), setting
 *                      each node's potential from its pred's and its basic arc's cost,
 *                      and its depth and time;
 *   price_out          every arc, four a step: cost, tail->potential, head->potential;
 *   check_idents       every IDENT_EVERY passes, every arc's ident.
 * main prints the members' offsets and sizes (offsetof) and how many times the walks read
 * or write each member, counted by a copy of the walks that counts (docs/data-space.md,
 * "Reports"). */
#include <bmrt.h>
#include <stddef.h>

#ifndef NODES
#define NODES 2000
#endif
#define ARCS (NODES * 16)
#ifndef PASSES
#define PASSES 120
#endif
#define IDENT_EVERY 8     /* PASSES is a multiple of it */

typedef long cost_t;
struct arc;

struct node {
	long number;
	char *ident;
	struct node *pred, *child, *sibling, *sibling_prev;
	int depth;
	int orientation;
	struct arc *basic_arc;
	struct arc *firstout, *firstin;
	cost_t potential;
	long flow;
	long mark;
	long time;
};

struct arc {
	struct node *tail, *head;
	struct arc *nextout, *nextin;
	cost_t cost;
	long flow;
	short ident;
	cost_t org_cost;
};

struct node nodes[NODES + 1];
struct arc arcs[ARCS];
long negative, idents;

enum { M_PRED, M_CHILD, M_SIBLING, M_ORIENT, M_BASIC, M_POT_R, M_POT_W, M_DEPTH_R,
       M_DEPTH_W, M_TIME, M_ACOST, M_TAIL, M_HEAD, M_IDENT, M_N };
static unsigned long counts[M_N];
static const char *const names[M_N] = {
	"node.pred", "node.child", "node.sibling", "node.orientation", "node.basic_arc",
	"node.potential(read)", "node.potential(write)", "node.depth(read)",
	"node.depth(write)", "node.time", "arc.cost", "arc.tail", "arc.head",
	"arc.ident" };

static unsigned long rng = 12345;
static unsigned long next_rand(void)
{
	rng = rng * 6364136223846793005ul + 1442695040888963407ul;
	return rng >> 33;
}

/* A random tree over nodes[1..NODES] under the root nodes[0]. */
static void build(void)
{
	for (long i = 0; i <= NODES; i++)
		nodes[i].number = i;
	for (long i = 1; i <= NODES; i++) {
		struct node *p = &nodes[next_rand() % i];
		struct node *n = &nodes[i];
		struct arc *a = &arcs[i - 1];

		n->pred = p;
		n->sibling = p->child;
		if (p->child)
			p->child->sibling_prev = n;
		p->child = n;
		n->orientation = (int)(next_rand() & 1);
		n->depth = p->depth + 1;
		a->tail = n->orientation ? n : p;
		a->head = n->orientation ? p : n;
		a->cost = (cost_t)(next_rand() % 100);
		n->basic_arc = a;
	}
	for (long i = NODES; i < ARCS; i++) {
		arcs[i].tail = &nodes[1 + next_rand() % NODES];
		arcs[i].head = &nodes[1 + next_rand() % NODES];
		arcs[i].cost = (cost_t)(next_rand() % 300);
		arcs[i].ident = (short)(i & 3);
	}
}

#define C(m) (counting ? (void)counts[m]++ : (void)0)

/* mcf's refresh_potential, its orientation test made arithmetic (no branch in the node's
 * update), and each node's depth and time kept as it goes; the copy with counting set
 * counts what it touches. */
static inline __attribute__((always_inline)) void walk_tree(struct node *root, long stamp,
							     int counting)
{
	struct node *tmp = root, *node = root->child;

	C(M_CHILD);
	while (node != root) {
		while (node) {
			struct node *pred = node->pred;
			long sign = 1 - 2 * (long)node->orientation;

			C(M_PRED), C(M_ORIENT), C(M_BASIC), C(M_ACOST), C(M_POT_R), C(M_POT_W);
			C(M_DEPTH_R), C(M_DEPTH_W), C(M_TIME);
			node->potential = pred->potential + sign * node->basic_arc->cost;
			node->depth = pred->depth + 1;
			node->time = stamp;
			tmp = node;
			C(M_CHILD);
			node = node->child;
		}
		node = tmp;
		for (;;) {
			C(M_PRED);
			if (!node->pred)
				break;
			C(M_SIBLING);
			tmp = node->sibling;
			if (tmp) {
				node = tmp;
				break;
			}
			C(M_PRED);
			node = node->pred;
		}
	}
}

/* mcf's price_out, reduced: how many arcs have a negative reduced cost, four arcs a step
 * with no branch. */
#define ARC_STEP(a) (C(M_ACOST), C(M_TAIL), C(M_HEAD), C(M_POT_R), C(M_POT_R), \
	(a)->cost - (a)->tail->potential + (a)->head->potential < 0)
static inline __attribute__((always_inline)) long walk_arcs(struct arc *a, struct arc *end,
							     int counting)
{
	long n = 0;

	for (; a < end; a += 4)
		n += ARC_STEP(a) + ARC_STEP(a + 1) + ARC_STEP(a + 2) + ARC_STEP(a + 3);
	return n;
}

/* The sum of the arcs' idents (every IDENT_EVERY passes). */
static inline __attribute__((always_inline)) long sum_idents(const struct arc *a,
							      const struct arc *end, int counting)
{
	long s = 0;

	for (; a < end; a += 8) {
		C(M_IDENT), C(M_IDENT), C(M_IDENT), C(M_IDENT);
		C(M_IDENT), C(M_IDENT), C(M_IDENT), C(M_IDENT);
		s += a[0].ident + a[1].ident + a[2].ident + a[3].ident;
		s += a[4].ident + a[5].ident + a[6].ident + a[7].ident;
	}
	return s;
}

__attribute__((noinline)) void refresh_potential(struct node *root, long stamp)
{
	walk_tree(root, stamp, 0);
}
__attribute__((noinline)) long price_out(struct arc *a, struct arc *end)
{
	return walk_arcs(a, end, 0);
}
__attribute__((noinline)) long check_idents(struct arc *a, struct arc *end)
{
	return sum_idents(a, end, 0);
}
/* One pass of each walk, counting: PASSES passes make PASSES times these accesses (the
 * idents' PASSES / IDENT_EVERY times). */
__attribute__((noinline)) static long count_pass(void)
{
	walk_tree(&nodes[0], 0, 1);
	return walk_arcs(arcs, arcs + ARCS, 1) + sum_idents(arcs, arcs + ARCS, 1);
}

#define FIELD(t, m) bm_printf("layout %s %s %lu %lu\n", #t, #m, \
			      (unsigned long)offsetof(struct t, m), \
			      (unsigned long)sizeof(((struct t *)0)->m))

int main(void)
{
	build();
	count_pass();
	for (int p = 0; p < PASSES; p++) {
		refresh_potential(&nodes[0], p);
		negative += price_out(arcs, arcs + ARCS);
		if (p % IDENT_EVERY == 0)
			idents += check_idents(arcs, arcs + ARCS);
	}
	bm_printf("size node %lu arc %lu\n", (unsigned long)sizeof(struct node),
		  (unsigned long)sizeof(struct arc));
	FIELD(node, number); FIELD(node, ident); FIELD(node, pred); FIELD(node, child);
	FIELD(node, sibling); FIELD(node, sibling_prev); FIELD(node, depth);
	FIELD(node, orientation); FIELD(node, basic_arc); FIELD(node, firstout);
	FIELD(node, firstin); FIELD(node, potential); FIELD(node, flow); FIELD(node, mark);
	FIELD(node, time);
	for (int m = 0; m < M_N; m++)
		bm_printf("count %s %lu\n", names[m],
			  counts[m] * (m == M_IDENT ? PASSES / IDENT_EVERY : PASSES));
	bm_printf("negative %ld idents %ld\n", negative, idents);
	return 0;
}
