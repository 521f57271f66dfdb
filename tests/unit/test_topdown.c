/* SPDX-License-Identifier: BSD-2-Clause */
/* Top-Down: the formula language, the tables, family selection, and the tree computed from
 * fixture counts per CPU family, with the arithmetic written out: a tree whose Memory and
 * Core Bound do not sum to Backend Bound, a negative node, a multiplexed run whose
 * subtraction takes both operands from one group, and QEMU's PMU where most events are
 * missing (missing, not zero). */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "profile.h"
#include "topdown.h"

#define EPS 1e-9

/* ---- the formula language ---- */

struct vars {
	const char *name[8];
	double v[8];
	int n;
	char subs[256];     /* "name:in_sub " per resolution */
};

static void resolve(void *ctx, const char *name, unsigned len, int in_sub, struct td_value *out)
{
	struct vars *vs = ctx;
	size_t l = strlen(vs->subs);

	snprintf(vs->subs + l, sizeof vs->subs - l, "%.*s:%d ", (int)len, name, in_sub);
	for (int i = 0; i < vs->n; i++)
		if (strlen(vs->name[i]) == len && !strncmp(vs->name[i], name, len)) {
			out->v = vs->v[i];
			return;
		}
	out->missing = 1;
	snprintf(out->why, sizeof out->why, "%.*s missing", (int)len, name);
}

static struct td_value ev(const char *text, struct vars *vs)
{
	static struct td_expr e;
	char err[200];

	if (td_expr_parse(&e, text, err, sizeof err))
		fail_msg("'%s': %s", text, err);
	vs->subs[0] = 0;
	return td_expr_eval(&e, resolve, vs);
}

static void test_expr(void **state)
{
	struct vars vs = { { "A", "B.C:c4", "#W", "Z" }, { 10, 4, 5, 0 }, 4, "" };
	struct td_value r;
	struct td_expr e;
	char err[200];

	(void)state;
	assert_true(fabs(ev("1 + 2 * 3", &vs).v - 7) < EPS);
	assert_true(fabs(ev("(1 + 2) * 3", &vs).v - 9) < EPS);
	assert_true(fabs(ev("A - B.C:c4 - 1", &vs).v - 5) < EPS);       /* left to right */
	assert_true(fabs(ev("A / B.C:c4 / 2", &vs).v - 1.25) < EPS);
	assert_true(fabs(ev("-A + #W", &vs).v - -5) < EPS);
	assert_true(fabs(ev("min(A, #W) + max(A, #W)", &vs).v - 15) < EPS);
	/* signed: no clamping */
	assert_true(fabs(ev("B.C:c4 - A", &vs).v - -6) < EPS);
	/* missing propagates, with the name; ?? takes the alternative */
	r = ev("A + NOPE * 2", &vs);
	assert_true(r.missing);
	assert_string_equal(r.why, "NOPE missing");
	r = ev("NOPE / A ?? A / #W", &vs);
	assert_false(r.missing);
	assert_true(fabs(r.v - 2) < EPS);
	/* a division by zero is missing, and ?? passes it over too */
	r = ev("A / Z", &vs);
	assert_true(r.missing);
	assert_non_null(strstr(r.why, "divisor is 0"));
	assert_true(fabs(ev("A / Z ?? 3", &vs).v - 3) < EPS);
	/* names under a subtraction are marked */
	ev("A * (B.C:c4 - #W) + Z", &vs);
	assert_string_equal(vs.subs, "A:0 B.C:c4:1 #W:1 Z:0 ");
	ev("1 - (A + B.C:c4)", &vs);
	assert_string_equal(vs.subs, "A:1 B.C:c4:1 ");
	/* bad formulas */
	assert_int_equal(td_expr_parse(&e, "A +", err, sizeof err), -1);
	assert_non_null(strstr(err, "unexpected end"));
	assert_int_equal(td_expr_parse(&e, "(A", err, sizeof err), -1);
	assert_int_equal(td_expr_parse(&e, "A B", err, sizeof err), -1);
	assert_int_equal(td_expr_parse(&e, "min(A)", err, sizeof err), -1);
	assert_int_equal(td_expr_parse(&e, "A $ B", err, sizeof err), -1);
}

/* ---- the tables ---- */

static void test_tables(void **state)
{
	static struct td_model m;
	char err[300];
	const char *fams[] = { "intel-ivb", "intel-skl", "intel-icl", "intel-spr", "amd-zen4",
			       "amd-zen5", "arm-pmuv3" };

	(void)state;
	for (unsigned f = 0; f < sizeof fams / sizeof fams[0]; f++) {
		unsigned l1 = 0;

		if (topdown_select(&m, NULL, NULL, 0, 0, fams[f], err, sizeof err))
			fail_msg("%s: %s", fams[f], err);
		for (unsigned i = 0; i < m.nmetrics; i++) {
			l1 += m.metric[i]->level == 1;
			/* every node needs some event or names other nodes */
			assert_true(m.metric[i]->expr[0]);
		}
		assert_int_equal(l1, 4);   /* the four level-1 categories everywhere */
		assert_true(m.nevents > 0 && m.nevents <= 64);
	}
	/* the IVB row the paper's Table 7 and perfmon IVB V24 give */
	assert_int_equal(topdown_select(&m, NULL, NULL, 0, 0, "intel-ivb", err, sizeof err), 0);
	int k = topdown_event_index(&m, "CYCLE_ACTIVITY.STALLS_L1D_MISS", 30);
	assert_true(k >= 0);
	assert_int_equal(m.event[k]->code, 0xc000ca3);
	assert_int_equal(m.event[k]->counters, 1u << 2);
	assert_int_equal(topdown_select(&m, NULL, NULL, 0, 0, "nope", err, sizeof err), -1);
	assert_non_null(strstr(err, "intel-skl"));
}

static void test_select(void **state)
{
	static struct td_model m;
	char err[300];

	(void)state;
	assert_int_equal(topdown_select(&m, "x86_64", "GenuineIntel", 6, 0x3a, NULL, err,
					sizeof err), 0);
	assert_string_equal(m.family, "intel-ivb");
	assert_true(m.width == 4 && m.gp == 4);
	assert_int_equal(topdown_select(&m, "x86_64", "GenuineIntel", 6, 0x55, NULL, err,
					sizeof err), 0);
	assert_string_equal(m.family, "intel-skl");
	assert_int_equal(topdown_select(&m, "x86_64", "GenuineIntel", 6, 0xcf, NULL, err,
					sizeof err), 0);
	assert_string_equal(m.family, "intel-spr");
	assert_true(m.width == 6);
	assert_int_equal(topdown_select(&m, "x86_64", "AuthenticAMD", 0x19, 0x61, NULL, err,
					sizeof err), 0);
	assert_string_equal(m.family, "amd-zen4");
	assert_int_equal(topdown_select(&m, "x86_64", "AuthenticAMD", 0x1a, 0x02, NULL, err,
					sizeof err), 0);
	assert_true(m.width == 8);
	assert_int_equal(topdown_select(&m, "aarch64", "ARM", 0x41, 0xd40, NULL, err,
					sizeof err), 0);
	assert_true(m.width == 8);
	assert_int_equal(topdown_select(&m, "aarch64", "software", 0, 0x51, NULL, err,
					sizeof err), 0);
	assert_string_equal(m.family, "arm-pmuv3");
	assert_true(m.width == 0);
	/* a family by name takes its row for the CPU (the width), else its first row */
	assert_int_equal(topdown_select(&m, "aarch64", "ARM", 0x41, 0xd40, "arm-pmuv3", err,
					sizeof err), 0);
	assert_true(m.width == 8);
	assert_int_equal(topdown_select(&m, "aarch64", "software", 0, 0x51, "arm-pmuv3", err,
					sizeof err), 0);
	assert_true(m.width == 0);
	assert_int_equal(topdown_select(&m, "x86_64", "AuthenticAMD", 0xf, 0x6b, "intel-icl", err,
					sizeof err), 0);
	assert_true(m.width == 5 && !strcmp(m.family, "intel-icl"));
	/* Zen 3 (family 19h model 21h) and a model bmprof has no table for */
	assert_int_equal(topdown_select(&m, "x86_64", "AuthenticAMD", 0x19, 0x21, NULL, err,
					sizeof err), -1);
	assert_non_null(strstr(err, "no Top-Down formulas for this CPU"));
	assert_int_equal(topdown_select(&m, "x86_64", "GenuineIntel", 6, 0x1a, NULL, err,
					sizeof err), -1);
}

/* ---- trees from fixture counts ---- */

static void add(struct td_counts *c, const char *ev, int group, double v, double en, double ru)
{
	struct td_count *x = &c->c[c->n++];

	memset(x, 0, sizeof *x);
	snprintf(x->event, sizeof x->event, "%s", ev);
	x->group = group;
	x->state = TD_COUNTED;
	x->value = v;
	x->enabled = en;
	x->running = ru;
}

static void add_missing(struct td_counts *c, const char *ev, int state, const char *why)
{
	struct td_count *x = &c->c[c->n++];

	memset(x, 0, sizeof *x);
	snprintf(x->event, sizeof x->event, "%s", ev);
	x->group = -1;
	x->state = state;
	snprintf(x->why, sizeof x->why, "%s", why);
}

static const struct td_node *node(const struct td_tree *t, const char *name)
{
	for (unsigned i = 0; i < t->n; i++)
		if (!strcmp(t->node[i].def->node, name))
			return &t->node[i];
	fail_msg("no node %s in the tree", name);
	return NULL;
}

/* The node's value, flag and visibility. */
static void want(const struct td_tree *t, const char *name, double v, int flagged, int shown)
{
	const struct td_node *n = node(t, name);

	if (n->state != TD_NODE_OK)
		fail_msg("%s missing: %s", name, n->why);
	if (fabs(n->value - v) > 1e-9)
		fail_msg("%s = %.12f, want %.12f", name, n->value, v);
	if (n->flagged != flagged || n->shown != shown)
		fail_msg("%s flagged %d shown %d, want %d %d", name, n->flagged, n->shown, flagged,
			 shown);
}

static void tree_of(const char *family, const struct td_counts *c, unsigned level,
		    struct td_tree *t)
{
	static struct td_model m;
	char err[300];

	if (topdown_select(&m, NULL, NULL, 0, 0, family, err, sizeof err))
		fail_msg("%s", err);
	if (topdown_compute(&m, c, level, t, err, sizeof err))
		fail_msg("%s", err);
}

/* Skylake, the paper's formulas, one group (counted all the time). */
static void test_tree_skylake(void **state)
{
	static struct td_counts c;
	static struct td_tree t;

	(void)state;
	c.n = 0;
	add(&c, "CPU_CLK_UNHALTED.THREAD", -1, 1000000, 0, 0);          /* Slots = 4,000,000 */
	add(&c, "IDQ_UOPS_NOT_DELIVERED.CORE", -1, 400000, 0, 0);
	add(&c, "UOPS_ISSUED.ANY", -1, 1300000, 0, 0);
	add(&c, "UOPS_RETIRED.RETIRE_SLOTS", -1, 1200000, 0, 0);
	add(&c, "INT_MISC.RECOVERY_CYCLES", -1, 25000, 0, 0);
	add(&c, "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", -1, 50000, 0, 0);
	add(&c, "BR_MISP_RETIRED.ALL_BRANCHES", -1, 900, 0, 0);
	add(&c, "MACHINE_CLEARS.COUNT", -1, 100, 0, 0);
	add(&c, "IDQ.MS_UOPS", -1, 130000, 0, 0);
	add(&c, "CYCLE_ACTIVITY.STALLS_MEM_ANY", -1, 300000, 0, 0);
	add(&c, "RESOURCE_STALLS.SB", -1, 20000, 0, 0);
	add(&c, "CYCLE_ACTIVITY.STALLS_TOTAL", -1, 450000, 0, 0);
	add(&c, "RS_EVENTS.EMPTY_CYCLES", -1, 50000, 0, 0);
	add(&c, "UOPS_EXECUTED.CYCLES_GE_1_UOP_EXEC", -1, 600000, 0, 0);
	add(&c, "UOPS_EXECUTED.CYCLES_GE_2_UOPS_EXEC", -1, 500000, 0, 0);
	add(&c, "CYCLE_ACTIVITY.STALLS_L1D_MISS", -1, 180000, 0, 0);
	add(&c, "CYCLE_ACTIVITY.STALLS_L2_MISS", -1, 190000, 0, 0);      /* > L1D miss: erratum */
	add(&c, "MEM_LOAD_RETIRED.L3_HIT", -1, 7000, 0, 0);
	add(&c, "MEM_LOAD_RETIRED.L3_MISS", -1, 1000, 0, 0);
	add(&c, "ARITH.DIVIDER_ACTIVE", -1, 30000, 0, 0);
	tree_of("intel-skl", &c, 3, &t);

	want(&t, "Frontend_Bound", 400000.0 / 4e6, 0, 1);                       /* 0.10 */
	want(&t, "Bad_Speculation", (1.3e6 - 1.2e6 + 4 * 25000) / 4e6, 0, 1);   /* 0.05 */
	want(&t, "Retiring", 1.2e6 / 4e6, 0, 1);                                /* 0.30 */
	want(&t, "Backend_Bound", 1 - (0.10 + 0.05 + 0.30), 1, 1);              /* 0.55 > 0.2 */
	assert_false(t.bad_spec_flagged);
	/* under unflagged parents: computed, hidden */
	want(&t, "Fetch_Latency", 50000 / 1e6, 0, 0);                           /* 0.05 */
	want(&t, "Fetch_Bandwidth", 0.10 - 0.05, 0, 0);
	want(&t, "Branch_Mispredicts", 900.0 / 1000 * 0.05, 0, 0);              /* 0.045 */
	want(&t, "Machine_Clears", 100.0 / 1000 * 0.05, 0, 0);                  /* 0.005 */
	want(&t, "Microcode_Sequencer", 1.2e6 / 1.3e6 * 130000 / 4e6, 0, 0);    /* 0.03 */
	want(&t, "Base", 0.30 - 0.03, 0, 0);
	/* Memory Bound and Core Bound are cycle fractions: they do not sum to Backend Bound */
	want(&t, "Memory_Bound", (300000 + 20000) / 1e6, 1, 1);                 /* 0.32 > 0.2 */
	double exec = (450000 - 50000 + 600000 - 500000) / 1e6;                 /* 0.50 */
	want(&t, "Core_Bound", exec - 0.32, 1, 1);                              /* 0.18 > 0.1 */
	assert_true(fabs(node(&t, "Memory_Bound")->value + node(&t, "Core_Bound")->value -
			 node(&t, "Backend_Bound")->value - (0.50 - 0.55)) < EPS);
	want(&t, "L1_Bound", (300000 - 180000) / 1e6, 1, 1);                    /* 0.12 > 0.1 */
	want(&t, "L2_Bound", (180000 - 190000) / 1e6, 0, 1);                    /* -0.01: signed */
	assert_true(t.negative);
	want(&t, "L3_Bound", 7000.0 / (7000 + 7 * 1000) * 190000 / 1e6, 1, 1);  /* 0.095 > 0.05 */
	want(&t, "DRAM_Bound", (1 - 0.5) * 190000 / 1e6, 0, 1);                 /* 0.095 <= 0.1 */
	want(&t, "Store_Bound", 20000 / 1e6, 0, 1);
	want(&t, "Divider", 30000 / 1e6, 0, 1);
	want(&t, "Ports_Utilization", (600000 - 500000) / 1e6, 0, 1);           /* 0.10 <= 0.15 */
	/* depth first: the level-1 nodes in the table's order, children after their parent */
	assert_string_equal(t.node[0].def->node, "Frontend_Bound");
	assert_string_equal(t.node[1].def->node, "Fetch_Latency");
	assert_int_equal(t.node[1].parent, 0);
	/* level 1 only */
	tree_of("intel-skl", &c, 1, &t);
	assert_int_equal(t.n, 4);
	/* level 4 adds MEM_Bandwidth / MEM_Latency: their events were not counted */
	tree_of("intel-skl", &c, 4, &t);
	assert_int_equal(node(&t, "MEM_Bandwidth")->state, TD_NODE_MISSING);
	assert_non_null(strstr(node(&t, "MEM_Bandwidth")->why,
			       "OFFCORE_REQUESTS_OUTSTANDING.ALL_DATA_RD:c6 was not counted"));
	assert_int_equal(node(&t, "MEM_Bandwidth")->value, 0);
}

/* A high Bad Speculation is flagged first. */
static void test_tree_bad_speculation(void **state)
{
	static struct td_counts c;
	static struct td_tree t;

	(void)state;
	c.n = 0;
	add(&c, "CPU_CLK_UNHALTED.THREAD", -1, 1000, 0, 0);              /* Slots = 4000 */
	add(&c, "IDQ_UOPS_NOT_DELIVERED.CORE", -1, 400, 0, 0);
	add(&c, "UOPS_ISSUED.ANY", -1, 3000, 0, 0);
	add(&c, "UOPS_RETIRED.RETIRE_SLOTS", -1, 2000, 0, 0);
	add(&c, "INT_MISC.RECOVERY_CYCLES", -1, 100, 0, 0);
	tree_of("intel-ivb", &c, 2, &t);
	want(&t, "Bad_Speculation", (3000 - 2000 + 4 * 100) / 4000.0, 1, 1);    /* 0.35 */
	assert_true(t.bad_spec_flagged);
	/* its children are shown but missing: their events were not counted */
	assert_int_equal(node(&t, "Branch_Mispredicts")->state, TD_NODE_MISSING);
	assert_true(node(&t, "Branch_Mispredicts")->shown);
	want(&t, "Backend_Bound", 1 - (0.1 + 0.35 + 0.5), 0, 1);               /* 0.05 */
}

/* Ice Lake, multiplexed: three groups on the PMU in turn, each half or a third of the time. */
static void test_tree_icelake_multiplexed(void **state)
{
	static struct td_counts c;
	static struct td_tree t;

	(void)state;
	c.n = 0;
	/* group 0: level 1, on the PMU half the time */
	add(&c, "TOPDOWN.SLOTS_P", 0, 2500000, 1000, 500);
	add(&c, "IDQ_UOPS_NOT_DELIVERED.CORE", 0, 500000, 1000, 500);
	add(&c, "INT_MISC.UOP_DROPPING", 0, 25000, 1000, 500);
	add(&c, "TOPDOWN.BACKEND_BOUND_SLOTS", 0, 1000000, 1000, 500);
	add(&c, "INT_MISC.CLEARS_COUNT", 0, 5000, 1000, 500);
	add(&c, "UOPS_RETIRED.SLOTS", 0, 750000, 1000, 500);
	/* group 1: the frontend's split, another slice (different counts, same fractions) */
	add(&c, "TOPDOWN.SLOTS_P", 1, 1000000, 1000, 250);
	add(&c, "IDQ_UOPS_NOT_DELIVERED.CORE", 1, 210000, 1000, 250);
	add(&c, "INT_MISC.UOP_DROPPING", 1, 10000, 1000, 250);
	add(&c, "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 1, 24000, 1000, 250);
	/* group 2: the backend's split */
	add(&c, "CYCLE_ACTIVITY.STALLS_MEM_ANY", 2, 300, 1000, 250);
	add(&c, "EXE_ACTIVITY.BOUND_ON_STORES", 2, 100, 1000, 250);
	add(&c, "CYCLE_ACTIVITY.STALLS_TOTAL", 2, 500, 1000, 250);
	add(&c, "EXE_ACTIVITY.1_PORTS_UTIL", 2, 200, 1000, 250);
	add(&c, "EXE_ACTIVITY.2_PORTS_UTIL", 2, 200, 1000, 250);
	tree_of("intel-icl", &c, 2, &t);

	want(&t, "Frontend_Bound", (500000 - 25000) / 2.5e6, 1, 1);             /* 0.19 */
	want(&t, "Backend_Bound", (1e6 + 5 * 5000) / 2.5e6, 1, 1);              /* 0.41 */
	want(&t, "Retiring", 750000 / 2.5e6, 0, 1);                             /* 0.30 */
	want(&t, "Bad_Speculation", 1 - (0.19 + 0.41 + 0.30), 0, 1);            /* 0.10 */
	assert_int_equal(node(&t, "Bad_Speculation")->group, 0);
	want(&t, "Fetch_Latency", (5 * 24000 - 10000) / 1e6, 1, 1);             /* 0.11 */
	/* Frontend_Bound - Fetch_Latency, both from group 1: 0.20 - 0.11, not 0.19 - 0.11 */
	want(&t, "Fetch_Bandwidth", (210000 - 10000) / 1e6 - 0.11, 0, 1);       /* 0.09 */
	assert_int_equal(node(&t, "Fetch_Bandwidth")->group, 1);
	assert_false(node(&t, "Fetch_Bandwidth")->mixed);
	/* Memory and Core Bound split Backend Bound (a fraction from its own group) */
	want(&t, "Memory_Bound", (300.0 + 100) / (500 + 200 + 200 + 100) * 0.41, 0, 1); /* .164 */
	want(&t, "Core_Bound", (1 - 0.4) * 0.41, 1, 1);                          /* .246 */
	assert_false(t.mixed);
}

/* Ice Lake with PERF_METRICS: level 1 from the four fields (SLOTS x fraction each, as the
 * PMU layer counts them), not from the generic events counted beside them. */
static void test_tree_icelake_perf_metrics(void **state)
{
	static struct td_counts c;
	static struct td_tree t;

	(void)state;
	c.n = 0;
	/* 2,550,000 slots with PERF_METRICS bytes 0x40, 0x20, 0x30, 0x6f: 2550000 * byte / 255 */
	add(&c, "PERF_METRICS.RETIRING", 0, 640000, 1000, 1000);
	add(&c, "PERF_METRICS.BAD_SPECULATION", 0, 320000, 1000, 1000);
	add(&c, "PERF_METRICS.FRONTEND_BOUND", 0, 480000, 1000, 1000);
	add(&c, "PERF_METRICS.BACKEND_BOUND", 0, 1110000, 1000, 1000);
	/* the generic events say otherwise (Retiring 0.5): they are not used */
	add(&c, "TOPDOWN.SLOTS_P", 0, 2000000, 1000, 1000);
	add(&c, "UOPS_RETIRED.SLOTS", 0, 1000000, 1000, 1000);
	add(&c, "IDQ_UOPS_NOT_DELIVERED.CORE", 0, 100000, 1000, 1000);
	add(&c, "INT_MISC.UOP_DROPPING", 0, 0, 1000, 1000);
	add(&c, "TOPDOWN.BACKEND_BOUND_SLOTS", 0, 100000, 1000, 1000);
	add(&c, "INT_MISC.CLEARS_COUNT", 0, 0, 1000, 1000);
	tree_of("intel-icl", &c, 1, &t);

	want(&t, "Retiring", 640000 / 2.55e6, 0, 1);           /* 64/255 = 0.251 */
	want(&t, "Bad_Speculation", 320000 / 2.55e6, 0, 1);    /* 32/255 = 0.125 */
	want(&t, "Frontend_Bound", 480000 / 2.55e6, 1, 1);     /* 48/255 = 0.188 > 0.15 */
	want(&t, "Backend_Bound", 1110000 / 2.55e6, 1, 1);     /* 111/255 = 0.435 > 0.2 */
}

/* Sapphire Rapids with PERF_METRICS: the level-2 fields give Fetch_Latency,
 * Branch_Mispredicts and Memory_Bound; without them the generic formulas stand in. */
static void test_tree_sapphire_perf_metrics(void **state)
{
	static struct td_counts c;
	static struct td_tree t;

	(void)state;
	c.n = 0;
	add(&c, "PERF_METRICS.RETIRING", 0, 640000, 1000, 1000);
	add(&c, "PERF_METRICS.BAD_SPECULATION", 0, 320000, 1000, 1000);
	add(&c, "PERF_METRICS.FRONTEND_BOUND", 0, 480000, 1000, 1000);
	add(&c, "PERF_METRICS.BACKEND_BOUND", 0, 1110000, 1000, 1000);
	add(&c, "PERF_METRICS.HEAVY_OPERATIONS", 0, 160000, 1000, 1000);
	add(&c, "PERF_METRICS.BRANCH_MISPREDICTS", 0, 240000, 1000, 1000);
	add(&c, "PERF_METRICS.FETCH_LATENCY", 0, 300000, 1000, 1000);
	add(&c, "PERF_METRICS.MEMORY_BOUND", 0, 700000, 1000, 1000);
	tree_of("intel-spr", &c, 2, &t);

	want(&t, "Frontend_Bound", 480000 / 2.55e6, 1, 1);     /* 0.188 */
	want(&t, "Fetch_Latency", 300000 / 2.55e6, 1, 1);      /* 0.118 > 0.1 */
	/* Frontend_Bound - Fetch_Latency: (480000 - 300000) / 2550000 = 0.071 */
	want(&t, "Fetch_Bandwidth", 180000 / 2.55e6, 0, 1);
	want(&t, "Branch_Mispredicts", 240000 / 2.55e6, 0, 0); /* 0.094; Bad_Speculation 0.125 */
	want(&t, "Memory_Bound", 700000 / 2.55e6, 1, 1);       /* 0.275 > 0.2 */

	/* no PERF_METRICS on this CPU (the fields unsupported): the generic events */
	c.n = 0;
	add_missing(&c, "PERF_METRICS.RETIRING", TD_UNSUPPORTED, "");
	add_missing(&c, "PERF_METRICS.BAD_SPECULATION", TD_UNSUPPORTED, "");
	add_missing(&c, "PERF_METRICS.FRONTEND_BOUND", TD_UNSUPPORTED, "");
	add_missing(&c, "PERF_METRICS.BACKEND_BOUND", TD_UNSUPPORTED, "");
	add_missing(&c, "PERF_METRICS.MEMORY_BOUND", TD_UNSUPPORTED, "");
	add(&c, "TOPDOWN.SLOTS_P", 0, 2000000, 1000, 1000);
	add(&c, "UOPS_RETIRED.SLOTS", 0, 1000000, 1000, 1000);
	add(&c, "IDQ_UOPS_NOT_DELIVERED.CORE", 0, 400000, 1000, 1000);
	add(&c, "INT_MISC.UOP_DROPPING", 0, 0, 1000, 1000);
	add(&c, "TOPDOWN.BACKEND_BOUND_SLOTS", 0, 400000, 1000, 1000);
	add(&c, "INT_MISC.CLEARS_COUNT", 0, 0, 1000, 1000);
	add(&c, "CYCLE_ACTIVITY.STALLS_MEM_ANY", 0, 300, 1000, 1000);
	add(&c, "EXE_ACTIVITY.BOUND_ON_STORES", 0, 100, 1000, 1000);
	add(&c, "CYCLE_ACTIVITY.STALLS_TOTAL", 0, 500, 1000, 1000);
	add(&c, "EXE_ACTIVITY.1_PORTS_UTIL", 0, 200, 1000, 1000);
	add(&c, "EXE_ACTIVITY.2_PORTS_UTIL", 0, 200, 1000, 1000);
	tree_of("intel-spr", &c, 2, &t);
	want(&t, "Retiring", 1000000 / 2e6, 0, 1);             /* 0.5 */
	want(&t, "Frontend_Bound", 400000 / 2e6, 1, 1);        /* 0.2 */
	want(&t, "Backend_Bound", 400000 / 2e6, 0, 1);         /* 0.2, not above 0.2 */
	want(&t, "Bad_Speculation", 1 - (0.5 + 0.2 + 0.2), 0, 1);   /* 0.1 */
	/* (300 + 100) / (500 + 200 + 200 + 100) * 0.2 = 0.08 */
	want(&t, "Memory_Bound", 0.4 * 0.2, 0, 0);
}

/* An operand counted only in another group is scaled to the whole run, and says so. */
static void test_tree_mixed_groups(void **state)
{
	static struct td_counts c;
	static struct td_tree t;

	(void)state;
	c.n = 0;
	add(&c, "CPU_CLK_UNHALTED.THREAD", 0, 500, 1000, 500);           /* scaled: 1000 */
	add(&c, "IDQ_UOPS_NOT_DELIVERED.CORE", 0, 200, 1000, 500);
	add(&c, "UOPS_RETIRED.RETIRE_SLOTS", 1, 600, 1000, 250);         /* scaled: 2400 */
	tree_of("intel-skl", &c, 1, &t);
	want(&t, "Frontend_Bound", 200 / 2000.0, 0, 1);                   /* same group: raw */
	assert_false(node(&t, "Frontend_Bound")->mixed);
	want(&t, "Retiring", 2400 / 4000.0, 0, 1);                        /* scaled across */
	assert_true(node(&t, "Retiring")->mixed);
	assert_true(t.mixed);
	assert_int_equal(node(&t, "Bad_Speculation")->state, TD_NODE_MISSING);
	assert_int_equal(node(&t, "Backend_Bound")->state, TD_NODE_MISSING);
}

/* AMD Zen 4: 6 dispatch slots per cycle. */
static void test_tree_zen4(void **state)
{
	static struct td_counts c;
	static struct td_tree t;

	(void)state;
	c.n = 0;
	add(&c, "ls_not_halted_cyc", -1, 1000000, 0, 0);                 /* slots 6,000,000 */
	add(&c, "de_no_dispatch_per_slot.no_ops_from_frontend", -1, 600000, 0, 0);
	add(&c, "de_src_op_disp.all", -1, 2400000, 0, 0);
	add(&c, "ex_ret_ops", -1, 2100000, 0, 0);
	add(&c, "de_no_dispatch_per_slot.backend_stalls", -1, 1800000, 0, 0);
	add(&c, "de_no_dispatch_per_slot.no_ops_from_frontend:all", -1, 60000, 0, 0);
	add(&c, "ex_ret_brn_misp", -1, 800, 0, 0);
	add(&c, "resyncs_or_nc_redirects", -1, 200, 0, 0);
	add(&c, "ex_no_retire.load_not_complete", -1, 750, 0, 0);
	add(&c, "ex_no_retire.not_complete", -1, 1000, 0, 0);
	add(&c, "ex_ret_ucode_ops", -1, 210000, 0, 0);
	tree_of("amd-zen4", &c, 2, &t);
	want(&t, "Frontend_Bound", 600000 / 6e6, 0, 1);                  /* 0.10 */
	want(&t, "Bad_Speculation", (2.4e6 - 2.1e6) / 6e6, 0, 1);        /* 0.05 */
	want(&t, "Backend_Bound", 1.8e6 / 6e6, 1, 1);                    /* 0.30 */
	want(&t, "Retiring", 2.1e6 / 6e6, 0, 1);                         /* 0.35 */
	want(&t, "Fetch_Latency", 6 * 60000 / 6e6, 0, 0);                /* 0.06 */
	want(&t, "Fetch_Bandwidth", 0.10 - 0.06, 0, 0);
	want(&t, "Branch_Mispredicts", 0.8 * 0.05, 0, 0);
	want(&t, "Machine_Clears", 0.2 * 0.05, 0, 0);
	want(&t, "Memory_Bound", 0.75 * 0.30, 1, 1);                     /* 0.225 > 0.2 */
	want(&t, "Core_Bound", 0.25 * 0.30, 0, 1);                       /* 0.075 */
	want(&t, "Microcode_Sequencer", 0.35 * 0.1, 0, 0);
	want(&t, "Base", 0.35 * 0.9, 0, 0);
}

/* Neoverse V1: 8 slots per cycle from PMMIR_EL1. */
static void test_tree_neoverse(void **state)
{
	static struct td_counts c;
	static struct td_tree t;
	static struct td_model m;
	char err[300];

	(void)state;
	c.n = 0;
	add(&c, "CPU_CYCLES", -1, 1000000, 0, 0);                        /* slots 8,000,000 */
	add(&c, "STALL_SLOT_FRONTEND", -1, 1600000, 0, 0);
	add(&c, "STALL_SLOT_BACKEND", -1, 2400000, 0, 0);
	add(&c, "STALL_SLOT", -1, 4000000, 0, 0);
	add(&c, "OP_SPEC", -1, 2000000, 0, 0);
	add(&c, "OP_RETIRED", -1, 1600000, 0, 0);
	add(&c, "STALL_FRONTEND", -1, 999, 0, 0);       /* not used: the slot events are there */
	assert_int_equal(topdown_select(&m, "aarch64", "ARM", 0x41, 0xd40, NULL, err, sizeof err),
			 0);
	assert_int_equal(topdown_compute(&m, &c, 3, &t, err, sizeof err), 0);
	want(&t, "Frontend_Bound", 1.6e6 / 8e6, 1, 1);                   /* 0.20 */
	want(&t, "Backend_Bound", 2.4e6 / 8e6, 1, 1);                    /* 0.30 */
	want(&t, "Retiring", 1.6e6 / 2e6 * (1 - 4e6 / 8e6), 0, 1);       /* 0.8 * 0.5 = 0.40 */
	want(&t, "Bad_Speculation", (1 - 0.8) * 0.5, 0, 1);              /* 0.10 */
	assert_int_equal(t.n, 4);
}

/* QEMU's PMUv3 (-cpu max): CPU_CYCLES, STALL_FRONTEND and STALL_BACKEND are implemented (the
 * stalls count 0), the slot and OP_ events are not, and the width is unknown. */
static void test_tree_qemu(void **state)
{
	static struct td_counts c;
	static struct td_tree t;
	static struct td_model m;
	char err[300];

	(void)state;
	c.n = 0;
	add(&c, "CPU_CYCLES", -1, 425086578, 0, 0);
	add(&c, "STALL_FRONTEND", -1, 0, 0, 0);
	add(&c, "STALL_BACKEND", -1, 0, 0, 0);
	add_missing(&c, "OP_RETIRED", TD_UNSUPPORTED, "this CPU does not implement the event");
	add_missing(&c, "OP_SPEC", TD_UNSUPPORTED, "this CPU does not implement the event");
	add_missing(&c, "STALL_SLOT", TD_UNSUPPORTED, "this CPU does not implement the event");
	add_missing(&c, "STALL_SLOT_FRONTEND", TD_UNSUPPORTED, "");
	add_missing(&c, "STALL_SLOT_BACKEND", TD_UNSUPPORTED, "");
	assert_int_equal(topdown_select(&m, "aarch64", "software", 0, 0x51, NULL, err, sizeof err),
			 0);
	assert_int_equal(topdown_compute(&m, &c, 1, &t, err, sizeof err), 0);
	want(&t, "Frontend_Bound", 0, 0, 1);          /* STALL_FRONTEND / CPU_CYCLES */
	want(&t, "Backend_Bound", 0, 0, 1);
	assert_int_equal(node(&t, "Retiring")->state, TD_NODE_MISSING);
	assert_string_equal(node(&t, "Retiring")->why,
			    "OP_RETIRED: this CPU does not implement the event");
	assert_int_equal(node(&t, "Bad_Speculation")->state, TD_NODE_MISSING);
	assert_false(node(&t, "Bad_Speculation")->flagged);
	/* the same event twice in one group is refused */
	add(&c, "CPU_CYCLES", -1, 1, 0, 0);
	assert_int_equal(topdown_compute(&m, &c, 1, &t, err, sizeof err), -1);
	assert_non_null(strstr(err, "CPU_CYCLES given twice"));
}

/* Per function: each function's samples of each event times its period. */
static void test_func_counts(void **state)
{
	static struct profile p;
	static struct td_counts c;
	static struct td_tree t;
	static struct td_model m;
	const struct td_func_event ev[] = { { 1, 0, "CPU_CYCLES" }, { 2, 0, "STALL_FRONTEND" },
					    { 3, 0, "STALL_BACKEND" }, { 4, 0, "OP_SPEC" } };
	int func_of[4];
	char err[300];

	(void)state;
	profile_init(&p);
	p.nevents = 4;
	for (unsigned i = 0; i < 4; i++) {
		p.events[i].id = (uint16_t)(i + 1);
		p.events[i].status = BMPROF_EVST_ACTIVE;
		p.events[i].period = 1000;
	}
	p.events[3].status = BMPROF_EVST_UNAVAILABLE;
	/* function 0: 10 cycle samples at pc 0x100, 3 frontend stall samples;
	 * function 1: 30 cycle samples, 6 backend stall samples */
	assert_int_equal(profile_add(&p, 0, 1, 0x100, 10), 0);
	assert_int_equal(profile_add(&p, 0, 2, 0x104, 3), 0);
	assert_int_equal(profile_add(&p, 0, 1, 0x200, 30), 0);
	assert_int_equal(profile_add(&p, 0, 3, 0x204, 6), 0);
	for (size_t i = 0; i < p.nsamples; i++)
		func_of[i] = p.samples[i].pc < 0x200 ? 0 : 1;
	assert_int_equal(topdown_select(&m, "aarch64", "software", 0, 0x51, NULL, err, sizeof err), 0);
	assert_int_equal(topdown_func_counts(&p, ev, 4, func_of, 0, &c), 0);
	assert_int_equal(c.n, 4);
	assert_true(c.c[0].value == 10000 && c.c[1].value == 3000 && c.c[2].value == 0);
	assert_int_equal(c.c[3].state, TD_UNSUPPORTED);
	assert_int_equal(topdown_compute(&m, &c, 1, &t, err, sizeof err), 0);
	want(&t, "Frontend_Bound", 3000 / 10000.0, 1, 1);        /* 0.30 > 0.15 */
	want(&t, "Backend_Bound", 0, 0, 1);
	assert_int_equal(node(&t, "Bad_Speculation")->state, TD_NODE_MISSING);
	assert_int_equal(topdown_func_counts(&p, ev, 4, func_of, 1, &c), 0);
	assert_int_equal(topdown_compute(&m, &c, 1, &t, err, sizeof err), 0);
	want(&t, "Frontend_Bound", 0, 0, 1);
	want(&t, "Backend_Bound", 6000 / 30000.0, 0, 1);         /* 0.20, not above 0.2 */
	profile_free(&p);
}

static void test_display_clamp(void **state)
{
	int clamped;

	(void)state;
	assert_true(topdown_display_value(-0.01, &clamped) == 0 && clamped);
	assert_true(topdown_display_value(1.2, &clamped) == 1 && clamped);
	assert_true(topdown_display_value(0.3, &clamped) == 0.3 && !clamped);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expr),
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_select),
		cmocka_unit_test(test_tree_skylake),
		cmocka_unit_test(test_tree_bad_speculation),
		cmocka_unit_test(test_tree_icelake_multiplexed),
		cmocka_unit_test(test_tree_icelake_perf_metrics),
		cmocka_unit_test(test_tree_sapphire_perf_metrics),
		cmocka_unit_test(test_tree_mixed_groups),
		cmocka_unit_test(test_tree_zen4),
		cmocka_unit_test(test_tree_neoverse),
		cmocka_unit_test(test_tree_qemu),
		cmocka_unit_test(test_func_counts),
		cmocka_unit_test(test_display_clamp),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
