/* SPDX-License-Identifier: BSD-2-Clause */
/* insn_count: a QEMU TCG plugin (API version 1, QEMU 7.2) that counts how many times each
 * guest instruction starts, for bmprof's exact counts (analysis/truth.h has how they
 * become retirements).
 *
 *   -plugin insn_count.so,out=FILE[,ranges=FILE]
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
 * At exit it writes FILE (through FILE.tmp and a rename):
 *   bmprof-insn-count 1
 *   target NAME
 *   i PC SIZE STARTS [EXECS]     per instruction within the ranges that started; EXECS
 *                                for a rep string instruction
 *   e FROM TO COUNT              per transition
 *   end NINSNS NEDGES
 * Inline counters are plain adds, not per vCPU, and the rep and edge state is one vCPU's:
 * the plugin refuses more than one vCPU. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu_plugin_v1.h"
#include "rep_count.h"

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

/* one translated block within the ranges */
struct block {
	uint64_t start;
	struct slot *last;
	struct edge *cache[2];        /* its last in-edges, most recent first */
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
	struct pool slots, edges, blocks;
	struct slot **map;            /* open addressing by pc */
	size_t cap, n;
	struct edge **emap;
	size_t ecap, en;
	struct block *prev;           /* the last block within the ranges that started */
	uint64_t prev_at;             /* its last instruction's starts then */
	int failed;
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
	rep_count_enter(&s->rc, s->follow->starts);
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
	if (last && in_ranges(qemu_plugin_tb_vaddr(tb))) {
		struct block *b = pool_alloc(&g.blocks);

		if (!b)
			return;
		b->start = qemu_plugin_tb_vaddr(tb);
		b->last = last;
		qemu_plugin_register_vcpu_tb_exec_cb(tb, block_start, QEMU_PLUGIN_CB_NO_REGS, b);
	}
}

/* ---- output ---- */

static int cmp_slot(const void *a, const void *b)
{
	const struct slot *x = *(struct slot *const *)a, *y = *(struct slot *const *)b;
	return x->pc < y->pc ? -1 : x->pc > y->pc;
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
		} else {
			fprintf(stderr, "insn_count: unknown argument '%s' (out=FILE, ranges=FILE)\n",
				argv[i]);
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
	if (map_grow() || emap_grow())
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, translate);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
