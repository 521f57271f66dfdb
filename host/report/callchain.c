/* SPDX-License-Identifier: BSD-2-Clause */
/* Symbolized call chains: folding, shares and the call-graph text (callchain.h). */
#include <stdlib.h>
#include <string.h>
#include "report/callchain.h"
#include "flat.h"
#include "util/util.h"

struct names {
	const char **v;
	unsigned n, cap;
};

static int push(struct names *b, const char *s)
{
	if (b->n == b->cap) {
		unsigned cap = b->cap ? 2 * b->cap : 64;
		const char **v = realloc(b->v, cap * sizeof *v);
		if (!v)
			return -1;
		b->v = v;
		b->cap = cap;
	}
	b->v[b->n++] = s;
	return 0;
}

static int lookup(struct resolved *r, uint64_t pc, struct sym_result *out)
{
	if (!r->sym || resolve_outside(r, pc))
		return -1;
	return symbolizer_lookup(r->sym, pc - r->load_bias, out) ? -1 : 0;
}

/* The functions at pc, outermost first (inlined ones after the one they are inlined in). */
static int expand(struct resolved *r, uint64_t pc, struct names *b)
{
	struct sym_result s;

	if (lookup(r, pc, &s))
		return push(b, r->sym && resolve_outside(r, pc) ? "[firmware]" : "[unknown]");
	if (!s.nframes)
		return push(b, s.symbol ? s.symbol : "[unknown]");
	for (unsigned i = s.nframes; i-- > 0;)
		if (push(b, strcmp(s.frames[i].function, "??") ? s.frames[i].function :
			 s.symbol ? s.symbol : "[unknown]"))
			return -1;
	return 0;
}

/* A maybe-stale link register is the leaf's caller unless it is in the leaf's function. */
static int keep_lr(struct resolved *r, uint64_t pc, uint64_t lr)
{
	struct sym_result a, b;
	uint64_t sa;

	if (lookup(r, pc, &a) || !a.symbol)
		return 1;
	sa = a.sym_start;
	if (lookup(r, lr - 1, &b) || !b.symbol)
		return 1;
	return b.sym_start != sa;
}

unsigned stacks_chain_addrs(const struct profile *p, struct resolved *r,
			    const struct profile_stack_sample *s, uint64_t *out)
{
	unsigned n = 0;

	out[n++] = s->pc;
	if (s->stack != PROFILE_STACK_NONE && s->stack < p->nstacks) {
		const struct profile_stack *st = &p->stacks[s->stack];
		const uint64_t *f = p->stack_frames + st->off;
		unsigned first = (st->flags & BMPROF_STACKF_LR_MAYBE) && st->depth &&
				 !keep_lr(r, s->pc, f[0]);
		for (unsigned i = first; i < st->depth; i++)
			out[n++] = f[i] - 1;
	}
	return n;
}

static int chain_names(const struct profile *p, struct resolved *r,
		       const struct profile_stack_sample *s, struct names *b)
{
	b->n = 0;
	if (s->stack != PROFILE_STACK_NONE && s->stack < p->nstacks) {
		const struct profile_stack *st = &p->stacks[s->stack];
		const uint64_t *f = p->stack_frames + st->off;
		unsigned first = 0;
		if ((st->flags & BMPROF_STACKF_LR_MAYBE) && st->depth && !keep_lr(r, s->pc, f[0]))
			first = 1;
		for (unsigned i = st->depth; i-- > first;)
			if (expand(r, f[i] - 1, b))
				return -1;
	}
	return expand(r, s->pc, b);
}

/* ---- rows, merged by a hash of their names ---- */

struct table {
	struct stack_folded *f;
	size_t *slot;              /* row index + 1; 0 free */
	size_t mask, cap;
};

static uint64_t hash_names(const char *const *v, unsigned n)
{
	uint64_t h = 1469598103934665603ull;

	for (unsigned i = 0; i < n; i++) {
		for (const char *c = v[i]; *c; c++)
			h = (h ^ (unsigned char)*c) * 1099511628211ull;
		h = (h ^ 0xff) * 1099511628211ull;
	}
	return h;
}

static int same_names(const struct stack_row *row, const char *const *v, unsigned n)
{
	if (row->n != n)
		return 0;
	for (unsigned i = 0; i < n; i++)
		if (row->names[i] != v[i] && strcmp(row->names[i], v[i]))
			return 0;
	return 1;
}

static int rehash(struct table *t)
{
	size_t nmask = t->mask ? 2 * t->mask + 1 : 255;
	size_t *ns = calloc(nmask + 1, sizeof *ns);

	if (!ns)
		return -1;
	for (size_t i = 0; i < t->f->n; i++) {
		const struct stack_row *row = &t->f->rows[i];
		size_t k = (size_t)hash_names(row->names, row->n) & nmask;
		while (ns[k])
			k = (k + 1) & nmask;
		ns[k] = i + 1;
	}
	free(t->slot);
	t->slot = ns;
	t->mask = nmask;
	return 0;
}

static int add_row(struct table *t, const struct names *b, uint64_t count)
{
	struct stack_folded *f = t->f;
	size_t k;

	if (2 * (f->n + 1) > t->mask + 1 && rehash(t))
		return -1;
	k = (size_t)hash_names(b->v, b->n) & t->mask;
	for (; t->slot[k]; k = (k + 1) & t->mask) {
		struct stack_row *row = &f->rows[t->slot[k] - 1];
		if (same_names(row, b->v, b->n)) {
			row->count += count;
			return 0;
		}
	}
	if (f->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 256;
		struct stack_row *rows = realloc(f->rows, cap * sizeof *rows);
		if (!rows)
			return -1;
		f->rows = rows;
		t->cap = cap;
	}
	const char **names = malloc(b->n * sizeof *names);
	if (!names)
		return -1;
	memcpy(names, b->v, b->n * sizeof *names);
	f->rows[f->n] = (struct stack_row){ names, b->n, count };
	t->slot[k] = ++f->n;
	return 0;
}

static int cmp_rows(const void *a, const void *b)
{
	const struct stack_row *x = a, *y = b;

	for (unsigned i = 0; i < x->n && i < y->n; i++) {
		int c = strcmp(x->names[i], y->names[i]);
		if (c)
			return c;
	}
	return (x->n > y->n) - (x->n < y->n);
}

int stacks_fold(const struct profile *p, struct resolved *r, int event, int cpu,
		struct stack_folded *f)
{
	struct table t = { .f = f };
	struct names b = { 0 };
	int rc = 0;

	*f = (struct stack_folded){ 0 };
	for (size_t i = 0; i < p->nstack_samples && !rc; i++) {
		const struct profile_stack_sample *s = &p->stack_samples[i];
		if ((event != FLAT_ALL_EVENTS && s->event != event) || (cpu >= 0 && s->cpu != cpu))
			continue;
		rc = chain_names(p, r, s, &b) || add_row(&t, &b, s->count);
		f->total += s->count;
		if (s->stack == PROFILE_STACK_NONE)
			f->no_chain += s->count;
	}
	free(t.slot);
	free(b.v);
	if (rc) {
		stacks_folded_free(f);
		return -1;
	}
	qsort(f->rows, f->n, sizeof *f->rows, cmp_rows);
	return 0;
}

void stacks_folded_free(struct stack_folded *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->rows[i].names);
	free(f->rows);
	*f = (struct stack_folded){ 0 };
}

/* ---- shares ---- */

static int cmp_share_name(const void *a, const void *b)
{
	return strcmp(((const struct stack_share *)a)->name, ((const struct stack_share *)b)->name);
}

static int cmp_share(const void *a, const void *b)
{
	const struct stack_share *x = a, *y = b;

	if (x->children != y->children)
		return x->children < y->children ? 1 : -1;
	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	return strcmp(x->name, y->name);
}

int stacks_shares(const struct stack_folded *f, struct stack_share **out, size_t *n)
{
	struct stack_share *v = NULL, key;
	size_t nv = 0, cap = 0;

	/* every name once, sorted, then counted by binary search */
	for (size_t i = 0; i < f->n; i++)
		for (unsigned j = 0; j < f->rows[i].n; j++) {
			if (nv == cap) {
				size_t c = cap ? 2 * cap : 256;
				struct stack_share *w = realloc(v, c * sizeof *w);
				if (!w) {
					free(v);
					return -1;
				}
				v = w;
				cap = c;
			}
			v[nv++] = (struct stack_share){ f->rows[i].names[j], 0, 0 };
		}
	if (nv)
		qsort(v, nv, sizeof *v, cmp_share_name);
	size_t u = 0;
	for (size_t i = 0; i < nv; i++)
		if (!u || strcmp(v[u - 1].name, v[i].name))
			v[u++] = v[i];
	nv = u;
	for (size_t i = 0; i < f->n; i++) {
		const struct stack_row *row = &f->rows[i];
		for (unsigned j = 0; j < row->n; j++) {
			unsigned k = 0;
			while (k < j && strcmp(row->names[k], row->names[j]))
				k++;
			key.name = row->names[j];
			struct stack_share *s = bsearch(&key, v, nv, sizeof *v, cmp_share_name);
			if (k == j)
				s->children += row->count;
			if (j + 1 == row->n)
				s->self += row->count;
		}
	}
	if (nv)
		qsort(v, nv, sizeof *v, cmp_share);
	*out = v;
	*n = nv;
	return 0;
}

/* ---- the call graph ---- */

struct group {
	size_t lo, hi;
	uint64_t count;
};

static int cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return (x->lo > y->lo) - (x->lo < y->lo);
}

/* rows[lo, hi) share their first depth names and are sorted: those going deeper group by
 * the next name. */
static int print_level(FILE *out, const struct stack_row *rows, size_t lo, size_t hi,
		       unsigned depth, uint64_t total, double min_percent)
{
	struct group *g = NULL;
	size_t ng = 0;

	for (size_t i = lo; i < hi; i++) {
		if (rows[i].n <= depth)
			continue;
		if (ng && g[ng - 1].hi == i &&
		    !strcmp(rows[g[ng - 1].lo].names[depth], rows[i].names[depth])) {
			g[ng - 1].hi = i + 1;
			g[ng - 1].count += rows[i].count;
			continue;
		}
		struct group *h = realloc(g, (ng + 1) * sizeof *g);
		if (!h) {
			free(g);
			return -1;
		}
		g = h;
		g[ng++] = (struct group){ i, i + 1, rows[i].count };
	}
	if (ng)
		qsort(g, ng, sizeof *g, cmp_group);
	for (size_t k = 0; k < ng; k++) {
		double pct = total ? 100.0 * (double)g[k].count / (double)total : 0;
		if (pct < min_percent)
			continue;
		fprintf(out, "%*s%6.2f%%  %10llu  %s\n", (int)(2 * depth), "", pct,
			(unsigned long long)g[k].count, rows[g[k].lo].names[depth]);
		if (print_level(out, rows, g[k].lo, g[k].hi, depth + 1, total, min_percent)) {
			free(g);
			return -1;
		}
	}
	free(g);
	return 0;
}

int stacks_print_graph(FILE *out, const struct stack_folded *f, enum stacks_order order,
		       double min_percent)
{
	struct stack_row *rows = f->rows;
	int rc;

	if (order == STACKS_CALLEE) {
		rows = malloc((f->n ? f->n : 1) * sizeof *rows);
		if (!rows)
			return -1;
		for (size_t i = 0; i < f->n; i++) {
			rows[i] = f->rows[i];
			rows[i].names = malloc((f->rows[i].n ? f->rows[i].n : 1) * sizeof(char *));
			if (!rows[i].names) {
				while (i--)
					free(rows[i].names);
				free(rows);
				return -1;
			}
			for (unsigned j = 0; j < f->rows[i].n; j++)
				rows[i].names[j] = f->rows[i].names[f->rows[i].n - 1 - j];
		}
		qsort(rows, f->n, sizeof *rows, cmp_rows);
	}
	fprintf(out, "# call graph, %s: percent of all %llu samples with stacks, samples, "
		"function\n", order == STACKS_CALLEE ? "callee (from each leaf up through its "
		"callers)" : "caller (from the outermost function down)",
		(unsigned long long)f->total);
	rc = print_level(out, rows, 0, f->n, 0, f->total, min_percent);
	if (rows != f->rows) {
		for (size_t i = 0; i < f->n; i++)
			free(rows[i].names);
		free(rows);
	}
	return rc || ferror(out) ? -1 : 0;
}
