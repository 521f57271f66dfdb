/* SPDX-License-Identifier: BSD-2-Clause */
/* dcpi_analyze: runs the steps of DCPI's analysis (dcpi_steps.h) over one procedure. */
#include "dcpi.h"

#include <stdlib.h>
#include <string.h>
#include "dcpi_steps.h"

void dcpi_result_free(struct dcpi_result *r)
{
	free(r->insns);
	free(r->blocks);
	free(r->edges);
	free(r->classes);
	memset(r, 0, sizeof(*r));
}

/* Blocks and edges take their class's estimate. */
static void fill_from_classes(const struct cfg *g, const struct dcpi_input *in,
			      struct dcpi_result *r)
{
	for (size_t b = 0; b < g->nblocks; b++) {
		uint32_t c = g->blocks[b].cls;

		if (c == CFG_NO_CLASS || r->classes[c].F < 0)
			continue;
		r->blocks[b].execs = r->classes[c].F * in->period;
		r->blocks[b].conf = r->classes[c].conf;
		r->blocks[b].how = r->classes[c].how;
	}
	for (size_t e = 0; e < g->nedges; e++) {
		uint32_t c = g->edges[e].cls;

		if (c == CFG_NO_CLASS || r->classes[c].F < 0)
			continue;
		r->edges[e].execs = r->classes[c].F * in->period;
		r->edges[e].conf = r->classes[c].conf;
		r->edges[e].how = r->classes[c].how;
	}
}

int dcpi_analyze(const struct dcpi_input *in, struct dcpi_result *out)
{
	memset(out, 0, sizeof(*out));
	if (!in || !in->cfg || !in->samples || !in->sched || !(in->period > 0))
		return -1;
	const struct cfg *g = in->cfg;
	size_t nc = g->nclasses ? g->nclasses : 1;

	out->insns = calloc(g->ninsns ? g->ninsns : 1, sizeof(*out->insns));
	out->blocks = calloc(g->nblocks ? g->nblocks : 1, sizeof(*out->blocks));
	out->edges = calloc(g->nedges ? g->nedges : 1, sizeof(*out->edges));
	out->classes = calloc(nc, sizeof(*out->classes));
	if (!out->insns || !out->blocks || !out->edges || !out->classes)
		goto fail;
	for (size_t i = 0; i < g->ninsns; i++) {
		struct dcpi_insn *x = &out->insns[i];

		x->samples = in->samples[i];
		x->execs = x->cpe = x->retired_execs = -1;
		x->dep_on = -1;
		for (int c = 0; c < DCPI_C__COUNT; c++)
			x->bound[c] = -1;
	}
	for (size_t b = 0; b < g->nblocks; b++) {
		out->blocks[b].execs = -1;
		out->blocks[b].best_cpi = out->blocks[b].actual_cpi = -1;
	}
	for (size_t e = 0; e < g->nedges; e++)
		out->edges[e].execs = -1;
	for (size_t c = 0; c < g->nclasses; c++)
		out->classes[c].F = -1;
	if (dcpi_estimate_classes(in, out) || dcpi_propagate(in, out))
		goto fail;
	fill_from_classes(g, in, out);
	if (dcpi_explain(in, out))
		goto fail;
	dcpi_summarize(in, out);
	return 0;
fail:
	dcpi_result_free(out);
	return -1;
}

const char *dcpi_conf_name(unsigned conf)
{
	static const char *const n[] = { "-", "low", "medium", "high" };

	return conf < 4 ? n[conf] : "-";
}

const char *dcpi_culprit_name(unsigned c)
{
	static const char *const n[DCPI_C__COUNT] = {
		"I-cache", "I-TLB", "D-cache", "D-TLB", "mispredict", "write buffer",
		"unit busy", "dependency",
	};

	return c < DCPI_C__COUNT ? n[c] : "?";
}

const char *dcpi_how_name(unsigned how)
{
	static const char *const n[] = { "none", "cluster", "sum", "propagated", "retired" };

	return how < 5 ? n[how] : "?";
}
