/* SPDX-License-Identifier: BSD-2-Clause */
/* Exact counts (truth.h): lookups, the plugin's starts corrected into retirements, and
 * extrapolation in a work parameter. */
#include <stdlib.h>
#include <string.h>

#include "truth.h"

void truth_init(struct truth *t)
{
	memset(t, 0, sizeof *t);
}

void truth_free(struct truth *t)
{
	free(t->pcs);
	free(t->edges);
	truth_init(t);
}

uint64_t truth_count(const struct truth *t, uint64_t pc)
{
	size_t lo = 0, hi = t->npcs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->pcs[mid].pc < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->npcs && t->pcs[lo].pc == pc ? t->pcs[lo].count : 0;
}

static int edge_less(const struct truth_edge *e, uint64_t from, uint64_t to)
{
	return e->from < from || (e->from == from && e->to < to);
}

uint64_t truth_edge_count(const struct truth *t, uint64_t from, uint64_t to)
{
	size_t lo = 0, hi = t->nedges;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (edge_less(&t->edges[mid], from, to))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->nedges && t->edges[lo].from == from && t->edges[lo].to == to ?
		t->edges[lo].count : 0;
}

static int cmp_edge(const void *a, const void *b)
{
	const struct truth_edge *x = a, *y = b;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->to < y->to ? -1 : x->to > y->to;
}

/* ---- retirements ---- */

/* The faults at one instruction: how many are subtracted from its count c. */
static uint64_t faults_at(const struct truth_insn *in, const struct truth_fault *f,
			  uint64_t c, struct truth_fixes *fix)
{
	if (!in) {
		fix->outside += f->n;
		return 0;
	}
	if (f->kind == TRUTH_FAULT_FETCH || f->cr2_off < in->size) {
		fix->fetch_faults += f->n;
		return 0;
	}
	if (in->rep) {
		fix->rep_faults += f->n;
		return 0;
	}
	uint64_t sub = f->n < c ? f->n : c;
	fix->faulted += sub;
	fix->unmatched += f->n - sub;
	return sub;
}

int truth_build(const struct truth_raw *r, const struct truth_fault *f, size_t nf,
		struct truth *t)
{
	size_t k = 0;

	truth_free(t);
	t->pcs = malloc((r->ninsns ? r->ninsns : 1) * sizeof *t->pcs);
	t->edges = malloc((r->nedges ? r->nedges : 1) * sizeof *t->edges);
	if (!t->pcs || !t->edges) {
		truth_free(t);
		return -1;
	}
	for (size_t i = 0; i < r->ninsns; i++) {
		const struct truth_insn *in = &r->insns[i];
		uint64_t c = in->starts;

		if (in->rep) {
			c = in->execs < in->starts ? in->execs : in->starts;
			t->fix.rep_iterations += in->starts - c;
		}
		for (; k < nf && f[k].pc < in->pc; k++)
			faults_at(NULL, &f[k], 0, &t->fix);
		for (; k < nf && f[k].pc == in->pc; k++)
			c -= faults_at(in, &f[k], c, &t->fix);
		if (c)
			t->pcs[t->npcs++] = (struct truth_pc){ in->pc, c };
		t->total += c;
	}
	for (; k < nf; k++)
		faults_at(NULL, &f[k], 0, &t->fix);
	for (size_t i = 0; i < r->nedges; i++)
		if (r->edges[i].count)
			t->edges[t->nedges++] = r->edges[i];
	qsort(t->edges, t->nedges, sizeof *t->edges, cmp_edge);
	return 0;
}

/* ---- extrapolation ---- */

/* c = a + b k through (k1, c1), (k2, c2), at k: 0, or -1 if the slope is not a
 * non-negative integer or the count at k would be negative (a itself may be: a loop's
 * back edge runs b k - 1 times). */
static int line_at(uint64_t c1, uint64_t k1, uint64_t c2, uint64_t k2, uint64_t k, uint64_t *c)
{
	uint64_t b;

	if (c2 < c1 || (c2 - c1) % (k2 - k1))
		return -1;
	b = (c2 - c1) / (k2 - k1);
	if (k >= k1) {
		*c = c1 + b * (k - k1);
		return 0;
	}
	if (c1 < b * (k1 - k))
		return -1;
	*c = c1 - b * (k1 - k);
	return 0;
}

int truth_extrapolate(const struct truth *t1, uint64_t k1, const struct truth *t2,
		      uint64_t k2, uint64_t k, struct truth *out)
{
	size_t i = 0, j = 0;

	truth_init(out);
	if (k2 <= k1)
		return -1;
	out->pcs = malloc((t1->npcs + t2->npcs + 1) * sizeof *out->pcs);
	out->edges = malloc((t1->nedges + t2->nedges + 1) * sizeof *out->edges);
	if (!out->pcs || !out->edges)
		goto fail;
	while (i < t1->npcs || j < t2->npcs) {
		uint64_t pc, c1 = 0, c2 = 0, c;
		if (j == t2->npcs || (i < t1->npcs && t1->pcs[i].pc < t2->pcs[j].pc)) {
			pc = t1->pcs[i].pc;
			c1 = t1->pcs[i++].count;
		} else if (i == t1->npcs || t2->pcs[j].pc < t1->pcs[i].pc) {
			pc = t2->pcs[j].pc;
			c2 = t2->pcs[j++].count;
		} else {
			pc = t1->pcs[i].pc;
			c1 = t1->pcs[i++].count;
			c2 = t2->pcs[j++].count;
		}
		if (line_at(c1, k1, c2, k2, k, &c))
			goto fail;
		if (c)
			out->pcs[out->npcs++] = (struct truth_pc){ pc, c };
		out->total += c;
	}
	i = j = 0;
	while (i < t1->nedges || j < t2->nedges) {
		struct truth_edge e;
		uint64_t c1 = 0, c2 = 0;
		if (j == t2->nedges || (i < t1->nedges &&
		    edge_less(&t1->edges[i], t2->edges[j].from, t2->edges[j].to))) {
			e = t1->edges[i++];
			c1 = e.count;
		} else if (i == t1->nedges ||
			   edge_less(&t2->edges[j], t1->edges[i].from, t1->edges[i].to)) {
			e = t2->edges[j++];
			c2 = e.count;
		} else {
			e = t1->edges[i++];
			c1 = e.count;
			c2 = t2->edges[j++].count;
		}
		if (line_at(c1, k1, c2, k2, k, &e.count))
			goto fail;
		if (e.count)
			out->edges[out->nedges++] = e;
	}
	return 0;
fail:
	truth_free(out);
	return -1;
}

size_t truth_mismatch(const struct truth *a, const struct truth *b)
{
	size_t i = 0, j = 0, bad = 0;

	while (i < a->npcs || j < b->npcs) {
		if (j == b->npcs || (i < a->npcs && a->pcs[i].pc < b->pcs[j].pc)) {
			i++;
			bad++;
		} else if (i == a->npcs || b->pcs[j].pc < a->pcs[i].pc) {
			j++;
			bad++;
		} else {
			bad += a->pcs[i++].count != b->pcs[j++].count;
		}
	}
	i = j = 0;
	while (i < a->nedges || j < b->nedges) {
		if (j == b->nedges || (i < a->nedges &&
		    edge_less(&a->edges[i], b->edges[j].from, b->edges[j].to))) {
			i++;
			bad++;
		} else if (i == a->nedges ||
			   edge_less(&b->edges[j], a->edges[i].from, a->edges[i].to)) {
			j++;
			bad++;
		} else {
			bad += a->edges[i++].count != b->edges[j++].count;
		}
	}
	return bad;
}
