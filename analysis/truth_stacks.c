/* SPDX-License-Identifier: BSD-2-Clause */
/* Exact inclusive counts per function from the plugin's calling contexts (truth.h).
 *
 * Every function name gets a dense id. Per node, the ids of its callers' frames (the
 * frames of every return address on its path from the root) are gathered once, walking
 * up; per run, each instruction's own frames are added to them, and each distinct id on
 * the result gets the run's count: a stamp per id (the instruction's sequence number)
 * keeps a recursive function to one count per instruction. */
#include <stdlib.h>
#include <string.h>

#include "truth.h"

struct names {
	const char **v;            /* by id */
	size_t n, cap;
	size_t *slot;              /* id + 1 by hash; 0 free */
	size_t mask;
	struct truth_incl *acc;    /* by id */
	uint64_t *stamp;           /* by id */
};

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static int names_rehash(struct names *t)
{
	size_t mask = t->mask ? 2 * t->mask + 1 : 1023;
	size_t *m = calloc(mask + 1, sizeof *m);

	if (!m)
		return -1;
	for (size_t i = 0; i < t->n; i++) {
		size_t j = (size_t)str_hash(t->v[i]) & mask;
		while (m[j])
			j = (j + 1) & mask;
		m[j] = i + 1;
	}
	free(t->slot);
	t->slot = m;
	t->mask = mask;
	return 0;
}

/* The id of name, made when new; -1 out of memory. */
static long name_id(struct names *t, const char *name)
{
	size_t j;

	if (2 * (t->n + 1) > t->mask + 1 && names_rehash(t))
		return -1;
	for (j = (size_t)str_hash(name) & t->mask; t->slot[j]; j = (j + 1) & t->mask)
		if (!strcmp(t->v[t->slot[j] - 1], name))
			return (long)(t->slot[j] - 1);
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 256;
		const char **v = realloc(t->v, cap * sizeof *v);
		struct truth_incl *a = v ? realloc(t->acc, cap * sizeof *a) : NULL;
		uint64_t *st = a ? realloc(t->stamp, cap * sizeof *st) : NULL;
		if (v)
			t->v = v;
		if (a)
			t->acc = a;
		if (!st)
			return -1;
		t->stamp = st;
		t->cap = cap;
	}
	t->v[t->n] = name;
	t->acc[t->n] = (struct truth_incl){ name, 0, 0 };
	t->stamp[t->n] = 0;
	t->slot[j] = ++t->n;
	return (long)(t->n - 1);
}

/* The index of the instruction of r holding address a, or (size_t)-1. */
static size_t insn_at(const struct truth_raw *r, uint64_t a)
{
	size_t lo = 0, hi = r->ninsns;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->insns[mid].pc <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || a - r->insns[lo - 1].pc >= r->insns[lo - 1].size)
		return (size_t)-1;
	return lo - 1;
}

struct ids {
	uint32_t *v;
	size_t n, cap;
};

static int ids_push(struct ids *b, uint32_t id)
{
	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 64;
		uint32_t *v = realloc(b->v, cap * sizeof *v);
		if (!v)
			return -1;
		b->v = v;
		b->cap = cap;
	}
	b->v[b->n++] = id;
	return 0;
}

/* The ids of the functions at a, appended to b; the innermost in *inner (-1: none). */
static int frames_at(struct names *t, truth_names_fn fn, void *ctx, uint64_t a, struct ids *b,
		     long *inner)
{
	const char *nm[TRUTH_NAMES_MAX];
	int k = fn(ctx, a, nm, TRUTH_NAMES_MAX);

	if (inner)
		*inner = -1;
	if (k < 0)
		return -1;
	for (int i = 0; i < k; i++) {
		long id = name_id(t, nm[i]);
		if (id < 0 || ids_push(b, (uint32_t)id))
			return -1;
		if (inner)
			*inner = id;
	}
	return 0;
}

/* Each node's callers' ids, each once: node i's are v[off[i] .. off[i + 1]), its parent's
 * and then its own frame's. handler[i]: it is under an exception frame. */
struct callers {
	struct ids all;
	size_t *off;
	uint8_t *handler;
};

static int callers_fill(const struct truth_raw *r, struct names *t, truth_names_fn fn,
			void *ctx, struct callers *c, uint64_t *seq, struct ids *own)
{
	c->off = malloc((r->nnodes + 1) * sizeof *c->off);
	c->handler = calloc(r->nnodes ? r->nnodes : 1, 1);
	if (!c->off || !c->handler)
		return -1;
	c->off[0] = 0;
	c->off[1] = 0;
	for (size_t i = 1; i < r->nnodes; i++) {
		const struct truth_node *nd = &r->nodes[i];
		size_t p0 = c->off[nd->parent], p1 = c->off[nd->parent + 1];
		c->handler[i] = c->handler[nd->parent] || nd->kind == 'q';
		++*seq;
		for (size_t k = p0; k < p1; k++) {
			t->stamp[c->all.v[k]] = *seq;
			if (ids_push(&c->all, c->all.v[k]))
				return -1;
		}
		if (nd->kind == 'c' && nd->addr && insn_at(r, nd->addr - 1) != (size_t)-1) {
			own->n = 0;
			if (frames_at(t, fn, ctx, nd->addr - 1, own, NULL))
				return -1;
			for (size_t k = 0; k < own->n; k++) {
				if (t->stamp[own->v[k]] == *seq)
					continue;
				t->stamp[own->v[k]] = *seq;
				if (ids_push(&c->all, own->v[k]))
					return -1;
			}
		}
		c->off[i + 1] = c->all.n;
	}
	return 0;
}

static int callers_build(const struct truth_raw *r, struct names *t, truth_names_fn fn,
			 void *ctx, struct callers *c, uint64_t *seq)
{
	struct ids own = { 0 };
	int rc = callers_fill(r, t, fn, ctx, c, seq, &own);

	free(own.v);
	return rc;
}

static int cmp_incl(const void *a, const void *b)
{
	const struct truth_incl *x = a, *y = b;

	if (x->inclusive != y->inclusive)
		return x->inclusive < y->inclusive ? 1 : -1;
	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* One run: count executions of its instructions in its node. */
static int credit_run(const struct truth_raw *r, const struct truth_ctx_run *x,
		      const struct callers *c, struct names *t, truth_names_fn fn, void *ctx,
		      long root, uint64_t *seq, struct truth_stacks *out)
{
	size_t k = insn_at(r, x->start);
	uint64_t pc = x->start;
	struct ids leaf = { 0 };
	uint32_t done = 0;
	int rc = 0;

	if (c->handler[x->node]) {
		out->in_handlers += x->count * x->n;
		return 0;
	}
	for (; done < x->n && k < r->ninsns && r->insns[k].pc == pc; done++) {
		long inner;
		leaf.n = 0;
		pc += r->insns[k++].size;
		if (frames_at(t, fn, ctx, pc - r->insns[k - 1].size, &leaf, &inner)) {
			rc = -1;
			break;
		}
		++*seq;
		for (size_t i = c->off[x->node]; i < c->off[x->node + 1]; i++)
			t->stamp[c->all.v[i]] = *seq;
		for (size_t i = 0; i < leaf.n; i++)
			t->stamp[leaf.v[i]] = *seq;
		if (root >= 0 && t->stamp[root] != *seq) {
			out->outside_root += x->count;
			continue;
		}
		++*seq;
		for (size_t i = c->off[x->node]; i < c->off[x->node + 1]; i++) {
			t->stamp[c->all.v[i]] = *seq;
			t->acc[c->all.v[i]].inclusive += x->count;
		}
		for (size_t i = 0; i < leaf.n; i++) {
			uint32_t id = leaf.v[i];
			if (t->stamp[id] != *seq) {
				t->stamp[id] = *seq;
				t->acc[id].inclusive += x->count;
			}
		}
		if (inner >= 0)
			t->acc[inner].self += x->count;
		out->total += x->count;
	}
	out->unplaced += x->count * (x->n - done);
	free(leaf.v);
	return rc;
}

int truth_stacks_build(const struct truth_raw *r, truth_names_fn fn, void *ctx,
		       const char *root, struct truth_stacks *out)
{
	struct names t = { 0 };
	struct callers c = { 0 };
	uint64_t seq = 0;
	long root_id = -1;
	int rc = -1;

	memset(out, 0, sizeof *out);
	if (!r->nnodes)
		return -1;
	if (names_rehash(&t) || (root && (root_id = name_id(&t, root)) < 0) ||
	    callers_build(r, &t, fn, ctx, &c, &seq))
		goto done;
	for (size_t i = 0; i < r->nruns; i++)
		if (credit_run(r, &r->runs[i], &c, &t, fn, ctx, root_id, &seq, out))
			goto done;
	out->fns = malloc((t.n ? t.n : 1) * sizeof *out->fns);
	if (!out->fns)
		goto done;
	for (size_t i = 0; i < t.n; i++)
		if (t.acc[i].inclusive)
			out->fns[out->n++] = t.acc[i];
	qsort(out->fns, out->n, sizeof *out->fns, cmp_incl);
	rc = 0;
done:
	if (rc)
		truth_stacks_free(out);
	free(t.v);
	free(t.slot);
	free(t.acc);
	free(t.stamp);
	free(c.all.v);
	free(c.off);
	free(c.handler);
	return rc;
}

void truth_stacks_free(struct truth_stacks *s)
{
	free(s->fns);
	memset(s, 0, sizeof *s);
}
