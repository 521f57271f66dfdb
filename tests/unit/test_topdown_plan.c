/* SPDX-License-Identifier: BSD-2-Clause */
/* The Top-Down group planner: the groups for known cases (the paper's level 1 in one group of
 * four GP counters and the fixed clock; a node too big for the PMU is unplaceable; counter
 * restrictions), and a property test over every family, PMU size and many metric sets:
 * every placed node's events (all operands of its subtractions with its cycles or slots) sit
 * in one group, no group needs more counters than the PMU has, and a node is refused only
 * when it cannot fit an empty PMU. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "topdown.h"

static struct td_model *model(const char *family)
{
	static struct td_model m;
	char err[300];

	if (topdown_select(&m, NULL, NULL, 0, 0, family, err, sizeof err))
		fail_msg("%s", err);
	return &m;
}

static uint64_t ev_bit(const struct td_model *m, const char *name)
{
	int k = topdown_event_index(m, name, (unsigned)strlen(name));

	if (k < 0)
		fail_msg("no event %s", name);
	return 1ull << k;
}

static int metric(const struct td_model *m, const char *name)
{
	int k = topdown_metric_index(m, name, (unsigned)strlen(name));

	if (k < 0)
		fail_msg("no node %s", name);
	return k;
}

static void test_metric_events(void **state)
{
	struct td_model *m = model("intel-skl");
	uint64_t l1 = ev_bit(m, "CPU_CLK_UNHALTED.THREAD") | ev_bit(m, "IDQ_UOPS_NOT_DELIVERED.CORE") |
		      ev_bit(m, "UOPS_ISSUED.ANY") | ev_bit(m, "UOPS_RETIRED.RETIRE_SLOTS") |
		      ev_bit(m, "INT_MISC.RECOVERY_CYCLES");

	(void)state;
	/* Backend Bound = 1 - (FE + BS + RET): every level-1 event in its group */
	assert_int_equal(topdown_metric_events(m, (unsigned)metric(m, "Backend_Bound")), l1);
	/* Retiring needs its slots (#SLOTS, an auxiliary, is inlined) */
	assert_int_equal(topdown_metric_events(m, (unsigned)metric(m, "Retiring")),
			 ev_bit(m, "CPU_CLK_UNHALTED.THREAD") | ev_bit(m, "UOPS_RETIRED.RETIRE_SLOTS"));
	/* Branch Mispredicts = fraction * Bad_Speculation: a product of fractions, so only
	 * its own events */
	assert_int_equal(topdown_metric_events(m, (unsigned)metric(m, "Branch_Mispredicts")),
			 ev_bit(m, "BR_MISP_RETIRED.ALL_BRANCHES") | ev_bit(m, "MACHINE_CLEARS.COUNT"));
	/* Fetch Bandwidth = Frontend - Fetch Latency: both sides, with the cycles */
	assert_int_equal(topdown_metric_events(m, (unsigned)metric(m, "Fetch_Bandwidth")),
			 ev_bit(m, "CPU_CLK_UNHALTED.THREAD") | ev_bit(m, "IDQ_UOPS_NOT_DELIVERED.CORE") |
			 ev_bit(m, "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE"));
}

static void test_plan_known(void **state)
{
	struct td_model *m = model("intel-skl");
	struct td_pmu pmu = { 4, 1, 16 };
	static struct td_plan p;
	int core;

	(void)state;
	/* level 1: one group, four GP counters and the fixed clock */
	assert_int_equal(topdown_plan(m, topdown_metrics_upto(m, 1), &pmu, &p), 0);
	assert_int_equal(p.ngroups, 1);
	assert_int_equal(p.npasses, 1);
	assert_int_equal(topdown_group_gp(m, p.g[0].events, &pmu), 4);
	/* without a fixed clock the cycles need a fifth GP counter: level 1 cannot be placed
	 * as a whole (Backend Bound), its parts can */
	pmu.fixed_cycles = 0;
	assert_int_equal(topdown_plan(m, topdown_metrics_upto(m, 1), &pmu, &p), 0);
	assert_int_equal(p.node_group[metric(m, "Backend_Bound")], -2);
	assert_true(p.node_group[metric(m, "Retiring")] >= 0);
	/* level 3: Core Bound (#ExecutionStalls - Memory Bound: six events under one
	 * subtraction) cannot be placed on Skylake, whose events all count on counters 0-3
	 * only, even with 8 counters (SMT off) */
	pmu.fixed_cycles = 1;
	core = metric(m, "Core_Bound");
	assert_int_equal(topdown_plan(m, topdown_metrics_upto(m, 3), &pmu, &p), 0);
	assert_int_equal(p.node_group[core], -2);
	assert_true(p.ngroups > 1);
	pmu.gp = 8;
	assert_int_equal(topdown_plan(m, topdown_metrics_upto(m, 3), &pmu, &p), 0);
	assert_int_equal(p.node_group[core], -2);
	/* Ice Lake's Core Bound needs five events of counters 0-7: not on 4, on 8 */
	m = model("intel-icl");
	core = metric(m, "Core_Bound");
	pmu.gp = 4;
	assert_int_equal(topdown_plan(m, topdown_metrics_upto(m, 2), &pmu, &p), 0);
	assert_int_equal(p.node_group[core], -2);
	pmu.gp = 8;
	assert_int_equal(topdown_plan(m, topdown_metrics_upto(m, 2), &pmu, &p), 0);
	assert_true(p.node_group[core] >= 0);
	/* a small runtime table: more runs */
	pmu.gp = 4;
	pmu.events_per_pass = 6;
	assert_int_equal(topdown_plan(m, topdown_metrics_upto(m, 3), &pmu, &p), 0);
	assert_true(p.npasses > 1);
}

/* Ice Lake's level 1: the PERF_METRICS fields beside the generic events (a ?? b keeps both
 * in the group), the fields on no GP counter. */
static void test_plan_perf_metrics(void **state)
{
	struct td_model *m = model("intel-icl");
	struct td_pmu pmu = { 8, 1, 16 };
	static struct td_plan p;
	uint64_t pm = ev_bit(m, "PERF_METRICS.RETIRING") | ev_bit(m, "PERF_METRICS.BAD_SPECULATION") |
		      ev_bit(m, "PERF_METRICS.FRONTEND_BOUND") | ev_bit(m, "PERF_METRICS.BACKEND_BOUND");
	uint64_t ret = topdown_metric_events(m, (unsigned)metric(m, "Retiring"));
	int bs = metric(m, "Bad_Speculation");

	(void)state;
	/* Retiring: the four fields (#PM_SLOTS), or UOPS_RETIRED.SLOTS / TOPDOWN.SLOTS_P */
	assert_int_equal(ret, pm | ev_bit(m, "UOPS_RETIRED.SLOTS") | ev_bit(m, "TOPDOWN.SLOTS_P"));
	assert_int_equal(topdown_group_gp(m, ret, &pmu), 2);
	/* Bad Speculation needs all of level 1: 6 generic events on GP counters, 4 fields */
	assert_int_equal(topdown_group_gp(m, topdown_metric_events(m, (unsigned)bs), &pmu), 6);
	assert_int_equal(topdown_plan(m, topdown_metrics_upto(m, 1), &pmu, &p), 0);
	assert_int_equal(p.ngroups, 1);
	assert_true(p.node_group[bs] >= 0);
	assert_int_equal(p.g[0].events & pm, pm);
	/* 6 GP counters are enough, 5 are not */
	pmu.gp = 6;
	assert_int_equal(topdown_plan(m, topdown_metrics_upto(m, 1), &pmu, &p), 0);
	assert_true(p.node_group[bs] >= 0);
	pmu.gp = 5;
	assert_int_equal(topdown_plan(m, topdown_metrics_upto(m, 1), &pmu, &p), 0);
	assert_int_equal(p.node_group[bs], -2);
}

/* Counter restrictions: IVB's CYCLE_ACTIVITY.STALLS_L1D_MISS counts on counter 2 only. */
static void test_counter_restrictions(void **state)
{
	struct td_model *m = model("intel-ivb");
	static struct td_model two;
	static struct td_event_def only2[2];
	struct td_pmu pmu = { 4, 1, 16 };
	uint64_t l1d = ev_bit(m, "CYCLE_ACTIVITY.STALLS_L1D_MISS");

	(void)state;
	assert_true(topdown_group_fits(m, l1d, &pmu));
	pmu.gp = 2;     /* counters 0 and 1 only: it has nowhere to go */
	assert_false(topdown_group_fits(m, l1d, &pmu));
	/* two events that both need counter 2 never share a group */
	two = *m;
	only2[0] = *m->event[0];
	only2[1] = *m->event[1];
	only2[0].counters = only2[1].counters = 1u << 2;
	two.event[0] = &only2[0];
	two.event[1] = &only2[1];
	pmu.gp = 4;
	assert_true(topdown_group_fits(&two, 1, &pmu));
	assert_false(topdown_group_fits(&two, 3, &pmu));
	/* one on counter 2 and one anywhere: the matching moves the free one */
	only2[1].counters = 0;
	assert_true(topdown_group_fits(&two, 3, &pmu));
}

static uint64_t rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void check_plan(const struct td_model *m, uint64_t wanted, const struct td_pmu *pmu)
{
	static struct td_plan p;
	unsigned per_pass[TD_PLAN_MAX_GROUPS] = { 0 };

	assert_int_equal(topdown_plan(m, wanted, pmu, &p), 0);
	for (unsigned g = 0; g < p.ngroups; g++) {
		/* never more than the counters the CPU has, respecting each event's counters */
		assert_true(topdown_group_fits(m, p.g[g].events, pmu));
		assert_true(topdown_group_gp(m, p.g[g].events, pmu) <= pmu->gp);
		assert_true(p.g[g].pass < p.npasses);
		for (unsigned e = 0; e < m->nevents; e++)
			per_pass[p.g[g].pass] += (unsigned)(p.g[g].events >> e & 1);
	}
	for (unsigned r = 0; r < p.npasses; r++)
		assert_true(per_pass[r] <= pmu->events_per_pass);
	for (unsigned i = 0; i < m->nmetrics; i++) {
		uint64_t need = topdown_metric_events(m, i);

		if (!(wanted >> i & 1)) {
			assert_int_equal(p.node_group[i], -1);
			continue;
		}
		if (!need)
			continue;
		if (p.node_group[i] == -2) {
			/* refused only when it cannot fit an empty PMU */
			assert_false(topdown_group_fits(m, need, pmu));
			continue;
		}
		/* never split: every operand of every subtraction in the node's one group */
		assert_true(p.node_group[i] >= 0 && (unsigned)p.node_group[i] < p.ngroups);
		assert_int_equal(p.g[p.node_group[i]].events & need, need);
	}
}

static void test_plan_property(void **state)
{
	static const char *fams[] = { "intel-ivb", "intel-skl", "intel-icl", "intel-spr",
				      "amd-zen4", "amd-zen5", "arm-pmuv3" };
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	unsigned runs = 0;

	(void)state;
	for (unsigned f = 0; f < sizeof fams / sizeof fams[0]; f++) {
		struct td_model *m = model(fams[f]);
		uint64_t all = topdown_metrics_upto(m, TD_MAX_LEVEL);

		for (unsigned gp = 1; gp <= 8; gp += gp < 4 ? 1 : 2)
			for (int fixed = 0; fixed <= 1; fixed++)
				for (unsigned per = 4; per <= 16; per += 6) {
					struct td_pmu pmu = { gp, fixed, per };

					for (unsigned lvl = 1; lvl <= TD_MAX_LEVEL; lvl++)
						check_plan(m, topdown_metrics_upto(m, lvl), &pmu);
					for (unsigned i = 0; i < m->nmetrics; i++)
						for (unsigned j = i; j < m->nmetrics; j++)
							check_plan(m, ((1ull << i) | (1ull << j)) & all,
								   &pmu);
					for (unsigned k = 0; k < 60; k++)
						check_plan(m, rng(&seed) & all, &pmu);
					runs++;
				}
	}
	assert_true(runs == 7 * 6 * 2 * 3);   /* gp 1, 2, 3, 4, 6, 8 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_metric_events),
		cmocka_unit_test(test_plan_known),
		cmocka_unit_test(test_plan_perf_metrics),
		cmocka_unit_test(test_counter_restrictions),
		cmocka_unit_test(test_plan_property),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
