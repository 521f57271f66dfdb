/* SPDX-License-Identifier: BSD-2-Clause */
/* insn_count: a QEMU TCG plugin (API version 1, QEMU 7.2) that counts how many times each
 * guest instruction starts, for bmprof's exact counts (analysis/truth.h has how they
 * become retirements).
 *
 *   -plugin insn_count.so,out=FILE[,ranges=FILE][,stacks=1[,entries=FILE]]
 *
 * Every instruction gets an inline counter (one add in the translated code, shared by
 * every block holding that address). Within the ranges (a file of "START END" lines in
 * hex, [START, END); none: everything) two things more, with callbacks:
 *   - each x86 rep string instruction's executions (rep_count.h): TCG enters it once per
 *     iteration;
 *   - transitions between blocks: when a block starts, the previous block within the
 *     ranges is credited with an edge from its last instruction to this block's first if
 *     that last instruction did start since (it had not when the block was cut short by
 *     a fault or an I/O replay). Code outside the ranges (an interrupt handler) does not
 *     break the chain.
 * With stacks=1, exact call paths too (analysis/shadow_stack.h): every block, within the
 * ranges or not, gets a callback that keeps a shadow call stack from the calls, returns
 * and exception returns executed (branch_kind.h) and the exception entries named in the
 * entries file (hex addresses, one a line), and credits the instructions that started in
 * the previous block (a global inline counter: a block cut short counts what ran; a rep
 * string instruction's further iterations count none) to the calling context it ran in.
 * At exit it writes FILE (through FILE.tmp and a rename):
 *   bmprof-insn-count 1
 *   target NAME
 *   i PC SIZE STARTS [EXECS]     per instruction within the ranges that started; EXECS
 *                                for a rep string instruction
 *   e FROM TO COUNT              per transition
 * and with stacks=1
 *   n ID PARENT KIND ADDR        per calling-context node but the root (0), parents first:
 *                                KIND c (ADDR the return address) or q (an exception
 *                                entered at ADDR)
 *   x NODE START N COUNT         COUNT runs of N instructions from START in NODE
 *   stacks NNODES NRECS CALLS RETS UNMATCHED_RETS ERETS UNMATCHED_ERETS IRQS OVERFLOW
 * then
 *   end NINSNS NEDGES
 * Inline counters are plain adds, not per vCPU, and the rep and edge state is one vCPU's:
 * the plugin refuses more than one vCPU. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "branch_kind.h"
#include "qemu_plugin_v1.h"
#include "rep_count.h"
#include "shadow_stack.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;

/* one guest instruction address; never moves (translated code holds &starts) */
struct slot {
	uint64_t starts;
	uint64_t pc;
	uint32_t size;
	uint8_t rep;
	struct slot *follow;          /* rep: the instruction after it */
	struct rep_count rc;
};

struct edge {
	uint64_t from, to, count;
};

/* one translated block (without stacks=1: within the ranges only) */
struct block {
	uint64_t start;
	struct slot *last;
	struct edge *cache[2];        /* its last in-edges, most recent first */
	size_t rec;                   /* stacks: its last credit record (ss_credit) */
	uint8_t kind;                 /* stacks: its last instruction's enum ss_kind */
	uint8_t entry;                /* stacks: it starts at an exception entry */
	uint8_t in_ranges;
};

#define CHUNK 4096

struct pool {
	char *cur;
	size_t left, size;
};

static struct {
	char *out;
	uint64_t (*ranges)[2];
	size_t nranges;
	int x86;
	int rv;                       /* riscv64: branch_kind_rv */
	struct pool slots, edges, blocks;
	struct slot **map;            /* open addressing by pc */
	size_t cap, n;
	struct edge **emap;
	size_t ecap, en;
	struct block *prev;           /* the last block within the ranges that started */
	uint64_t prev_at;             /* its last instruction's starts then */
	int failed;
	/* stacks=1 */
	int stacks;
	uint64_t *entries;            /* sorted */
	size_t nentries;
	struct shadow_stack ss;
	uint64_t total;               /* instructions started, less rep continuations */
	struct block *sprev;          /* the last block that started */
	uint64_t sprev_total, sprev_at;
	uint32_t sprev_node;
} g;

static void *pool_alloc(struct pool *p)
{
	if (!p->left) {
		p->cur = calloc(CHUNK, p->size);
		if (!p->cur) {
			g.failed = 1;
			return NULL;
		}
		p->left = CHUNK;
	}
	p->left--;
	p->cur += p->size;
	return p->cur - p->size;
}

static size_t hash(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return (size_t)x;
}

static int map_grow(void)
{
	size_t cap = g.cap ? g.cap * 2 : 1 << 14;
	struct slot **m = calloc(cap, sizeof *m);

	if (!m)
		return -1;
	for (size_t i = 0; i < g.cap; i++) {
		if (!g.map[i])
			continue;
		size_t j = hash(g.map[i]->pc) & (cap - 1);
		while (m[j])
			j = (j + 1) & (cap - 1);
		m[j] = g.map[i];
	}
	free(g.map);
	g.map = m;
	g.cap = cap;
	return 0;
}

static struct slot *slot_get(uint64_t pc)
{
	size_t j;

	if ((g.n + 1) * 2 > g.cap && map_grow()) {
		g.failed = 1;
		return NULL;
	}
	for (j = hash(pc) & (g.cap - 1); g.map[j]; j = (j + 1) & (g.cap - 1))
		if (g.map[j]->pc == pc)
			return g.map[j];
	struct slot *s = pool_alloc(&g.slots);
	if (!s)
		return NULL;
	s->pc = pc;
	g.map[j] = s;
	g.n++;
	return s;
}

static int emap_grow(void)
{
	size_t cap = g.ecap ? g.ecap * 2 : 1 << 12;
	struct edge **m = calloc(cap, sizeof *m);

	if (!m)
		return -1;
	for (size_t i = 0; i < g.ecap; i++) {
		if (!g.emap[i])
			continue;
		size_t j = hash(g.emap[i]->from ^ hash(g.emap[i]->to)) & (cap - 1);
		while (m[j])
			j = (j + 1) & (cap - 1);
		m[j] = g.emap[i];
	}
	free(g.emap);
	g.emap = m;
	g.ecap = cap;
	return 0;
}

static struct edge *edge_get(uint64_t from, uint64_t to)
{
	size_t j;

	if ((g.en + 1) * 2 > g.ecap && emap_grow()) {
		g.failed = 1;
		return NULL;
	}
	for (j = hash(from ^ hash(to)) & (g.ecap - 1); g.emap[j]; j = (j + 1) & (g.ecap - 1))
		if (g.emap[j]->from == from && g.emap[j]->to == to)
			return g.emap[j];
	struct edge *e = pool_alloc(&g.edges);
	if (!e)
		return NULL;
	e->from = from;
	e->to = to;
	g.emap[j] = e;
	g.en++;
	return e;
}

static int in_ranges(uint64_t pc)
{
	size_t lo = 0, hi = g.nranges;

	if (!g.ranges)
		return 1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (g.ranges[mid][1] <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g.nranges && g.ranges[lo][0] <= pc;
}

/* ---- execution ---- */

static void rep_start(unsigned int vcpu, void *udata)
{
	struct slot *s = udata;

	(void)vcpu;
	if (!rep_count_enter(&s->rc, s->follow->starts) && g.stacks)
		g.total--;
}

static void credit(struct block *b, uint64_t from)
{
	struct edge *e;

	if (b->cache[0] && b->cache[0]->from == from) {
		b->cache[0]->count++;
		return;
	}
	if (b->cache[1] && b->cache[1]->from == from) {
		e = b->cache[1];
		b->cache[1] = b->cache[0];
		b->cache[0] = e;
		e->count++;
		return;
	}
	e = edge_get(from, b->start);
	if (!e)
		return;
	e->count++;
	b->cache[1] = b->cache[0];
	b->cache[0] = e;
}

static void block_start(unsigned int vcpu, void *udata)
{
	struct block *b = udata;

	(void)vcpu;
	if (g.prev && g.prev->last->starts != g.prev_at)
		credit(b, g.prev->last->pc);
	g.prev = b;
	g.prev_at = b->last->starts;
}

/* stacks=1: the previous block's instructions credited, the stack moved on */
static void stack_step(struct block *b)
{
	struct block *p = g.sprev;

	if (p) {
		uint64_t ran = g.total - g.sprev_total;
		if (ran && ran < UINT32_MAX &&
		    !ss_credit_at(&g.ss, p->rec, g.sprev_node, p->start, (uint32_t)ran))
			p->rec = ss_credit(&g.ss, g.sprev_node, p->start, (uint32_t)ran, 1);
		ss_step(&g.ss, p->kind, p->last->pc, p->last->size, p->last->starts != g.sprev_at,
			b->start, b->entry);
	} else if (b->entry) {
		ss_step(&g.ss, SS_OTHER, 0, 0, 0, b->start, 1);
	}
	g.sprev = b;
	g.sprev_total = g.total;
	g.sprev_at = b->last->starts;
	g.sprev_node = ss_node_now(&g.ss);
}

static void block_start_stacks(unsigned int vcpu, void *udata)
{
	struct block *b = udata;

	stack_step(b);
	if (b->in_ranges)
		block_start(vcpu, udata);
}

static int is_entry(uint64_t pc)
{
	size_t lo = 0, hi = g.nentries;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (g.entries[mid] < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g.nentries && g.entries[lo] == pc;
}

/* ---- translation ---- */

static void translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	struct slot *last = NULL;

	(void)id;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t pc = qemu_plugin_insn_vaddr(insn);
		size_t size = qemu_plugin_insn_size(insn);
		struct slot *s = slot_get(pc);

		if (!s)
			return;
		s->size = (uint32_t)size;
		qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
							   &s->starts, 1);
		if (g.stacks)
			qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
								   &g.total, 1);
		if (g.x86 && in_ranges(pc) &&
		    rep_count_is_x86_rep(qemu_plugin_insn_data(insn), size)) {
			s->rep = 1;
			if (!s->follow && !(s->follow = slot_get(pc + size)))
				return;
			qemu_plugin_register_vcpu_insn_exec_cb(insn, rep_start,
							       QEMU_PLUGIN_CB_NO_REGS, s);
		}
		last = s;
	}
	if (last && (g.stacks || in_ranges(qemu_plugin_tb_vaddr(tb)))) {
		struct block *b = pool_alloc(&g.blocks);
		struct qemu_plugin_insn *li = qemu_plugin_tb_get_insn(tb, n - 1);

		if (!b)
			return;
		b->start = qemu_plugin_tb_vaddr(tb);
		b->last = last;
		b->in_ranges = (uint8_t)in_ranges(b->start);
		b->rec = (size_t)-1;
		if (!g.stacks) {
			qemu_plugin_register_vcpu_tb_exec_cb(tb, block_start, QEMU_PLUGIN_CB_NO_REGS, b);
			return;
		}
		b->kind = (uint8_t)(g.x86 ? branch_kind_x86(qemu_plugin_insn_data(li), last->size) :
				    g.rv ? branch_kind_rv(qemu_plugin_insn_data(li), last->size) :
				    branch_kind_a64(qemu_plugin_insn_data(li), last->size));
		b->entry = (uint8_t)is_entry(b->start);
		qemu_plugin_register_vcpu_tb_exec_cb(tb, block_start_stacks, QEMU_PLUGIN_CB_NO_REGS,
						     b);
	}
}

/* ---- output ---- */

static int cmp_slot(const void *a, const void *b)
{
	const struct slot *x = *(struct slot *const *)a, *y = *(struct slot *const *)b;
	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

static void write_stacks(FILE *f)
{
	const struct shadow_stack *s = &g.ss;
	const struct ss_stats *st = &s->st;

	for (size_t i = 1; i < s->nnodes; i++)
		fprintf(f, "n %zu %u %c %llx\n", i, s->nodes[i].parent, s->nodes[i].kind,
			(unsigned long long)s->nodes[i].addr);
	for (size_t i = 0; i <= s->rmask; i++) {
		const struct ss_rec *r = &s->recs[i];
		if (r->count)
			fprintf(f, "x %u %llx %u %llu\n", r->node, (unsigned long long)r->start, r->n,
				(unsigned long long)r->count);
	}
	fprintf(f, "stacks %zu %zu %llu %llu %llu %llu %llu %llu %llu\n", s->nnodes - 1, s->nrecs,
		(unsigned long long)st->calls, (unsigned long long)st->rets,
		(unsigned long long)st->unmatched_rets, (unsigned long long)st->erets,
		(unsigned long long)st->unmatched_erets, (unsigned long long)st->irqs,
		(unsigned long long)st->overflow);
}

static int write_out(FILE *f)
{
	struct slot **v = malloc((g.n ? g.n : 1) * sizeof *v);
	size_t nv = 0, ne = 0;

	if (!v)
		return -1;
	for (size_t i = 0; i < g.cap; i++)
		if (g.map[i] && g.map[i]->starts && in_ranges(g.map[i]->pc))
			v[nv++] = g.map[i];
	qsort(v, nv, sizeof *v, cmp_slot);
	fprintf(f, "bmprof-insn-count 1\ntarget %s\n", g.x86 ? "x86" : "other");
	for (size_t i = 0; i < nv; i++) {
		fprintf(f, "i %llx %u %llu", (unsigned long long)v[i]->pc, v[i]->size,
			(unsigned long long)v[i]->starts);
		if (v[i]->rep)
			fprintf(f, " %llu", (unsigned long long)v[i]->rc.execs);
		fputc('\n', f);
	}
	free(v);
	for (size_t i = 0; i < g.ecap; i++) {
		const struct edge *e = g.emap[i];
		if (!e || !e->count)
			continue;
		fprintf(f, "e %llx %llx %llu\n", (unsigned long long)e->from,
			(unsigned long long)e->to, (unsigned long long)e->count);
		ne++;
	}
	if (g.stacks)
		write_stacks(f);
	fprintf(f, "end %zu %zu\n", nv, ne);
	return 0;
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	size_t len = strlen(g.out);
	char *tmp = malloc(len + 5);
	FILE *f;

	(void)id;
	(void)udata;
	if (g.stacks && g.sprev && g.total != g.sprev_total)
		ss_credit(&g.ss, g.sprev_node, g.sprev->start, (uint32_t)(g.total - g.sprev_total), 1);
	if (g.ss.failed) {
		fprintf(stderr, "insn_count: out of memory or too many call paths: no counts "
			"written\n");
		free(tmp);
		return;
	}
	if (g.failed) {
		fprintf(stderr, "insn_count: out of memory: no counts written\n");
		free(tmp);
		return;
	}
	if (!tmp)
		return;
	memcpy(tmp, g.out, len);
	memcpy(tmp + len, ".tmp", 5);
	f = fopen(tmp, "w");
	if (!f || write_out(f) || ferror(f) | fclose(f) || rename(tmp, g.out))
		fprintf(stderr, "insn_count: cannot write %s: %s\n", g.out, strerror(errno));
	free(tmp);
}

/* ---- install ---- */

static int cmp_range(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	return x[0] < y[0] ? -1 : x[0] > y[0];
}

static int load_ranges(const char *path)
{
	FILE *f = fopen(path, "r");
	unsigned long long s, e;
	size_t cap = 0;

	if (!f) {
		fprintf(stderr, "insn_count: cannot open %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fscanf(f, "%llx %llx", &s, &e) == 2) {
		if (e <= s)
			continue;
		if (g.nranges == cap) {
			void *r = realloc(g.ranges, (cap = cap ? cap * 2 : 64) * sizeof *g.ranges);
			if (!r) {
				fclose(f);
				return -1;
			}
			g.ranges = r;
		}
		g.ranges[g.nranges][0] = s;
		g.ranges[g.nranges++][1] = e;
	}
	fclose(f);
	if (!g.ranges && !(g.ranges = malloc(sizeof *g.ranges)))
		return -1;
	qsort(g.ranges, g.nranges, sizeof *g.ranges, cmp_range);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	return *x < *y ? -1 : *x > *y;
}

static int load_entries(const char *path)
{
	FILE *f = fopen(path, "r");
	unsigned long long a;
	size_t cap = 0;

	if (!f) {
		fprintf(stderr, "insn_count: cannot open %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fscanf(f, "%llx", &a) == 1) {
		if (g.nentries == cap) {
			void *r = realloc(g.entries, (cap = cap ? cap * 2 : 64) * sizeof *g.entries);
			if (!r) {
				fclose(f);
				return -1;
			}
			g.entries = r;
		}
		g.entries[g.nentries++] = a;
	}
	fclose(f);
	if (g.entries)
		qsort(g.entries, g.nentries, sizeof *g.entries, cmp_u64);
	return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	g.slots.size = sizeof(struct slot);
	g.edges.size = sizeof(struct edge);
	g.blocks.size = sizeof(struct block);
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			g.out = argv[i] + 4;
		else if (!strncmp(argv[i], "ranges=", 7)) {
			if (load_ranges(argv[i] + 7))
				return -1;
		} else if (!strcmp(argv[i], "stacks=1"))
			g.stacks = 1;
		else if (!strncmp(argv[i], "entries=", 8)) {
			if (load_entries(argv[i] + 8))
				return -1;
		} else {
			fprintf(stderr, "insn_count: unknown argument '%s' (out=FILE, ranges=FILE, "
				"stacks=1, entries=FILE)\n", argv[i]);
			return -1;
		}
	}
	if (!g.out) {
		fprintf(stderr, "insn_count: no out=FILE argument\n");
		return -1;
	}
	if (info->system_emulation && info->system.max_vcpus > 1) {
		fprintf(stderr, "insn_count: counts one vCPU only; this machine has %d (-smp 1)\n",
			info->system.max_vcpus);
		return -1;
	}
	g.x86 = !strcmp(info->target_name, "x86_64") || !strcmp(info->target_name, "i386");
	g.rv = !strcmp(info->target_name, "riscv64");
	if (map_grow() || emap_grow() || (g.stacks && ss_init(&g.ss)))
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, translate);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
