/* SPDX-License-Identifier: BSD-2-Clause */
/* Data-space profiling example after SPEC CPU2000's 181.mcf: a spanning tree of nodes and
 * the arcs of a network, the structures laid out as mcf lays them out. Two pointer walks
 * touch the members very unequally:
 *   refresh_potential  the tree in preorder (child, sibling and pred pointers), setting
 *                      each node's potential from its pred's and its basic arc's cost;
 *   price_out          every arc: cost, tail->potential, head->potential, and ident for
 *                      the few with a negative reduced cost.
 * main prints the members' offsets and sizes (offsetof) and how many times each walk
 * reads or writes each member, counted by a copy of the walks that counts; a data-space
 * profile (bmprof report --sort type,member) should show the same proportions. */
#include <bmrt.h>
#include <stddef.h>

#ifndef NODES
#define NODES 2000
#endif
#define ARCS (NODES * 4)
#ifndef PASSES
#define PASSES 40
#endif

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
long negative;

enum { M_PRED, M_CHILD, M_SIBLING, M_ORIENT, M_BASIC, M_POT_R, M_POT_W, M_ACOST, M_TAIL,
       M_HEAD, M_IDENT, M_N };
static unsigned long counts[M_N];
static const char *const names[M_N] = {
	"node.pred", "node.child", "node.sibling", "node.orientation", "node.basic_arc",
	"node.potential(read)", "node.potential(write)", "arc.cost", "arc.tail", "arc.head",
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

/* mcf's refresh_potential; the copy with counting set counts what it touches. */
static inline __attribute__((always_inline)) void walk_tree(struct node *root, int counting)
{
	struct node *tmp = root, *node = root->child;

	C(M_CHILD);
	while (node != root) {
		while (node) {
			C(M_ORIENT), C(M_BASIC), C(M_ACOST), C(M_PRED), C(M_POT_R), C(M_POT_W);
			if (node->orientation)
				node->potential = node->basic_arc->cost + node->pred->potential;
			else
				node->potential = node->pred->potential - node->basic_arc->cost;
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

/* mcf's price_out, reduced: the arcs whose reduced cost is negative. */
static inline __attribute__((always_inline)) long walk_arcs(struct arc *a, struct arc *end,
							     int counting)
{
	long n = 0;

	for (; a < end; a++) {
		C(M_ACOST), C(M_TAIL), C(M_HEAD), C(M_POT_R), C(M_POT_R);
		cost_t red = a->cost - a->tail->potential + a->head->potential;
		if (red < 0) {
			C(M_IDENT);
			n += a->ident;
		}
	}
	return n;
}

__attribute__((noinline)) void refresh_potential(struct node *root) { walk_tree(root, 0); }
__attribute__((noinline)) long price_out(struct arc *a, struct arc *end)
{
	return walk_arcs(a, end, 0);
}
__attribute__((noinline)) static long count_pass(void)
{
	walk_tree(&nodes[0], 1);
	return walk_arcs(arcs, arcs + ARCS, 1);
}

#define FIELD(t, m) bm_printf("layout %s %s %lu %lu\n", #t, #m, \
			      (unsigned long)offsetof(struct t, m), \
			      (unsigned long)sizeof(((struct t *)0)->m))

int main(void)
{
	build();
	count_pass();
	for (int p = 0; p < PASSES; p++) {
		refresh_potential(&nodes[0]);
		negative += price_out(arcs, arcs + ARCS);
	}
	bm_printf("size node %lu arc %lu\n", (unsigned long)sizeof(struct node),
		  (unsigned long)sizeof(struct arc));
	FIELD(node, number); FIELD(node, ident); FIELD(node, pred); FIELD(node, child);
	FIELD(node, sibling); FIELD(node, sibling_prev); FIELD(node, depth);
	FIELD(node, orientation); FIELD(node, basic_arc); FIELD(node, firstout);
	FIELD(node, firstin); FIELD(node, potential); FIELD(node, flow); FIELD(node, mark);
	FIELD(node, time);
	for (int m = 0; m < M_N; m++)
		bm_printf("count %s %lu\n", names[m], counts[m] * PASSES);
	bm_printf("negative %ld\n", negative);
	return 0;
}
