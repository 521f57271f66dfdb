/* SPDX-License-Identifier: BSD-2-Clause */
/* DCPI analysis with known answers: F recovered from clustered ratios (stalled issue
 * points ignored), the copy loop of the paper, the few-samples sum, the dependent issue
 * point refinement, noisy samples, local propagation (filling an edge-only class, rejecting
 * a negative), confidence levels, retired samples, culprit sets and their event bounds, the
 * summary's accounting, the accuracy shares, and the samples behind each estimate with the
 * accuracy that Poisson noise alone allows. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>
#include "dcpi.h"

#define BASE 0x1000u
#define P 1000.0                 /* cycles per sample */
#define MAXN 64

struct spec { uint8_t flow; int tgt; };
#define N_ { INSN_FLOW_NEXT, -1 }
#define COND(t) { INSN_FLOW_COND, (t) }
#define RET { INSN_FLOW_RETURN, -1 }

static struct insn prog[MAXN];
static struct sched_insn sch[MAXN];
static uint64_t smp[MAXN];
static struct cfg g;
static struct dcpi_input in;
static struct dcpi_result res;

/* program from spec, every instruction an issue point with M = 1 and no samples */
static size_t mk(const struct spec *s, size_t n)
{
	memset(prog, 0, sizeof(prog));
	memset(smp, 0, sizeof(smp));
	for (size_t i = 0; i < n; i++) {
		prog[i].addr = BASE + 4 * i;
		prog[i].size = 4;
		prog[i].flow = s[i].flow;
		prog[i].cls = s[i].flow == INSN_FLOW_NEXT ? IC_NOP : IC_BRANCH;
		if (s[i].tgt >= 0)
			prog[i].target = BASE + 4 * (uint64_t)s[i].tgt;
		sch[i] = (struct sched_insn){ .M = 1, .culprit = -1 };
	}
	return n;
}

static void analyze(size_t n, const struct uarch *u)
{
	assert_int_equal(cfg_build(&g, prog, n), 0);
	memset(&in, 0, sizeof(in));
	in.cfg = &g;
	in.uarch = u;
	in.sched = sch;
	in.samples = smp;
	in.period = P;
}

static void run(void)
{
	assert_int_equal(dcpi_analyze(&in, &res), 0);
}

static void done(void)
{
	dcpi_result_free(&res);
	cfg_free(&g);
}

static const struct dcpi_class *cls_of(size_t insn)
{
	return &res.classes[g.blocks[g.block_of[insn]].cls];
}

static long edge(uint32_t a, uint32_t b)
{
	for (size_t e = 0; e < g.nedges; e++)
		if (g.edges[e].from == a && g.edges[e].to == b)
			return (long)e;
	return -1;
}

/* Loop body of issue points with S = F M plus stalls on two: F is the cluster's. */
static void test_cluster_recovers_F(void **state)
{
	/* 0: pre; 1..8: body; 9: cond ->1; 10: ret */
	static const struct spec s[] = { N_, N_, N_, N_, N_, N_, N_, N_, N_, COND(1), RET };
	size_t n = mk(s, 11);

	for (size_t i = 1; i <= 9; i++)
		smp[i] = 1000 * sch[i].M;
	sch[4].M = 2;
	smp[4] = 2000;
	smp[3] = 5000;           /* stalls: 4 and 1.5 cycles */
	smp[6] = 2500;
	smp[0] = smp[10] = 1;
	analyze(n, NULL);
	run();
	const struct dcpi_class *c = cls_of(1);
	assert_int_equal(c->how, DCPI_HOW_CLUSTER);
	assert_true(fabs(c->F - 1000) < 1e-9);
	assert_int_equal(c->nissue, 9);
	assert_int_equal(c->ncluster, 7);
	assert_int_equal(c->conf, DCPI_CONF_HIGH);
	assert_true(fabs(c->basis - 8000) < 1e-9);   /* the cluster's samples, not 14500 */
	assert_true(fabs(res.blocks[g.block_of[1]].execs - 1000 * P) < 1e-6);
	assert_true(fabs(res.insns[3].cpe - 5) < 1e-9);
	assert_true(fabs(res.insns[3].dyn_stall - 4) < 1e-9);
	assert_true(fabs(res.insns[6].dyn_stall - 1.5) < 1e-9);
	assert_true(fabs(res.insns[4].dyn_stall) < 1e-9);
	/* block CPIs: best = sum M / n, actual = sum cpe / n */
	const struct dcpi_block *b = &res.blocks[g.block_of[1]];
	assert_true(fabs(b->best_cpi - 10.0 / 9) < 1e-9);
	assert_true(fabs(b->actual_cpi - (10.0 + 4 + 1.5) / 9) < 1e-9);
	assert_int_equal(b->samples, 6 * 1000 + 2000 + 5000 + 2500);
	/* pre and ret: 2 samples, few: sum S / sum M */
	assert_int_equal(cls_of(0)->how, DCPI_HOW_SUM);
	assert_true(fabs(cls_of(0)->F - 1) < 1e-9);
	assert_int_equal(cls_of(0)->conf, DCPI_CONF_LOW);
	/* back edge = body - entry, by propagation */
	long be = edge(g.block_of[9], g.block_of[1]);
	assert_true(be >= 0);
	assert_int_equal(res.edges[be].how, DCPI_HOW_PROPAGATED);
	assert_true(fabs(res.edges[be].execs - 999 * P) < 1e-6);
	done();
}

/* Out of order, samples spread over instructions that retire together (M = 0) as the
 * hardware's retirement decides, not the schedule: F comes from the block, sum S / sum M.
 * Body 1..8 (M 1,0,0,1,0,0,0,2: 4 cycles an iteration); with F = 1000 it collects 4000
 * samples, placed anywhere in the block. */
static void test_out_of_order_block(void **state)
{
	static const struct spec s[] = { N_, N_, N_, N_, N_, N_, N_, N_, COND(1), RET };
	static const uint32_t M[] = { 1, 1, 0, 0, 1, 0, 0, 0, 2, 1 };
	static const uint64_t S[] = { 1, 400, 900, 0, 300, 1100, 0, 700, 600, 1 };
	struct uarch u = { .name = "ooo", .out_of_order = 1, .width = 4 };
	size_t n = mk(s, 10);

	for (size_t i = 0; i < n; i++) {
		sch[i].M = M[i];
		smp[i] = S[i];
	}
	analyze(n, &u);
	run();
	const struct dcpi_class *c = cls_of(1);
	assert_int_equal(c->how, DCPI_HOW_CLUSTER);
	assert_true(fabs(c->F - 1000) < 1e-9);
	assert_int_equal(c->nissue, 1);          /* one block */
	assert_int_equal(c->conf, DCPI_CONF_HIGH);
	assert_true(fabs(res.blocks[g.block_of[1]].execs - 1000 * P) < 1e-6);
	done();
	/* the same samples read in order would take the per-instruction ratios (400, 300,
	 * 300 with M 1, 1, 2): not the block's 1000 */
	u.out_of_order = 0;
	analyze(n, &u);
	run();
	assert_true(fabs(cls_of(1)->F - 1000) > 100);
	done();
}

/* The copy loop of the paper's Figure 7: F = 1527 (truth 1575.1). */
static void test_copy_loop(void **state)
{
	static const uint64_t S[] = { 3126, 0, 1636, 390, 1482, 0, 27766, 0, 1493, 174727,
				      1548, 0, 1586 };
	static const uint32_t M[] = { 1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 0, 1 };
	static const struct spec s[] = { N_, N_, N_, N_, N_, N_, N_, N_, N_, N_, N_, N_,
					 COND(0) };
	size_t n = mk(s, 13);

	for (size_t i = 0; i < n; i++) {
		smp[i] = S[i];
		sch[i].M = M[i];
	}
	analyze(n, NULL);
	run();
	const struct dcpi_class *c = cls_of(0);
	assert_int_equal(c->how, DCPI_HOW_CLUSTER);
	assert_int_equal(c->nissue, 8);
	assert_int_equal(c->ncluster, 4);
	assert_true(fabs(c->F - (1482 + 1493 + 1548 + 1586) / 4.0) < 1e-9);
	assert_true(fabs(c->F - 1575.1) / 1575.1 < 0.05);
	assert_int_equal(c->conf, DCPI_CONF_HIGH);
	done();
}

/* Fewer than DCPI_FEW_SAMPLES samples: F = sum S / sum M. */
static void test_few_samples(void **state)
{
	static const struct spec s[] = { N_, N_, RET };
	size_t n = mk(s, 3);

	sch[1].M = 2;
	smp[0] = 3;
	smp[1] = 8;
	smp[2] = 5;
	analyze(n, NULL);
	run();
	assert_int_equal(cls_of(0)->how, DCPI_HOW_SUM);
	assert_true(fabs(cls_of(0)->F - 4) < 1e-9);
	assert_int_equal(cls_of(0)->conf, DCPI_CONF_LOW);
	assert_int_equal(cls_of(0)->samples, 16);
	assert_true(fabs(cls_of(0)->basis - 16) < 1e-9);
	done();

	/* the same ratios with enough samples cluster instead */
	n = mk(s, 3);
	sch[1].M = 2;
	smp[0] = 300;
	smp[1] = 600;
	smp[2] = 900;
	analyze(n, NULL);
	run();
	assert_int_equal(cls_of(0)->how, DCPI_HOW_CLUSTER);
	assert_true(fabs(cls_of(0)->F - 300) < 1e-9);
	done();
}

/* An issue point whose M covers a dependency on an earlier instruction uses the sums
 * over the instructions since: a stall in between overlaps its latency. */
static void test_dependent_issue_point(void **state)
{
	static const struct spec s[] = { N_, N_, N_, RET };
	size_t n = mk(s, 4);

	sch[2] = (struct sched_insn){ .M = 3, .stall = 2, .reason = SCHED_DEPENDENCY,
				      .culprit = 0 };
	smp[0] = 1000;
	smp[1] = 4000;      /* a dynamic stall of 3 cycles ... */
	smp[2] = 1000;      /* ... which 2 no longer waits for: S/M alone would be 333 */
	smp[3] = 1000;
	analyze(n, NULL);
	run();
	assert_true(fabs(cls_of(0)->F - 1000) < 1e-9);
	assert_int_equal(cls_of(0)->ncluster, 2);
	done();
}

static uint64_t rng = 99;
static double unif(void)
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return ((rng >> 11) + 0.5) / 9007199254740992.0;
}

static uint64_t poisson(double mean)
{
	/* normal approximation, enough for means >= 30 */
	double u1 = unif(), u2 = unif();
	double z = sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);
	double v = mean + z * sqrt(mean);

	return v < 0 ? 0 : (uint64_t)(v + 0.5);
}

/* Noisy samples: F within 5% in every one of many trials, and unbiased on average. */
static void test_noisy_samples(void **state)
{
	static const struct spec s[] = { N_, N_, N_, N_, N_, N_, N_, N_, N_, N_, N_, COND(0),
					 RET };
	double sum = 0;
	int trials = 200, within = 0;

	for (int t = 0; t < trials; t++) {
		size_t n = mk(s, 13);
		const double F = 200;

		for (size_t i = 0; i < 12; i++) {
			sch[i].M = 1 + (uint32_t)(unif() * 3);
			double stall = (i == 2 || i == 7 || i == 9) ? 2 + 6 * unif() : 0;

			smp[i] = poisson(F * (sch[i].M + stall));
		}
		analyze(n, NULL);
		run();
		double est = cls_of(0)->F;

		within += fabs(est - F) / F <= 0.05;
		sum += est;
		done();
	}
	assert_true(within >= trials * 95 / 100);
	assert_true(fabs(sum / trials - 200) / 200 < 0.01);
}

/* if-then: the taken edge around the arm is a class of its own with no instructions;
 * propagation gives it join - arm, and rejects a negative. */
static void test_propagation(void **state)
{
	/* 0: cond ->5; 1..4: arm; 5: join; 6: ret */
	static const struct spec s[] = { COND(5), N_, N_, N_, N_, N_, RET };
	size_t n = mk(s, 7);

	smp[0] = smp[5] = smp[6] = 100;
	for (int i = 1; i <= 4; i++)
		smp[i] = 40;
	analyze(n, NULL);
	run();
	long te = edge(g.block_of[0], g.block_of[5]);
	assert_true(te >= 0);
	uint32_t tc = g.edges[te].cls;
	assert_int_not_equal(tc, g.blocks[g.block_of[0]].cls);
	assert_int_not_equal(tc, g.blocks[g.block_of[1]].cls);
	assert_int_equal(cls_of(0)->conf, DCPI_CONF_HIGH);
	assert_int_equal(cls_of(1)->conf, DCPI_CONF_HIGH);
	assert_int_equal(res.classes[tc].nissue, 0);
	assert_int_equal(res.classes[tc].how, DCPI_HOW_PROPAGATED);
	assert_true(fabs(res.classes[tc].F - 60) < 1e-9);
	assert_true(fabs(res.edges[te].execs - 60 * P) < 1e-6);
	assert_int_equal(res.edges[te].conf, DCPI_CONF_MEDIUM);  /* one below high */
	/* 60 = 100 - 40 from clusters of 300 and 160 samples: var = 100^2 / 300 + 40^2 /
	 * 160, so as many samples behind it as 60^2 / var */
	assert_true(fabs(res.classes[tc].basis - 3600 / (10000.0 / 300 + 1600.0 / 160)) < 1e-9);
	done();

	/* arm estimated above the join: join - arm < 0 is rejected */
	n = mk(s, 7);
	smp[0] = smp[5] = smp[6] = 100;
	for (int i = 1; i <= 4; i++)
		smp[i] = 150;
	analyze(n, NULL);
	run();
	te = edge(g.block_of[0], g.block_of[5]);
	assert_true(res.classes[g.edges[te].cls].F < 0);
	assert_int_equal(res.classes[g.edges[te].cls].how, DCPI_HOW_NONE);
	assert_true(res.edges[te].execs < 0);
	assert_int_equal(res.edges[te].conf, DCPI_CONF_NONE);
	done();

	/* a small difference of large estimates is low confidence */
	n = mk(s, 7);
	smp[0] = smp[5] = smp[6] = 1000;
	for (int i = 1; i <= 4; i++)
		smp[i] = 950;
	analyze(n, NULL);
	run();
	te = edge(g.block_of[0], g.block_of[5]);
	assert_true(fabs(res.edges[te].execs - 50 * P) < 1e-6);
	assert_int_equal(res.edges[te].conf, DCPI_CONF_LOW);
	done();
}

static void test_confidence(void **state)
{
	/* two issue points, 80 samples: medium; one issue point, 60 samples: low */
	static const struct spec s2[] = { N_, RET };
	size_t n = mk(s2, 2);

	smp[0] = smp[1] = 40;
	analyze(n, NULL);
	run();
	assert_int_equal(cls_of(0)->how, DCPI_HOW_CLUSTER);
	assert_int_equal(cls_of(0)->conf, DCPI_CONF_MEDIUM);
	done();

	static const struct spec s1[] = { RET };
	n = mk(s1, 1);
	smp[0] = 60;
	analyze(n, NULL);
	run();
	assert_int_equal(cls_of(0)->how, DCPI_HOW_CLUSTER);
	assert_int_equal(cls_of(0)->conf, DCPI_CONF_LOW);
	done();

	/* many issue points but the cluster holds fewer than half: medium */
	static const struct spec s8[] = { N_, N_, N_, N_, N_, N_, N_, RET };
	n = mk(s8, 8);
	for (int i = 0; i < 8; i++)
		smp[i] = i < 3 ? 100 : 200 + 100 * (uint64_t)i;
	analyze(n, NULL);
	run();
	assert_int_equal(cls_of(0)->ncluster, 3);
	assert_int_equal(cls_of(0)->conf, DCPI_CONF_MEDIUM);
	done();
}

/* Instruction-retired samples: pooled per class; used when cycles give no estimate. */
static void test_retired(void **state)
{
	static const struct spec s[] = { N_, N_, N_, COND(0), RET };
	static uint64_t ret[MAXN];
	size_t n = mk(s, 5);

	smp[0] = smp[1] = smp[2] = smp[3] = 500;
	smp[4] = 0;
	memset(ret, 0, sizeof(ret));
	ret[0] = 48;
	ret[1] = 52;
	ret[2] = 50;
	ret[3] = 50;              /* 200 over 4 instructions, period 10: 500 each */
	ret[4] = 3;
	analyze(n, NULL);
	in.retired.samples = ret;
	in.retired.period = 10;
	run();
	for (int i = 0; i < 4; i++)
		assert_true(fabs(res.insns[i].retired_execs - 500) < 1e-9);
	assert_int_equal(cls_of(0)->how, DCPI_HOW_CLUSTER);
	/* ret: no cycles samples, 3 retired: 30 executions */
	assert_int_equal(cls_of(4)->how, DCPI_HOW_RETIRED);
	assert_true(fabs(res.blocks[g.block_of[4]].execs - 30) < 1e-9);
	assert_true(fabs(res.insns[4].retired_execs - 30) < 1e-9);
	assert_int_equal(cls_of(4)->conf, DCPI_CONF_LOW);
	done();

	/* without retired samples: -1 */
	n = mk(s, 5);
	smp[0] = 50;
	analyze(n, NULL);
	run();
	assert_true(res.insns[0].retired_execs < 0);
	done();
}

#define R(x) (x)
static void regs(struct insn *x, int rd0, int rd1, int wr0)
{
	if (rd0 >= 0)
		insn_regs_add(&x->rd, (unsigned)rd0);
	if (rd1 >= 0)
		insn_regs_add(&x->rd, (unsigned)rd1);
	if (wr0 >= 0)
		insn_regs_add(&x->wr, (unsigned)wr0);
}

static struct uarch test_uarch(void)
{
	struct uarch u = { .name = "test", .width = 1, .load_latency = 3, .line_size = 64,
			   .icache_miss = 20, .dcache_miss = 20, .memory = 200, .itlb_miss = 30,
			   .dtlb_miss = 30, .mispredict = 15 };

	for (int c = 0; c < IC__COUNT; c++)
		u.cls[c] = (struct uarch_class){ 1, 1, 1 };
	u.cls[IC_DIV] = (struct uarch_class){ 20, 1, 20 };
	return u;
}

/* 0..2 pre; 3 load r1 <- [r2]; 4 add r3 <- r1, r4; 5 store [r5] <- r3; 6 div r6 <- r6, r7;
 * 7..21 nops (16 at 0x1040 starts a cache line); 22 cond ->3; 23, 24 nop; 25 ret */
static size_t culprit_prog(void)
{
	struct spec s[26];

	for (int i = 0; i < 26; i++)
		s[i] = (struct spec)N_;
	s[22] = (struct spec)COND(3);
	s[25] = (struct spec)RET;
	size_t n = mk(s, 26);

	prog[3].cls = IC_LOAD;
	prog[3].mem = INSN_MEM_LOAD;
	regs(&prog[3], R(2), -1, R(1));
	prog[4].cls = IC_ALU;
	regs(&prog[4], R(1), R(4), R(3));
	prog[5].cls = IC_STORE;
	prog[5].mem = INSN_MEM_STORE;
	regs(&prog[5], R(5), R(3), -1);
	prog[6].cls = IC_DIV;
	regs(&prog[6], R(6), R(7), R(6));
	for (int i = 3; i <= 22; i++)
		smp[i] = 100;
	/* stalls of 2 cycles on 3, 4, 5, 6, 16 */
	smp[3] = smp[4] = smp[5] = smp[6] = smp[16] = 300;
	for (int i = 0; i <= 2; i++)
		smp[i] = 10;
	for (int i = 23; i <= 25; i++)
		smp[i] = 10;
	smp[23] = 40;             /* a 3-cycle stall after the loop */
	return n;
}

#define BIT(c) (1u << (c))

static void test_culprits(void **state)
{
	struct uarch u = test_uarch();
	size_t n = culprit_prog();

	analyze(n, &u);
	run();
	assert_true(fabs(cls_of(3)->F - 100) < 1e-9);
	assert_true(fabs(cls_of(0)->F - 10) < 1e-9);
	for (int i = 3; i <= 6; i++)
		assert_true(fabs(res.insns[i].dyn_stall - 2) < 1e-9);
	/* the load starts a block entered from another line and by a branch */
	assert_int_equal(res.insns[3].culprits,
			 BIT(DCPI_C_ICACHE) | BIT(DCPI_C_DCACHE) | BIT(DCPI_C_DTLB) |
			 BIT(DCPI_C_MISPREDICT));
	assert_int_equal(res.insns[3].dep_on, -1);
	/* uses the load's result */
	assert_int_equal(res.insns[4].culprits,
			 BIT(DCPI_C_DCACHE) | BIT(DCPI_C_DTLB) | BIT(DCPI_C_DEPENDENCY));
	assert_int_equal(res.insns[4].dep_on, 3);
	/* a store of the add's result */
	assert_int_equal(res.insns[5].culprits,
			 BIT(DCPI_C_WRITE_BUFFER) | BIT(DCPI_C_DEPENDENCY));
	assert_int_equal(res.insns[5].dep_on, 4);
	/* the divider of the previous iteration */
	assert_int_equal(res.insns[6].culprits, BIT(DCPI_C_UNIT_BUSY));
	assert_true(fabs(res.insns[6].bound[DCPI_C_UNIT_BUSY] - 20) < 1e-9);
	/* mid-block, but starts a cache line */
	assert_int_equal(res.insns[16].culprits, BIT(DCPI_C_ICACHE));
	/* after the loop's branch, same line as the branch */
	assert_true(fabs(res.insns[23].dyn_stall - 3) < 1e-9);
	assert_int_equal(res.insns[23].culprits, BIT(DCPI_C_MISPREDICT));
	/* no stall, no culprits */
	assert_int_equal(res.insns[10].culprits, 0);
	assert_true(res.insns[4].bound[DCPI_C_DCACHE] < 0);     /* no event samples */

	/* summary: single-culprit stalls are fully theirs; accounting adds up */
	const struct dcpi_summary *sm = &res.sum;
	double D = 2 * 100 * P;
	assert_true(fabs(sm->dyn_lo[DCPI_C_ICACHE] - D) < 1e-6);      /* insn 16 */
	assert_true(fabs(sm->dyn_hi[DCPI_C_ICACHE] - 2 * D) < 1e-6);  /* 16 and 3 */
	assert_true(fabs(sm->dyn_lo[DCPI_C_UNIT_BUSY] - D) < 1e-6);
	assert_true(fabs(sm->dyn_hi[DCPI_C_DCACHE] - 2 * D) < 1e-6);
	assert_true(fabs(sm->dyn_lo[DCPI_C_DCACHE]) < 1e-6);
	assert_true(fabs(sm->dyn_lo[DCPI_C_MISPREDICT] - 3 * 10 * P) < 1e-6);
	assert_true(fabs(sm->dyn_total - (5 * D + 3 * 10 * P)) < 1e-6);
	assert_true(fabs(sm->unexplained_stall) < 1e-6);
	assert_true(fabs(sm->unexplained_gain) < 1e-6);
	assert_true(fabs(sm->sampling_error) < 1e-6);
	double st = 0;
	for (int k = 0; k < SCHED__COUNT; k++)
		st += sm->static_stall[k];
	assert_true(fabs(sm->execution + st + sm->dyn_total - sm->unexplained_gain +
			 sm->sampling_error - sm->cycles) < 1e-6);
	assert_true(fabs(sm->cycles - (double)sm->samples * P) < 1e-6);
	assert_true(fabs(sm->execution - (20 * 100 + 6 * 10) * P) < 1e-6);
	assert_true(fabs(sm->insn_execs - (20 * 100 + 6 * 10) * P) < 1e-6);
	assert_true(fabs(sm->best_cpi - 1) < 1e-9);
	assert_true(sm->actual_cpi > 1);
	done();
}

/* Event samples bound culprits, and rule them out when there are none. */
static void test_event_bounds(void **state)
{
	struct uarch u = test_uarch();
	static uint64_t dmiss[MAXN], imiss[MAXN], misp[MAXN];
	size_t n = culprit_prog();

	memset(dmiss, 0, sizeof(dmiss));
	memset(imiss, 0, sizeof(imiss));
	memset(misp, 0, sizeof(misp));
	dmiss[3] = 5;         /* 500 misses at the load: <= 1 cycle per execution */
	imiss[3] = 2;         /* at the loop head; none at 16 */
	misp[22] = 1;         /* 100 mispredicts of the loop branch */
	analyze(n, &u);
	in.dmiss = (struct dcpi_event_samples){ dmiss, 100 };
	in.imiss = (struct dcpi_event_samples){ imiss, 100 };
	in.mispredict = (struct dcpi_event_samples){ misp, 100 };
	run();
	double X = 100 * P;
	assert_true(fabs(res.insns[4].bound[DCPI_C_DCACHE] - 5 * 100 * 200 / X) < 1e-9);
	assert_true(fabs(res.insns[3].bound[DCPI_C_ICACHE] - 2 * 100 * 200 / X) < 1e-9);
	assert_true(fabs(res.insns[3].bound[DCPI_C_MISPREDICT] - 100 * 15 / X) < 1e-9);
	/* 23 runs 10 P times: 100 mispredicts x 15 cycles / 10000 */
	assert_true(fabs(res.insns[23].bound[DCPI_C_MISPREDICT] - 100 * 15 / (10 * P)) < 1e-9);
	/* ruled out: no I-cache misses sampled at 16 */
	assert_int_equal(res.insns[16].culprits, 0);
	/* the D-TLB is not sampled: still guilty, unbounded */
	assert_true(res.insns[4].culprits & BIT(DCPI_C_DTLB));
	assert_true(res.insns[4].bound[DCPI_C_DTLB] < 0);

	const struct dcpi_summary *sm = &res.sum;
	double D = 2 * X;
	/* 16's stall has no culprit left; 23's mispredict explains 0.15 of its 3 cycles */
	assert_true(fabs(sm->unexplained_stall - (D + (3 - 0.15) * 10 * P)) < 1e-6);
	assert_true(fabs(sm->dyn_hi[DCPI_C_MISPREDICT] - (0.15 * 10 * P + 0.015 * X)) < 1e-6);
	/* 4: D-cache capped at 1 cycle, D-TLB and dependency unbounded */
	assert_true(fabs(sm->dyn_hi[DCPI_C_DCACHE] - (X + X * 1)) < 1e-6);
	done();
}

static void test_gain_and_unknown(void **state)
{
	/* a stall-free point below F (a gain) and samples where the count is unknown */
	static const struct spec s[] = { N_, N_, N_, N_, RET };
	size_t n = mk(s, 5);

	smp[0] = smp[1] = smp[2] = smp[4] = 1000;
	smp[3] = 600;
	analyze(n, NULL);
	run();
	assert_true(fabs(res.insns[3].dyn_stall + 0.4) < 1e-9);
	assert_true(fabs(res.sum.unexplained_gain - 0.4 * 1000 * P) < 1e-6);
	assert_int_equal(res.insns[3].culprits, 0);
	done();

	/* an unreached block with samples: counted as sampling error */
	static const struct spec s2[] = { N_, RET, N_, RET };
	n = mk(s2, 4);
	smp[0] = smp[1] = 100;
	smp[2] = 7;
	analyze(n, NULL);
	run();
	assert_true(res.blocks[g.block_of[2]].execs < 0);
	assert_int_equal(res.blocks[g.block_of[2]].conf, DCPI_CONF_NONE);
	assert_true(fabs(res.sum.sampling_error - 7 * P) < 1e-6);
	done();
}

/* A procedure of thousands of blocks: a loop over 1500 if-then-else diamonds. Every
 * block and edge gets its count, and the arms their own. */
static void test_large(void **state)
{
	enum { D = 1500, NB = 4 * D + 3 };
	struct insn *x = calloc(NB, sizeof(*x));
	struct sched_insn *sc = calloc(NB, sizeof(*sc));
	uint64_t *sm = calloc(NB, sizeof(*sm));
	size_t n = 0;

	assert_non_null(x);
	assert_non_null(sc);
	assert_non_null(sm);
	x[n++].flow = INSN_FLOW_NEXT;
	for (int d = 0; d < D; d++) {
		size_t at = n;

		x[n++].flow = INSN_FLOW_COND;      /* to the else arm */
		x[n++].flow = INSN_FLOW_JUMP;      /* then arm, to the join */
		x[n++].flow = INSN_FLOW_NEXT;      /* else arm */
		x[n++].flow = INSN_FLOW_NEXT;      /* join */
		x[at].target = BASE + 4 * (at + 2);
		x[at + 1].target = BASE + 4 * (at + 3);
		sm[at] = sm[at + 3] = 200;
		sm[at + 1] = 50 + (uint64_t)(d % 100);
		sm[at + 2] = 150 - (uint64_t)(d % 100);
	}
	x[n].flow = INSN_FLOW_COND;
	x[n++].target = BASE + 4;
	x[n++].flow = INSN_FLOW_RETURN;
	assert_int_equal(n, NB);
	sm[NB - 2] = 200;
	for (size_t i = 0; i < n; i++) {
		x[i].addr = BASE + 4 * i;
		x[i].size = 4;
		sc[i] = (struct sched_insn){ .M = 1, .culprit = -1 };
	}
	assert_int_equal(cfg_build(&g, x, n), 0);
	memset(&in, 0, sizeof(in));
	in.cfg = &g;
	in.sched = sc;
	in.samples = sm;
	in.period = P;
	run();
	assert_true(fabs(res.blocks[g.block_of[1]].execs - 200 * P) < 1e-6);
	for (int d = 0; d < D; d++) {
		size_t at = 1 + 4 * (size_t)d;

		assert_true(fabs(res.blocks[g.block_of[at + 1]].execs -
				 (50 + d % 100) * P) < 1e-6);
		assert_true(fabs(res.blocks[g.block_of[at + 2]].execs -
				 (150 - d % 100) * P) < 1e-6);
	}
	for (size_t e = 0; e < g.nedges; e++)
		assert_true(res.edges[e].execs >= 0);
	done();
	free(x);
	free(sc);
	free(sm);
}

/* Random procedures run a few times with exact samples (P = 1, S = count x M, no
 * stalls): every estimate made is exact, every block gets one, and propagation reaches
 * edges no block shares a class with. */
static void test_random_exact(void **state)
{
	static struct spec sp[40];
	static uint64_t bc[MAXN + 2], ec[4 * MAXN];
	int estimated_edges = 0, propagated = 0, procs = 0;

	for (int iter = 0; iter < 300; iter++) {
		size_t n = 6 + (size_t)(unif() * 30);

		for (size_t i = 0; i < n; i++) {
			double r = unif();

			sp[i] = (struct spec)N_;
			if (r < 0.25)
				sp[i] = (struct spec)COND((int)(unif() * (double)n));
			else if (r < 0.30)
				sp[i] = (struct spec){ INSN_FLOW_JUMP, (int)(unif() * (double)n) };
			else if (r < 0.34)
				sp[i] = (struct spec)RET;
		}
		mk(sp, n);
		analyze(n, NULL);
		in.period = 1;
		memset(bc, 0, sizeof(bc));
		memset(ec, 0, sizeof(ec));
		assert_true(g.nedges <= 4 * MAXN);
		int runs = 0;
		for (int run = 0; run < 20; run++) {
			static uint64_t rb[MAXN + 2], re[4 * MAXN];
			uint32_t b = 2;
			int ended = 0;

			memset(rb, 0, sizeof(rb));
			memset(re, 0, sizeof(re));
			for (int step = 0; step < 3000 && !ended; step++) {
				const struct cfg_block *bl = &g.blocks[b];
				uint32_t nreal = 0, pick;

				rb[b]++;
				for (uint32_t k = 0; k < bl->nout; k++)
					nreal += g.edges[g.out[bl->out_at + k]].kind !=
						 CFG_EDGE_LOOP_EXIT;
				pick = (uint32_t)(unif() * nreal);
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
				ended = b == CFG_EXIT;
			}
			if (!ended)
				continue;
			runs++;
			for (size_t k = 0; k < g.nblocks; k++)
				bc[k] += rb[k];
			for (size_t k = 0; k < g.nedges; k++)
				ec[k] += re[k];
			ec[g.out[g.blocks[CFG_ENTRY].out_at]]++;
		}
		if (!runs) {
			cfg_free(&g);
			continue;
		}
		procs++;
		for (size_t i = 0; i < n; i++)
			smp[i] = bc[g.block_of[i]] * sch[i].M;
		run();
		for (size_t b = 2; b < g.nblocks; b++) {
			if (g.blocks[b].cls == CFG_NO_CLASS)
				continue;
			assert_true(res.blocks[b].execs >= 0);
			assert_true(fabs(res.blocks[b].execs - (double)bc[b]) < 1e-6);
		}
		for (size_t e = 0; e < g.nedges; e++) {
			if (res.edges[e].execs < 0)
				continue;
			estimated_edges++;
			propagated += res.edges[e].how == DCPI_HOW_PROPAGATED;
			assert_true(fabs(res.edges[e].execs - (double)ec[e]) < 1e-6);
		}
		done();
	}
	assert_true(procs > 100);
	assert_true(estimated_edges > 1000);
	assert_true(propagated > 50);
}

static void test_bad_input(void **state)
{
	static const struct spec s[] = { RET };
	size_t n = mk(s, 1);

	analyze(n, NULL);
	in.period = 0;
	assert_int_equal(dcpi_analyze(&in, &res), -1);
	in.period = P;
	in.samples = NULL;
	assert_int_equal(dcpi_analyze(&in, &res), -1);
	assert_int_equal(dcpi_analyze(NULL, &res), -1);
	cfg_free(&g);
}

static void test_accuracy(void **state)
{
	struct dcpi_accuracy a = { 0 };

	dcpi_accuracy_add(&a, 105, 100, 1);     /* 5% */
	dcpi_accuracy_add(&a, 91, 100, 1);      /* 9% */
	dcpi_accuracy_add(&a, 114, 100, 2);     /* 14% */
	dcpi_accuracy_add(&a, 200, 100, 3);     /* off */
	dcpi_accuracy_add(&a, -1, 100, 3);      /* unknown: a miss */
	assert_int_equal(a.n, 5);
	assert_true(fabs(a.weight - 10) < 1e-12);
	assert_true(fabs(dcpi_accuracy_share(&a, 0) - 0.1) < 1e-12);
	assert_true(fabs(dcpi_accuracy_share(&a, 1) - 0.2) < 1e-12);
	assert_true(fabs(dcpi_accuracy_share(&a, 2) - 0.4) < 1e-12);
	assert_true(dcpi_accuracy_share(&a, 3) == 0);
	struct dcpi_accuracy z = { 0 };
	assert_true(dcpi_accuracy_share(&z, 0) == 0);
	dcpi_accuracy_add(&z, 0, 0, 1);          /* never run, estimated 0: exact */
	assert_true(fabs(dcpi_accuracy_share(&z, 0) - 1) < 1e-12);
}

/* The floor: P(|N / lambda - 1| <= p), N ~ Poisson(lambda), against values summed
 * independently; the normal approximation above 10^6; the weighted floor shares. */
static void test_noise_floor(void **state)
{
	struct dcpi_accuracy a = { 0 };

	assert_true(fabs(dcpi_poisson_within(100, 0.10) - 0.7065164768590241) < 1e-9);
	assert_true(fabs(dcpi_poisson_within(10, 0.05) - 0.12511003572113394) < 1e-9);
	assert_true(fabs(dcpi_poisson_within(1000, 0.05) - 0.8897644877470842) < 1e-9);
	assert_true(fabs(dcpi_poisson_within(30, 0.15) - 0.5889509608157866) < 1e-9);
	assert_true(fabs(dcpi_poisson_within(4e6, 0.0005) - 0.6828104623761754) < 1e-6);
	assert_true(dcpi_poisson_within(0, 0.1) == 0);
	assert_true(dcpi_poisson_within(-3, 0.1) == 0);
	assert_true(dcpi_poisson_within(0.3, 0.1) == 0);   /* no integer within 10% of 0.3 */
	assert_true(dcpi_poisson_within(1e9, 0.05) > 0.999999);
	/* more samples, a higher floor */
	assert_true(dcpi_poisson_within(400, 0.05) < dcpi_poisson_within(1600, 0.05));
	dcpi_accuracy_add(&a, 100, 100, 1);
	dcpi_accuracy_add_noise(&a, 10, 1);
	dcpi_accuracy_add(&a, 50, 100, 3);
	dcpi_accuracy_add_noise(&a, 1e9, 3);
	assert_true(fabs(dcpi_accuracy_share(&a, 0) - 0.25) < 1e-12);
	assert_true(fabs(dcpi_accuracy_floor(&a, 0) - (0.12511003572113394 + 3) / 4) < 1e-6);
	assert_true(dcpi_accuracy_floor(&a, 3) == 0);
	struct dcpi_accuracy z = { 0 };
	assert_true(dcpi_accuracy_floor(&z, 1) == 0);
}

static void test_names(void **state)
{
	assert_string_equal(dcpi_conf_name(DCPI_CONF_HIGH), "high");
	assert_string_equal(dcpi_conf_name(DCPI_CONF_MEDIUM), "medium");
	assert_string_equal(dcpi_conf_name(DCPI_CONF_LOW), "low");
	assert_string_equal(dcpi_conf_name(DCPI_CONF_NONE), "-");
	assert_string_equal(dcpi_culprit_name(DCPI_C_ICACHE), "I-cache");
	assert_string_equal(dcpi_culprit_name(DCPI_C_DEPENDENCY), "dependency");
	assert_string_equal(dcpi_how_name(DCPI_HOW_PROPAGATED), "propagated");
	assert_string_equal(dcpi_how_name(DCPI_HOW_RETIRED), "retired");
	for (unsigned c = 0; c < DCPI_C__COUNT; c++)
		assert_string_not_equal(dcpi_culprit_name(c), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cluster_recovers_F),
		cmocka_unit_test(test_copy_loop),
		cmocka_unit_test(test_out_of_order_block),
		cmocka_unit_test(test_few_samples),
		cmocka_unit_test(test_dependent_issue_point),
		cmocka_unit_test(test_noisy_samples),
		cmocka_unit_test(test_propagation),
		cmocka_unit_test(test_confidence),
		cmocka_unit_test(test_retired),
		cmocka_unit_test(test_culprits),
		cmocka_unit_test(test_event_bounds),
		cmocka_unit_test(test_gain_and_unknown),
		cmocka_unit_test(test_large),
		cmocka_unit_test(test_random_exact),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_accuracy),
		cmocka_unit_test(test_noise_floor),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
