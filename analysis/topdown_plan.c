/* SPDX-License-Identifier: BSD-2-Clause */
/* The Top-Down group planner (topdown.h): every node's events in one counter group, so a
 * subtraction never mixes counts from different time slices and every fraction has its
 * own cycles or slots beside it; groups shared where they fit; groups packed into runs. */
#include <string.h>

#include "topdown.h"

/* Counted without a GP counter: the cycles word on the fixed cycle counter, or a word with
 * no GP code at all (Intel PERF_METRICS fields, read beside fixed counter 3; where the CPU
 * lacks them they are unavailable and the formulas' ?? alternatives stand in). */
static int is_fixed_cycles(const struct td_model *m, unsigned e, const struct td_pmu *pmu)
{
	const char *w = m->event[e]->word;

	if (w && !m->event[e]->code)
		return 1;
	return pmu->fixed_cycles && w && !strcmp(w, "cycles");
}

unsigned topdown_group_gp(const struct td_model *m, uint64_t events, const struct td_pmu *pmu)
{
	unsigned n = 0;

	for (unsigned e = 0; e < m->nevents; e++)
		if ((events >> e & 1) && !is_fixed_cycles(m, e, pmu))
			n++;
	return n;
}

/* Augmenting path for event e over GP counters (bipartite matching). */
static int augment(const struct td_model *m, unsigned e, const struct td_pmu *pmu,
		   int owner[], unsigned *seen)
{
	uint32_t allowed = m->event[e]->counters ? m->event[e]->counters : 0xffffffffu;

	for (unsigned ctr = 0; ctr < pmu->gp && ctr < 32; ctr++) {
		if (!(allowed >> ctr & 1) || (*seen >> ctr & 1))
			continue;
		*seen |= 1u << ctr;
		if (owner[ctr] < 0 || augment(m, (unsigned)owner[ctr], pmu, owner, seen)) {
			owner[ctr] = (int)e;
			return 1;
		}
	}
	return 0;
}

int topdown_group_fits(const struct td_model *m, uint64_t events, const struct td_pmu *pmu)
{
	int owner[32];
	unsigned total = 0;

	for (unsigned i = 0; i < 32; i++)
		owner[i] = -1;
	if (topdown_group_gp(m, events, pmu) > pmu->gp)
		return 0;
	for (unsigned e = 0; e < m->nevents; e++) {
		unsigned seen = 0;

		if (!(events >> e & 1))
			continue;
		total++;
		if (is_fixed_cycles(m, e, pmu))
			continue;
		if (!augment(m, e, pmu, owner, &seen))
			return 0;
	}
	return total <= TD_GROUP_MAX && total <= pmu->events_per_pass;
}

uint64_t topdown_metrics_upto(const struct td_model *m, unsigned max_level)
{
	uint64_t w = 0;

	for (unsigned i = 0; i < m->nmetrics; i++)
		if (m->metric[i]->level >= 1 && m->metric[i]->level <= max_level)
			w |= 1ull << i;
	return w;
}

static unsigned popcount(uint64_t v)
{
	unsigned n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

int topdown_plan(const struct td_model *m, uint64_t wanted, const struct td_pmu *pmu,
		 struct td_plan *p)
{
	unsigned order[TD_MAX_NODES], n = 0;
	uint64_t need[TD_MAX_NODES];
	unsigned pass_events[TD_PLAN_MAX_GROUPS] = { 0 }, pass_groups[TD_PLAN_MAX_GROUPS] = { 0 };

	memset(p, 0, sizeof *p);
	p->wanted = wanted;
	for (unsigned i = 0; i < TD_MAX_NODES; i++)
		p->node_group[i] = -1;
	for (unsigned i = 0; i < m->nmetrics; i++) {
		if (!(wanted >> i & 1))
			continue;
		need[i] = topdown_metric_events(m, i);
		if (!need[i])
			continue;     /* a node of other nodes alone: nothing to count */
		order[n++] = i;
	}
	/* largest first (insertion sort keeps the table's order among equals) */
	for (unsigned a = 1; a < n; a++)
		for (unsigned b = a; b > 0 && popcount(need[order[b]]) > popcount(need[order[b - 1]]);
		     b--) {
			unsigned t = order[b];
			order[b] = order[b - 1];
			order[b - 1] = t;
		}
	for (unsigned k = 0; k < n; k++) {
		unsigned i = order[k];
		unsigned g;

		if (!topdown_group_fits(m, need[i], pmu)) {
			p->node_group[i] = -2;
			continue;
		}
		for (g = 0; g < p->ngroups; g++)
			if (topdown_group_fits(m, p->g[g].events | need[i], pmu))
				break;
		if (g == p->ngroups) {
			if (p->ngroups >= TD_PLAN_MAX_GROUPS)
				return -1;
			p->ngroups++;
		}
		p->g[g].events |= need[i];
		p->node_group[i] = (int)g;
	}
	/* runs: first fit by events (the runtime's table holds events_per_pass) */
	for (unsigned g = 0; g < p->ngroups; g++) {
		unsigned ne = popcount(p->g[g].events), r;

		for (r = 0; r < p->npasses; r++)
			if (pass_events[r] + ne <= pmu->events_per_pass)
				break;
		if (r == p->npasses)
			p->npasses++;
		pass_events[r] += ne;
		pass_groups[r]++;
		p->g[g].pass = r;
		if (pass_groups[r] > p->max_groups_per_pass)
			p->max_groups_per_pass = pass_groups[r];
	}
	return 0;
}
