/* SPDX-License-Identifier: BSD-2-Clause */
/* CFG construction and frequency equivalence classes: block boundaries and edges of small
 * hand-made procedures (if-then-else, loops, nested loops, break/continue, idle loop,
 * self-loop, tail call, jump tables, unresolved jumps, dead ends, unreachable code), and a
 * randomized check that members of a class execute equally often in simulated runs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "cfg.h"

#define BASE 0x1000u
#define OUTSIDE -2            /* a target outside the procedure */

struct spec { uint8_t flow; int tgt; };

static struct insn prog[256];

static size_t mk(const struct spec *s, size_t n)
{
	memset(prog, 0, sizeof(prog));
	for (size_t i = 0; i < n; i++) {
		prog[i].addr = BASE + 4 * i;
		prog[i].size = 4;
		prog[i].flow = s[i].flow;
		prog[i].cls = s[i].flow == INSN_FLOW_NEXT ? IC_ALU : IC_BRANCH;
		if (s[i].tgt >= 0)
			prog[i].target = BASE + 4 * (uint64_t)s[i].tgt;
		else if (s[i].tgt == OUTSIDE)
			prog[i].target = 0x9000;
	}
	return n;
}

#define N_ S(INSN_FLOW_NEXT, -1)
#define S(f, t) { (f), (t) }
#define COND(t) S(INSN_FLOW_COND, t)
#define JMP(t) S(INSN_FLOW_JUMP, t)
#define RET S(INSN_FLOW_RETURN, -1)
#define STOP S(INSN_FLOW_STOP, -1)

/* block index holding instruction i */
static uint32_t blk(const struct cfg *g, size_t i) { return g->block_of[i]; }

static uint32_t bcls(const struct cfg *g, size_t i) { return g->blocks[blk(g, i)].cls; }

/* the edge from block a to block b of the given kind, or -1 */
static long edge(const struct cfg *g, uint32_t a, uint32_t b, unsigned kind)
{
	for (uint32_t k = 0; k < g->blocks[a].nout; k++) {
		const struct cfg_edge *e = &g->edges[g->out[g->blocks[a].out_at + k]];

		if (e->to == b && e->kind == kind)
			return g->out[g->blocks[a].out_at + k];
	}
	return -1;
}

static uint32_t ecls(const struct cfg *g, uint32_t a, uint32_t b, unsigned kind)
{
	long e = edge(g, a, b, kind);

	assert_true(e >= 0);
	return g->edges[e].cls;
}

/* the in[]/out[] lists agree with the edge list */
static void check_adjacency(const struct cfg *g)
{
	size_t nin = 0, nout = 0;

	for (size_t b = 0; b < g->nblocks; b++) {
		for (uint32_t k = 0; k < g->blocks[b].nin; k++)
			assert_int_equal(g->edges[g->in[g->blocks[b].in_at + k]].to, b);
		for (uint32_t k = 0; k < g->blocks[b].nout; k++)
			assert_int_equal(g->edges[g->out[g->blocks[b].out_at + k]].from, b);
		nin += g->blocks[b].nin;
		nout += g->blocks[b].nout;
	}
	assert_int_equal(nin, g->nedges);
	assert_int_equal(nout, g->nedges);
	for (size_t e = 0; e < g->nedges; e++)
		if (!(g->blocks[g->edges[e].from].flags & CFG_BLOCK_UNREACHED))
			assert_true(g->edges[e].cls < g->nclasses);
}

/* Brute-force cycle equivalence on the split graph: items e and f are equivalent iff f is
 * a bridge once e is removed. Checks the classes of every block and edge against it. */
#define BMAXV 256
#define BMAXE 512
static uint32_t bu[BMAXE], bv[BMAXE], bcl[BMAXE];
static size_t bn;
static int disc[BMAXV], lowv[BMAXV], timer;
static uint8_t isbridge[BMAXE];

static void bridge_dfs(int v, long pe, size_t skip)
{
	disc[v] = lowv[v] = ++timer;
	for (size_t e = 0; e < bn; e++) {
		if (e == skip || (long)e == pe || (bu[e] != (uint32_t)v && bv[e] != (uint32_t)v))
			continue;
		int w = (int)(bu[e] == (uint32_t)v ? bv[e] : bu[e]);

		if (!disc[w]) {
			bridge_dfs(w, (long)e, skip);
			if (lowv[w] < lowv[v])
				lowv[v] = lowv[w];
			if (lowv[w] > disc[v])
				isbridge[e] = 1;
		} else if (disc[w] < lowv[v]) {
			lowv[v] = disc[w];
		}
	}
}

static void check_classes_brute(const struct cfg *g)
{
	if (g->incomplete)
		return;
	bn = 0;
	for (size_t b = 0; b < g->nblocks; b++) {
		if (g->blocks[b].cls == CFG_NO_CLASS)
			continue;
		bu[bn] = (uint32_t)(2 * b);
		bv[bn] = (uint32_t)(2 * b + 1);
		bcl[bn++] = g->blocks[b].cls;
		if (b != CFG_EXIT && g->blocks[b].nout == 0) {     /* a stop */
			bu[bn] = (uint32_t)(2 * b + 1);
			bv[bn] = 2 * CFG_EXIT + 1;
			bcl[bn++] = CFG_NO_CLASS;
		}
	}
	for (size_t e = 0; e < g->nedges; e++) {
		if (g->edges[e].cls == CFG_NO_CLASS)
			continue;
		bu[bn] = 2 * g->edges[e].from + 1;
		bv[bn] = 2 * g->edges[e].to;
		bcl[bn++] = g->edges[e].cls;
	}
	bu[bn] = 2 * CFG_EXIT + 1;
	bv[bn] = 2 * CFG_ENTRY;
	bcl[bn++] = CFG_NO_CLASS;
	assert_true(bn <= BMAXE && 2 * g->nblocks <= BMAXV);
	/* bridges of the whole graph are on no cycle (EXIT when nothing returns): skip them */
	static uint8_t onnone[BMAXE];
	memset(disc, 0, sizeof(disc));
	memset(isbridge, 0, sizeof(isbridge));
	timer = 0;
	bridge_dfs(2 * CFG_ENTRY, -1, BMAXE);
	memcpy(onnone, isbridge, sizeof(onnone));
	for (size_t e = 0; e < bn; e++) {
		if (bcl[e] == CFG_NO_CLASS || onnone[e])
			continue;
		memset(disc, 0, sizeof(disc));
		memset(isbridge, 0, sizeof(isbridge));
		timer = 0;
		bridge_dfs(2 * CFG_ENTRY, -1, e);
		for (size_t f = 0; f < bn; f++)
			if (f != e && bcl[f] != CFG_NO_CLASS && !onnone[f])
				assert_int_equal(isbridge[f], bcl[e] == bcl[f]);
	}
}

static void test_straight_line(void **state)
{
	static const struct spec s[] = { N_, N_, S(INSN_FLOW_CALL, OUTSIDE), N_, RET };
	struct cfg g;

	assert_int_equal(cfg_build(&g, prog, mk(s, 5)), 0);
	assert_int_equal(g.nblocks, 3);      /* calls do not end blocks */
	assert_int_equal(g.blocks[2].first, 0);
	assert_int_equal(g.blocks[2].n, 5);
	assert_int_equal(g.nedges, 2);
	assert_true(edge(&g, CFG_ENTRY, 2, CFG_EDGE_ENTRY) >= 0);
	assert_true(edge(&g, 2, CFG_EXIT, CFG_EDGE_EXIT) >= 0);
	assert_int_equal(g.nclasses, 1);
	assert_int_equal(g.blocks[CFG_ENTRY].cls, g.blocks[2].cls);
	assert_int_equal(g.blocks[CFG_EXIT].cls, g.blocks[2].cls);
	assert_int_equal(g.incomplete, 0);
	assert_int_equal(cfg_insn_at(&g, BASE + 8), 2);
	assert_int_equal(cfg_insn_at(&g, BASE + 9), -1);
	check_adjacency(&g);
	check_classes_brute(&g);
	cfg_free(&g);
	assert_int_equal(cfg_build(&g, prog, 0), -1);
}

static void test_if_then_else(void **state)
{
	/* 0: cond ->3; 1: then; 2: jmp 4; 3: else; 4: join, ret */
	static const struct spec s[] = { COND(3), N_, JMP(4), N_, RET };
	struct cfg g;

	assert_int_equal(cfg_build(&g, prog, mk(s, 5)), 0);
	assert_int_equal(g.nblocks, 6);
	uint32_t a = blk(&g, 0), t = blk(&g, 1), e = blk(&g, 3), j = blk(&g, 4);
	assert_int_equal(blk(&g, 2), t);
	assert_int_equal(g.blocks[t].n, 2);
	assert_true(a != t && t != e && e != j);
	assert_true(edge(&g, a, e, CFG_EDGE_TAKEN) >= 0);
	assert_true(edge(&g, a, t, CFG_EDGE_FALL) >= 0);
	assert_true(edge(&g, t, j, CFG_EDGE_TAKEN) >= 0);
	assert_true(edge(&g, e, j, CFG_EDGE_FALL) >= 0);
	assert_int_equal(g.nedges, 6);
	/* head and join run once per call; each arm is its own class, shared with its edges */
	assert_int_equal(bcls(&g, 0), g.blocks[CFG_ENTRY].cls);
	assert_int_equal(bcls(&g, 4), bcls(&g, 0));
	assert_int_equal(bcls(&g, 1), ecls(&g, a, t, CFG_EDGE_FALL));
	assert_int_equal(bcls(&g, 1), ecls(&g, t, j, CFG_EDGE_TAKEN));
	assert_int_equal(bcls(&g, 3), ecls(&g, a, e, CFG_EDGE_TAKEN));
	assert_int_equal(bcls(&g, 3), ecls(&g, e, j, CFG_EDGE_FALL));
	assert_int_not_equal(bcls(&g, 1), bcls(&g, 3));
	assert_int_not_equal(bcls(&g, 1), bcls(&g, 0));
	assert_int_equal(g.nclasses, 3);
	check_adjacency(&g);
	check_classes_brute(&g);
	cfg_free(&g);
}

static void test_loop(void **state)
{
	/* 0: pre; 1: body; 2: cond ->1; 3: ret */
	static const struct spec s[] = { N_, N_, COND(1), RET };
	struct cfg g;

	assert_int_equal(cfg_build(&g, prog, mk(s, 4)), 0);
	uint32_t p = blk(&g, 0), b = blk(&g, 1), x = blk(&g, 3);
	assert_int_equal(blk(&g, 2), b);
	assert_true(p != b && b != x);
	assert_true(edge(&g, b, b, CFG_EDGE_TAKEN) >= 0);
	assert_true(edge(&g, p, b, CFG_EDGE_FALL) >= 0);
	assert_int_equal(bcls(&g, 0), bcls(&g, 3));
	assert_int_equal(bcls(&g, 0), ecls(&g, b, x, CFG_EDGE_FALL));
	assert_int_not_equal(bcls(&g, 1), bcls(&g, 0));
	/* the body runs once more than its back edge */
	assert_int_not_equal(bcls(&g, 1), ecls(&g, b, b, CFG_EDGE_TAKEN));
	assert_int_equal(g.blocks[b].flags & CFG_BLOCK_NO_EXIT, 0);
	assert_true(g.blocks[b].flags & CFG_BLOCK_IN_LOOP);
	assert_int_equal(g.blocks[p].flags & CFG_BLOCK_IN_LOOP, 0);
	assert_int_equal(g.blocks[x].flags & CFG_BLOCK_IN_LOOP, 0);
	check_adjacency(&g);
	check_classes_brute(&g);
	cfg_free(&g);
}

static void test_nested_loops(void **state)
{
	/* 0: pre; 1: outer head; 2: inner body; 3: cond ->2; 4: outer tail; 5: cond ->1;
	 * 6: ret */
	static const struct spec s[] = { N_, N_, N_, COND(2), N_, COND(1), RET };
	struct cfg g;

	assert_int_equal(cfg_build(&g, prog, mk(s, 7)), 0);
	uint32_t oh = blk(&g, 1), in = blk(&g, 2), ot = blk(&g, 4);
	assert_true(oh != in && in != ot);
	/* outer head and outer tail run equally often; the inner body does not */
	assert_int_equal(bcls(&g, 1), bcls(&g, 4));
	assert_int_equal(bcls(&g, 1), ecls(&g, oh, in, CFG_EDGE_FALL));
	assert_int_equal(bcls(&g, 1), ecls(&g, in, ot, CFG_EDGE_FALL));
	assert_int_not_equal(bcls(&g, 2), bcls(&g, 1));
	assert_int_not_equal(bcls(&g, 1), bcls(&g, 0));
	assert_int_equal(bcls(&g, 0), bcls(&g, 6));
	assert_int_not_equal(ecls(&g, ot, oh, CFG_EDGE_TAKEN), bcls(&g, 1));
	assert_int_not_equal(ecls(&g, in, in, CFG_EDGE_TAKEN), bcls(&g, 2));
	check_adjacency(&g);
	check_classes_brute(&g);
	cfg_free(&g);
}

static void test_break_continue(void **state)
{
	/* 0: pre; 1: head; 2: cond ->6 (break); 3: cond ->1 (continue); 4: work;
	 * 5: jmp 1; 6: after; 7: ret */
	static const struct spec s[] = { N_, N_, COND(6), COND(1), N_, JMP(1), N_, RET };
	struct cfg g;

	assert_int_equal(cfg_build(&g, prog, mk(s, 8)), 0);
	uint32_t h = blk(&g, 1), c = blk(&g, 3), w = blk(&g, 4), a = blk(&g, 6);
	assert_int_equal(blk(&g, 2), h);
	assert_true(h != c && c != w && w != a);
	/* the loop leaves only by the break: pre, the break edge, after: one class */
	assert_int_equal(bcls(&g, 0), bcls(&g, 6));
	assert_int_equal(bcls(&g, 0), ecls(&g, h, a, CFG_EDGE_TAKEN));
	/* the continue check runs once per head execution minus the break */
	assert_int_equal(bcls(&g, 3), ecls(&g, h, c, CFG_EDGE_FALL));
	assert_int_equal(bcls(&g, 4), ecls(&g, c, w, CFG_EDGE_FALL));
	assert_int_equal(bcls(&g, 4), ecls(&g, w, h, CFG_EDGE_TAKEN));
	assert_int_not_equal(bcls(&g, 1), bcls(&g, 3));
	assert_int_not_equal(bcls(&g, 3), bcls(&g, 4));
	assert_int_not_equal(bcls(&g, 1), bcls(&g, 0));
	check_adjacency(&g);
	check_classes_brute(&g);
	cfg_free(&g);
}

static void test_idle_loop(void **state)
{
	/* 0: init; 1: pause; 2: check work; 3: cond ->1 (nothing to do); 4: do work;
	 * 5: jmp 1 -- never returns */
	static const struct spec s[] = { N_, N_, N_, COND(1), N_, JMP(1) };
	struct cfg g;

	assert_int_equal(cfg_build(&g, prog, mk(s, 6)), 0);
	uint32_t i = blk(&g, 0), l = blk(&g, 1), w = blk(&g, 4);
	assert_int_equal(blk(&g, 3), l);
	assert_true(g.blocks[l].flags & CFG_BLOCK_NO_EXIT);
	assert_true(g.blocks[w].flags & CFG_BLOCK_NO_EXIT);
	assert_true(g.blocks[w].flags & CFG_BLOCK_IN_LOOP);
	assert_true(g.blocks[l].flags & CFG_BLOCK_IN_LOOP);
	assert_int_equal(g.blocks[i].flags & CFG_BLOCK_IN_LOOP, 0);
	assert_true(g.blocks[i].flags & CFG_BLOCK_NO_EXIT);   /* nothing returns */
	/* exactly one virtual loop exit, from the block closing the loop (the last one
	 * jumping back to its head) */
	int nloop = 0;
	for (size_t e = 0; e < g.nedges; e++) {
		if (g.edges[e].kind == CFG_EDGE_LOOP_EXIT) {
			nloop++;
			assert_int_equal(g.edges[e].from, w);
			assert_int_equal(g.edges[e].to, CFG_EXIT);
		}
	}
	assert_int_equal(nloop, 1);
	assert_int_equal(bcls(&g, 0), g.blocks[CFG_ENTRY].cls);
	assert_int_equal(bcls(&g, 0), ecls(&g, w, CFG_EXIT, CFG_EDGE_LOOP_EXIT));
	assert_int_not_equal(bcls(&g, 1), bcls(&g, 0));
	assert_int_not_equal(bcls(&g, 1), bcls(&g, 4));
	assert_int_not_equal(bcls(&g, 4), ecls(&g, w, l, CFG_EDGE_TAKEN));
	check_adjacency(&g);
	check_classes_brute(&g);
	cfg_free(&g);

	/* jmp . : a one-block infinite loop */
	static const struct spec s2[] = { N_, JMP(1) };
	assert_int_equal(cfg_build(&g, prog, mk(s2, 2)), 0);
	l = blk(&g, 1);
	assert_true(edge(&g, l, l, CFG_EDGE_TAKEN) >= 0);
	assert_true(edge(&g, l, CFG_EXIT, CFG_EDGE_LOOP_EXIT) >= 0);
	assert_int_equal(bcls(&g, 0), ecls(&g, l, CFG_EXIT, CFG_EDGE_LOOP_EXIT));
	assert_int_not_equal(bcls(&g, 1), bcls(&g, 0));
	assert_int_not_equal(bcls(&g, 1), ecls(&g, l, l, CFG_EDGE_TAKEN));
	check_adjacency(&g);
	check_classes_brute(&g);
	cfg_free(&g);
}

static void test_self_loop(void **state)
{
	/* 0: pre; 1: cond ->1 (rep-like spin); 2: ret */
	static const struct spec s[] = { N_, COND(1), RET };
	struct cfg g;

	assert_int_equal(cfg_build(&g, prog, mk(s, 3)), 0);
	uint32_t l = blk(&g, 1);
	assert_int_equal(g.blocks[l].n, 1);
	assert_int_equal(g.blocks[l].nin, 2);
	assert_int_equal(g.blocks[l].nout, 2);
	assert_int_equal(bcls(&g, 0), bcls(&g, 2));
	assert_int_not_equal(bcls(&g, 1), bcls(&g, 0));
	assert_int_not_equal(bcls(&g, 1), ecls(&g, l, l, CFG_EDGE_TAKEN));
	assert_int_not_equal(ecls(&g, l, l, CFG_EDGE_TAKEN), bcls(&g, 0));
	check_adjacency(&g);
	check_classes_brute(&g);
	cfg_free(&g);
}

static void test_exits_and_dead_ends(void **state)
{
	/* 0: cond ->3; 1: ud2; 2: unreachable ret; 3: cond ->OUTSIDE (tail call);
	 * 4: jmp OUTSIDE */
	static const struct spec s[] = { COND(3), STOP, RET, COND(OUTSIDE), JMP(OUTSIDE) };
	struct cfg g;

	assert_int_equal(cfg_build(&g, prog, mk(s, 5)), 0);
	uint32_t a = blk(&g, 0), d = blk(&g, 1), u = blk(&g, 2), t = blk(&g, 3), j = blk(&g, 4);
	assert_int_equal(g.blocks[d].nout, 0);      /* no successor for a stop */
	assert_true(g.blocks[d].flags & CFG_BLOCK_NO_EXIT);
	assert_true(g.blocks[u].flags & CFG_BLOCK_UNREACHED);
	assert_int_equal(g.blocks[u].cls, CFG_NO_CLASS);
	assert_int_equal(g.edges[edge(&g, u, CFG_EXIT, CFG_EDGE_EXIT)].cls, CFG_NO_CLASS);
	assert_true(edge(&g, t, CFG_EXIT, CFG_EDGE_EXIT) >= 0);
	assert_true(edge(&g, j, CFG_EXIT, CFG_EDGE_EXIT) >= 0);
	for (size_t e = 0; e < g.nedges; e++)
		assert_int_not_equal(g.edges[e].kind, CFG_EDGE_LOOP_EXIT);
	assert_int_equal(bcls(&g, 0), g.blocks[CFG_ENTRY].cls);
	assert_int_equal(bcls(&g, 1), ecls(&g, a, d, CFG_EDGE_FALL));
	assert_int_equal(bcls(&g, 3), ecls(&g, a, t, CFG_EDGE_TAKEN));
	assert_int_equal(bcls(&g, 4), ecls(&g, t, j, CFG_EDGE_FALL));
	assert_int_not_equal(bcls(&g, 1), bcls(&g, 3));
	assert_int_not_equal(bcls(&g, 3), bcls(&g, 4));
	/* EXIT runs once per call that does not stop */
	assert_int_equal(g.blocks[CFG_EXIT].cls, bcls(&g, 3));
	check_adjacency(&g);
	check_classes_brute(&g);
	cfg_free(&g);
}

static void test_jump_table(void **state)
{
	/* 0: ind [2,3,2,OUT]; 1: unreachable; 2: case a, jmp 4; 3: case b; 4: ret */
	static const struct spec s[] = { S(INSN_FLOW_INDIRECT, -1), N_, JMP(4), N_, RET };
	static const uint64_t tab[] = { BASE + 8, BASE + 12, BASE + 8, 0x9000 };
	struct cfg g;

	mk(s, 5);
	prog[0].targets = tab;
	prog[0].ntargets = 4;
	assert_int_equal(cfg_build(&g, prog, 5), 0);
	uint32_t a = blk(&g, 0), c1 = blk(&g, 2), c2 = blk(&g, 3);
	assert_int_equal(g.incomplete, 0);
	assert_int_equal(g.blocks[a].nout, 3);     /* duplicates merged, one exit */
	assert_true(edge(&g, a, c1, CFG_EDGE_TABLE) >= 0);
	assert_true(edge(&g, a, c2, CFG_EDGE_TABLE) >= 0);
	assert_true(edge(&g, a, CFG_EXIT, CFG_EDGE_EXIT) >= 0);
	assert_true(g.blocks[blk(&g, 1)].flags & CFG_BLOCK_UNREACHED);
	assert_int_equal(bcls(&g, 2), ecls(&g, a, c1, CFG_EDGE_TABLE));
	assert_int_not_equal(bcls(&g, 2), bcls(&g, 3));
	assert_int_not_equal(bcls(&g, 4), bcls(&g, 0));
	check_adjacency(&g);
	check_classes_brute(&g);
	cfg_free(&g);

	/* no table recovered: incomplete, every block and edge its own class */
	mk(s, 5);
	assert_int_equal(cfg_build(&g, prog, 5), 0);
	assert_int_equal(g.incomplete, 1);
	assert_true(g.blocks[a].flags & CFG_BLOCK_UNRESOLVED);
	assert_true(edge(&g, a, CFG_EXIT, CFG_EDGE_EXIT) >= 0);
	size_t live = 0;
	for (size_t b = 0; b < g.nblocks; b++)
		live += g.blocks[b].cls != CFG_NO_CLASS;
	for (size_t e = 0; e < g.nedges; e++)
		live += g.edges[e].cls != CFG_NO_CLASS;
	assert_int_equal(g.nclasses, live);
	check_adjacency(&g);
	check_classes_brute(&g);
	cfg_free(&g);
}

/* Random procedures, random runs: members of a class execute equally often. */
static uint64_t rng = 12345;
static uint32_t rnd(uint32_t n)
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(rng >> 33) % n;
}

static void test_random_soundness(void **state)
{
	struct spec s[60];
	static uint64_t bc[64], ec[256];
	int checked = 0;

	for (int iter = 0; iter < 400; iter++) {
		size_t n = 8 + rnd(50);

		for (size_t i = 0; i < n; i++) {
			uint32_t r = rnd(100);

			s[i] = (struct spec)N_;
			if (r < 22)
				s[i] = (struct spec)COND((int)rnd((uint32_t)n));
			else if (r < 28)
				s[i] = (struct spec)JMP((int)rnd((uint32_t)n));
			else if (r < 32)
				s[i] = (struct spec)RET;
			else if (r < 33)
				s[i] = (struct spec)STOP;
			else if (r < 35)
				s[i] = (struct spec)COND(OUTSIDE);
			else if (r < 37)
				s[i] = (struct spec)S(INSN_FLOW_INDIRECT, -1);
		}
		struct cfg g;
		static uint64_t tabs[60][3];
		mk(s, n);
		for (size_t i = 0; i < n; i++) {
			if (prog[i].flow != INSN_FLOW_INDIRECT)
				continue;
			for (int k = 0; k < 3; k++)
				tabs[i][k] = BASE + 4 * rnd((uint32_t)n);
			prog[i].targets = tabs[i];
			prog[i].ntargets = 1 + rnd(3);
		}
		assert_int_equal(cfg_build(&g, prog, n), 0);
		check_adjacency(&g);
		check_classes_brute(&g);
		memset(bc, 0, sizeof(bc));
		memset(ec, 0, sizeof(ec));
		int runs = 0;
		for (int run = 0; run < 30; run++) {
			static uint64_t rb[64], re[256];
			uint32_t b = 2;
			int ended = 0;

			memset(rb, 0, sizeof(rb));
			memset(re, 0, sizeof(re));
			rb[CFG_ENTRY]++;
			re[g.out[g.blocks[CFG_ENTRY].out_at]]++;
			for (int step = 0; step < 2000 && !ended; step++) {
				const struct cfg_block *bl = &g.blocks[b];
				uint32_t nreal = 0, pick;

				rb[b]++;
				for (uint32_t k = 0; k < bl->nout; k++)
					nreal += g.edges[g.out[bl->out_at + k]].kind !=
						 CFG_EDGE_LOOP_EXIT;
				if (nreal == 0) {     /* a stop */
					ended = 1;
					break;
				}
				pick = rnd(nreal);
				for (uint32_t k = 0; k < bl->nout; k++) {
					uint32_t e = g.out[bl->out_at + k];

					if (g.edges[e].kind == CFG_EDGE_LOOP_EXIT)
						continue;
					if (pick-- == 0) {
						re[e]++;
						b = g.edges[e].to;
						break;
					}
				}
				if (b == CFG_EXIT) {
					rb[CFG_EXIT]++;
					ended = 1;
				}
			}
			if (!ended)
				continue;    /* cut off inside a loop: not a whole run */
			runs++;
			for (size_t k = 0; k < g.nblocks; k++)
				bc[k] += rb[k];
			for (size_t k = 0; k < g.nedges; k++)
				ec[k] += re[k];
		}
		if (runs) {
			uint64_t *cc = calloc(g.nclasses, sizeof(*cc));
			uint8_t *set = calloc(g.nclasses, 1);

			assert_non_null(cc);
			assert_non_null(set);
			for (size_t k = 0; k < g.nblocks + g.nedges; k++) {
				uint32_t c = k < g.nblocks ? g.blocks[k].cls :
					     g.edges[k - g.nblocks].cls;
				uint64_t v = k < g.nblocks ? bc[k] : ec[k - g.nblocks];

				if (c == CFG_NO_CLASS) {
					assert_int_equal(v, 0);
					continue;
				}
				if (set[c])
					assert_int_equal(cc[c], v);
				cc[c] = v;
				set[c] = 1;
				checked++;
			}
			free(cc);
			free(set);
		}
		cfg_free(&g);
	}
	assert_true(checked > 1000);
}

/* A long chain of diamonds inside a loop builds fast and gets the expected classes. */
static void test_large(void **state)
{
	static struct insn big[6004];
	size_t n = 0;

	big[n++] = (struct insn){ .flow = INSN_FLOW_NEXT };
	for (int d = 0; d < 1500; d++) {
		size_t at = n;
		big[n++] = (struct insn){ .flow = INSN_FLOW_COND };
		big[n++] = (struct insn){ .flow = INSN_FLOW_JUMP };
		big[n++] = (struct insn){ .flow = INSN_FLOW_NEXT };
		big[n++] = (struct insn){ .flow = INSN_FLOW_NEXT };
		big[at].target = BASE + 4 * (at + 2);
		big[at + 1].target = BASE + 4 * (at + 3);
	}
	big[n] = (struct insn){ .flow = INSN_FLOW_COND, .target = BASE + 4 };
	n++;
	big[n++] = (struct insn){ .flow = INSN_FLOW_RETURN };
	for (size_t i = 0; i < n; i++) {
		big[i].addr = BASE + 4 * i;
		big[i].size = 4;
	}
	struct cfg g;
	assert_int_equal(cfg_build(&g, big, n), 0);
	assert_true(g.nblocks > 4500);
	/* every join runs as often as the loop head; the arms are classes of their own */
	uint32_t head = bcls(&g, 1);
	for (int d = 0; d < 1500; d++) {
		assert_int_equal(bcls(&g, 1 + 4 * (size_t)d), head);
		assert_int_equal(bcls(&g, 4 + 4 * (size_t)d), head);
		assert_int_not_equal(bcls(&g, 2 + 4 * (size_t)d), head);
		assert_int_not_equal(bcls(&g, 3 + 4 * (size_t)d), head);
	}
	assert_int_equal(g.nclasses, 3 + 2 * 1500);
	cfg_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_straight_line),
		cmocka_unit_test(test_if_then_else),
		cmocka_unit_test(test_loop),
		cmocka_unit_test(test_nested_loops),
		cmocka_unit_test(test_break_continue),
		cmocka_unit_test(test_idle_loop),
		cmocka_unit_test(test_self_loop),
		cmocka_unit_test(test_exits_and_dead_ends),
		cmocka_unit_test(test_jump_table),
		cmocka_unit_test(test_random_soundness),
		cmocka_unit_test(test_large),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
