/* QEMU's execution log -> exact counts (truth.h). The log's lines, as QEMU 7.2 writes them
 * with -singlestep -d exec,nochain,int (checked on x86-64 images; docs/bmprof-validate.md):
 *
 *   Trace 0: 0x7efc3c3f9c80 [0000000000000000/0000000000101010/000000b0/ff000201] sym
 *       one translation block (one instruction under -singlestep) about to run:
 *       [cs_base/pc/flags/cflags], the guest pc second
 *   Stopped execution of TB chain before 0x7efc3c3f9c80 [0000000000101010] sym
 *       the block just logged did not run (an interrupt or exit request came first): it is
 *       logged again when it does run
 *   Servicing hardware INT=0x40
 *        29: v=40 e=0000 i=0 cpl=0 IP=0008:0000000000101c41 pc=0000000000101c41 ...
 *       x86: an interrupt (the first line says so), then the vector line with the return
 *       pc; a vector line with no "Servicing" line before it and i=0 is an exception: a
 *       fault's pc is the faulting instruction, the one just logged, which did not retire
 *       ("check_exception old: 0xffffffff new 0xe" comes between; register dumps follow)
 *   Taking exception 4 [Data Abort] on CPU 0 / ...with ELR 0x40081234
 *       AArch64: the same, the return address on the ELR line; [IRQ], [FIQ] and their
 *       virtual kinds are interrupts
 *
 * So each Trace line is held until the next line of consequence decides whether it ran. */
#include <stdlib.h>
#include <string.h>

#include "truth.h"

struct pc_map { uint64_t *key, *count; size_t cap, n; };
struct edge_map { uint64_t *from, *to, *count; size_t cap, n; };

struct truth_parser {
	struct truth *t;
	truth_insn_fn classify;
	void *ctx;
	struct pc_map pcs;
	struct edge_map edges;
	char *line;               /* a line split across feeds */
	size_t len, cap;
	int pending;              /* a Trace line not yet known to have run */
	uint64_t pending_pc;
	int have_last;            /* the last instruction counted */
	uint64_t last_pc;
	unsigned last_flags;
	int irq_next;             /* x86: the next vector line is an interrupt's */
	int a64_exc;              /* AArch64: 1 fault/trap being reported, 2 interrupt */
	int oom;
};

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

/* ---- hash maps (open addressing; a zero count marks an empty slot) ---- */

static size_t hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return (size_t)x;
}

static int pc_grow(struct pc_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 4096;
	uint64_t *key = calloc(cap, sizeof *key), *count = calloc(cap, sizeof *count);

	if (!key || !count) {
		free(key);
		free(count);
		return -1;
	}
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->count[i])
			continue;
		size_t j = hash64(m->key[i]) & (cap - 1);
		while (count[j])
			j = (j + 1) & (cap - 1);
		key[j] = m->key[i];
		count[j] = m->count[i];
	}
	free(m->key);
	free(m->count);
	m->key = key;
	m->count = count;
	m->cap = cap;
	return 0;
}

static int pc_add(struct pc_map *m, uint64_t pc)
{
	if ((m->n + 1) * 2 > m->cap && pc_grow(m))
		return -1;
	size_t j = hash64(pc) & (m->cap - 1);
	while (m->count[j] && m->key[j] != pc)
		j = (j + 1) & (m->cap - 1);
	if (!m->count[j]) {
		m->key[j] = pc;
		m->n++;
	}
	m->count[j]++;
	return 0;
}

static size_t edge_hash(uint64_t from, uint64_t to)
{
	return hash64(from * 31 + hash64(to));
}

static int edge_grow(struct edge_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 1024;
	uint64_t *from = calloc(cap, sizeof *from), *to = calloc(cap, sizeof *to);
	uint64_t *count = calloc(cap, sizeof *count);

	if (!from || !to || !count) {
		free(from);
		free(to);
		free(count);
		return -1;
	}
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->count[i])
			continue;
		size_t j = edge_hash(m->from[i], m->to[i]) & (cap - 1);
		while (count[j])
			j = (j + 1) & (cap - 1);
		from[j] = m->from[i];
		to[j] = m->to[i];
		count[j] = m->count[i];
	}
	free(m->from);
	free(m->to);
	free(m->count);
	m->from = from;
	m->to = to;
	m->count = count;
	m->cap = cap;
	return 0;
}

static int edge_add(struct edge_map *m, uint64_t from, uint64_t to)
{
	if ((m->n + 1) * 2 > m->cap && edge_grow(m))
		return -1;
	size_t j = edge_hash(from, to) & (m->cap - 1);
	while (m->count[j] && (m->from[j] != from || m->to[j] != to))
		j = (j + 1) & (m->cap - 1);
	if (!m->count[j]) {
		m->from[j] = from;
		m->to[j] = to;
		m->n++;
	}
	m->count[j]++;
	return 0;
}

/* ---- lines ---- */

/* Hex digits at s (an optional 0x first) into *v; the end, or NULL if there are none. */
static const char *hex(const char *s, const char *end, uint64_t *v)
{
	const char *start;
	uint64_t x = 0;

	if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (start = s; s < end; s++) {
		unsigned d;
		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (*s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (*s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else
			break;
		x = x << 4 | d;
	}
	*v = x;
	return s > start ? s : NULL;
}

static const char *find(const char *s, const char *end, const char *what)
{
	size_t n = strlen(what);

	for (; s + n <= end; s++)
		if (*s == *what && !memcmp(s, what, n))
			return s;
	return NULL;
}

static int starts(const char *s, const char *end, const char *what)
{
	size_t n = strlen(what);
	return (size_t)(end - s) >= n && !memcmp(s, what, n);
}

/* The held Trace line ran: count it. */
static void commit(struct truth_parser *p)
{
	uint64_t pc = p->pending_pc;
	unsigned flags;

	if (!p->pending)
		return;
	p->pending = 0;
	flags = p->classify ? p->classify(p->ctx, pc) : 0;
	if ((flags & TRUTH_INSN_REP) && p->have_last && p->last_pc == pc) {
		p->t->rep_folded++;
		return;
	}
	if (pc_add(&p->pcs, pc))
		p->oom = 1;
	p->t->total++;
	if (p->have_last && (p->last_flags & TRUTH_INSN_BRANCH) &&
	    edge_add(&p->edges, p->last_pc, pc))
		p->oom = 1;
	p->have_last = 1;
	p->last_pc = pc;
	p->last_flags = flags;
}

/* The held Trace line at pc did not retire (reported by an exception's return address). */
static void fault_at(struct truth_parser *p, uint64_t pc)
{
	if (p->pending && p->pending_pc == pc) {
		p->pending = 0;
		p->t->faulted++;
	}
}

static void line(struct truth_parser *p, const char *s, const char *end)
{
	const char *q;
	uint64_t v;

	p->t->lines++;
	if (starts(s, end, "Trace ")) {
		/* [cs_base/pc/flags/cflags] */
		q = memchr(s, '[', (size_t)(end - s));
		q = q ? memchr(q, '/', (size_t)(end - q)) : NULL;
		if (!q || !hex(q + 1, end, &v)) {
			p->t->bad_lines++;
			return;
		}
		commit(p);
		p->pending = 1;
		p->pending_pc = v;
		return;
	}
	if (starts(s, end, "Stopped execution of TB chain")) {
		q = memchr(s, '[', (size_t)(end - s));
		if (!q || !hex(q + 1, end, &v)) {
			p->t->bad_lines++;
			return;
		}
		if (p->pending && p->pending_pc == v) {
			p->pending = 0;
			p->t->stopped++;
		}
		return;
	}
	if (starts(s, end, "Servicing hardware INT")) {
		commit(p);
		p->irq_next = 1;
		return;
	}
	if (starts(s, end, "Taking exception ")) {
		/* the kind's name in brackets: interrupts are IRQ, FIQ, vIRQ, vFIQ, ... */
		q = memchr(s, '[', (size_t)(end - s));
		const char *r = q ? memchr(q, ']', (size_t)(end - q)) : NULL;
		p->a64_exc = q && r && (find(q, r, "IRQ") || find(q, r, "FIQ")) ? 2 : 1;
		return;
	}
	if (p->a64_exc && (q = find(s, end, "with ELR ")) != NULL) {
		if (p->a64_exc == 1 && hex(q + 9, end, &v))
			fault_at(p, v);
		p->a64_exc = 0;
		commit(p);
		return;
	}
	/* x86: "%6d: v=%02x e=%04x i=%d cpl=%d IP=%04x:%016x pc=%016x SP=..." */
	q = s;
	while (q < end && *q == ' ')
		q++;
	while (q < end && *q >= '0' && *q <= '9')
		q++;
	if (starts(q, end, ": v=")) {
		const char *pc = find(q, end, " pc=");
		int soft = find(q, end, " i=1 ") != NULL;

		if (!p->irq_next && !soft && pc && hex(pc + 4, end, &v))
			fault_at(p, v);
		p->irq_next = 0;
		commit(p);
	}
}

struct truth_parser *truth_parser_new(struct truth *t, truth_insn_fn classify, void *ctx)
{
	struct truth_parser *p = calloc(1, sizeof *p);

	if (!p)
		return NULL;
	truth_free(t);
	p->t = t;
	p->classify = classify;
	p->ctx = ctx;
	return p;
}

int truth_parser_feed(struct truth_parser *p, const char *buf, size_t n)
{
	const char *end = buf + n;

	while (buf < end) {
		const char *nl = memchr(buf, '\n', (size_t)(end - buf));
		if (!nl) {
			size_t rest = (size_t)(end - buf);
			if (p->len + rest > p->cap) {
				size_t cap = (p->len + rest) * 2 + 256;
				char *l = realloc(p->line, cap);
				if (!l)
					return -1;
				p->line = l;
				p->cap = cap;
			}
			memcpy(p->line + p->len, buf, rest);
			p->len += rest;
			break;
		}
		if (p->len) {
			size_t rest = (size_t)(nl - buf);
			if (p->len + rest > p->cap) {
				char *l = realloc(p->line, p->len + rest);
				if (!l)
					return -1;
				p->line = l;
				p->cap = p->len + rest;
			}
			memcpy(p->line + p->len, buf, rest);
			line(p, p->line, p->line + p->len + rest);
			p->len = 0;
		} else {
			line(p, buf, nl);
		}
		buf = nl + 1;
	}
	return p->oom ? -1 : 0;
}

static int cmp_pc(const void *a, const void *b)
{
	const struct truth_pc *x = a, *y = b;
	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

static int cmp_edge(const void *a, const void *b)
{
	const struct truth_edge *x = a, *y = b;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->to < y->to ? -1 : x->to > y->to;
}

void truth_parser_free(struct truth_parser *p)
{
	if (!p)
		return;
	free(p->pcs.key);
	free(p->pcs.count);
	free(p->edges.from);
	free(p->edges.to);
	free(p->edges.count);
	free(p->line);
	free(p);
}

int truth_parser_finish(struct truth_parser *p)
{
	struct truth *t = p->t;
	int rc = -1;

	if (p->len)
		line(p, p->line, p->line + p->len);
	commit(p);
	if (p->oom)
		goto out;
	t->pcs = malloc((p->pcs.n ? p->pcs.n : 1) * sizeof *t->pcs);
	t->edges = malloc((p->edges.n ? p->edges.n : 1) * sizeof *t->edges);
	if (!t->pcs || !t->edges)
		goto out;
	for (size_t i = 0; i < p->pcs.cap; i++)
		if (p->pcs.count[i])
			t->pcs[t->npcs++] = (struct truth_pc){ p->pcs.key[i], p->pcs.count[i] };
	for (size_t i = 0; i < p->edges.cap; i++)
		if (p->edges.count[i])
			t->edges[t->nedges++] = (struct truth_edge){ p->edges.from[i], p->edges.to[i],
								    p->edges.count[i] };
	qsort(t->pcs, t->npcs, sizeof *t->pcs, cmp_pc);
	qsort(t->edges, t->nedges, sizeof *t->edges, cmp_edge);
	rc = 0;
out:
	truth_parser_free(p);
	return rc;
}

int truth_parse_text(const char *text, size_t n, truth_insn_fn classify, void *ctx,
		     struct truth *t)
{
	struct truth_parser *p = truth_parser_new(t, classify, ctx);

	if (!p)
		return -1;
	if (truth_parser_feed(p, text, n)) {
		truth_parser_free(p);
		return -1;
	}
	return truth_parser_finish(p);
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
