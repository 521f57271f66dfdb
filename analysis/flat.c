/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdlib.h>
#include <string.h>
#include "flat.h"

/* Sampled pcs of one CPU that share a row: a stretch of pcs in pc order with the same info
 * entry and the same sub-key (the region page, or the pc itself for address rows, where the
 * key needs them). */
struct part {
	uint64_t sub;               /* the region page or the pc the key needs; 0: none */
	uint64_t samples;
	uint64_t addr_lo, addr_hi;  /* sampled link-time addresses, [lo, hi) */
	uint32_t run;               /* info entry; ninfo: the unresolved pcs */
	uint32_t rank;              /* the entry's place in the key order (equal: same key) */
	uint16_t cpu;
};

/* What flat_compute works from: the caller's entries and one for unresolved pcs. */
struct runs {
	const struct flat_pcinfo *info;
	size_t n;
	struct flat_pcinfo none;
	enum flat_sort sort;
};

static const struct flat_pcinfo *run_at(const struct runs *rs, uint32_t i)
{
	return i < rs->n ? &rs->info[i] : &rs->none;
}

static int cmp_u64(uint64_t a, uint64_t b) { return a < b ? -1 : a > b; }

/* NULL sorts after every string, so unknowns come last among equals. */
static int cmp_str(const char *a, const char *b)
{
	if (!a || !b)
		return !a - !b;
	return strcmp(a, b);
}

static const char *func_of(const struct flat_pcinfo *in)
{
	return in->function ? in->function : in->symbol;
}

long flat_distinct_pcs(const struct profile *p, uint64_t **out)
{
	struct profile_sample *copy;
	size_t n = 0, ns;
	const struct profile_sample *s = profile_ordered(p, &ns, &copy);

	*out = NULL;
	if (!s)
		return -1;
	if (!ns) {
		free(copy);
		return 0;
	}
	uint64_t *pcs = malloc(ns * sizeof *pcs);
	if (pcs)
		for (size_t i = 0; i < ns; i++)
			if (n == 0 || pcs[n - 1] != s[i].pc)
				pcs[n++] = s[i].pc;
	free(copy);
	*out = pcs;
	return pcs ? (long)n : -1;
}

static uint64_t last_of(const struct flat_pcinfo *in)
{
	return in->pc_last > in->pc ? in->pc_last : in->pc;
}

const struct flat_pcinfo *flat_info_find(const struct flat_pcinfo *info, size_t n, uint64_t pc)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (last_of(&info[mid]) < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && info[lo].pc <= pc ? &info[lo] : NULL;
}

static uint64_t region_of(uint64_t pc)
{
	return pc & ~(uint64_t)(FLAT_REGION_SIZE - 1);
}

/* Outside pcs apart from inside ones, and by firmware module. */
static int cmp_origin(const struct flat_pcinfo *a, const struct flat_pcinfo *b)
{
	int c = cmp_u64((uint64_t)!!a->outside, (uint64_t)!!b->outside);
	return c ? c : cmp_str(a->module, b->module);
}

/* The key of a row, as far as it comes from the info entry (equal: the same row, given the
 * same sub-key and, for cpu rows, CPU). Function rows: the symbol, at its address; without
 * one, one [unknown] row, or one per region outside the image. */
static int run_key_function(const struct flat_pcinfo *a, const struct flat_pcinfo *b)
{
	int c = cmp_origin(a, b);
	if (!c)
		c = cmp_str(a->symbol, b->symbol);
	if (c || !a->symbol)
		return c;
	return cmp_u64(a->sym_lo, b->sym_lo);
}

/* Line rows: the file and line, and the function; neither known outside the image: by
 * region. */
static int run_key_line(const struct flat_pcinfo *a, const struct flat_pcinfo *b)
{
	int c = cmp_origin(a, b);
	if (!c)
		c = cmp_str(a->file, b->file);
	if (c)
		return c;
	if (a->file && (c = cmp_u64(a->line, b->line)))
		return c;
	return cmp_str(func_of(a), func_of(b));
}

/* Whether the row key of a pc of in takes its region. */
static int by_region(enum flat_sort sort, const struct flat_pcinfo *in)
{
	if (!in->outside)
		return 0;
	return sort == FLAT_BY_LINE ? !in->file && !func_of(in) : !in->symbol;
}

static uint64_t sub_key(enum flat_sort sort, const struct flat_pcinfo *in, uint64_t pc)
{
	if (sort == FLAT_BY_ADDRESS)
		return pc;
	return by_region(sort, in) ? region_of(pc) : 0;
}

/* ---- pass 1: the samples, in pc order, into parts ---- */

struct parts {
	struct part *p;
	size_t n, cap;
};

/* The current stretch: per CPU, its samples and sampled range. */
struct stretch {
	uint32_t run;
	uint64_t sub;
	int open;
	uint64_t used[PROFILE_MAX_CPUS / 64];
	struct { uint64_t samples, lo, hi; } cpu[PROFILE_MAX_CPUS];
};

static int push_part(struct parts *ps, const struct part *pt)
{
	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? ps->cap + ps->cap / 2 : 1024;
		struct part *p = realloc(ps->p, cap * sizeof *p);
		if (!p)
			return -1;
		ps->p = p;
		ps->cap = cap;
	}
	ps->p[ps->n++] = *pt;
	return 0;
}

/* The stretch's parts, one per CPU, by CPU ascending. */
static int close_stretch(struct stretch *st, struct parts *ps)
{
	if (!st->open)
		return 0;
	st->open = 0;
	for (unsigned w = 0; w < PROFILE_MAX_CPUS / 64; w++) {
		for (uint64_t m = st->used[w]; m; m &= m - 1) {
			unsigned c = 64 * w + (unsigned)__builtin_ctzll(m);
			struct part pt = { st->sub, st->cpu[c].samples, st->cpu[c].lo, st->cpu[c].hi,
					   st->run, 0, (uint16_t)c };
			if (push_part(ps, &pt))
				return -1;
		}
		st->used[w] = 0;
	}
	return 0;
}

static void add_sample(struct stretch *st, uint16_t cpu, uint64_t count, uint64_t addr)
{
	uint64_t bit = (uint64_t)1 << (cpu % 64);

	if (!(st->used[cpu / 64] & bit)) {
		st->used[cpu / 64] |= bit;
		st->cpu[cpu].samples = 0;
		st->cpu[cpu].lo = UINT64_MAX;
		st->cpu[cpu].hi = 0;
	}
	st->cpu[cpu].samples += count;
	if (addr < st->cpu[cpu].lo)
		st->cpu[cpu].lo = addr;
	if (addr + 1 > st->cpu[cpu].hi)
		st->cpu[cpu].hi = addr + 1;
}

/* The filtered samples as parts, in pc order. 0 or -1. */
static int collect(const struct profile *p, int event, const struct runs *rs, struct parts *ps)
{
	struct profile_sample *copy;
	size_t n, j = 0;
	const struct profile_sample *s = profile_ordered(p, &n, &copy);
	struct stretch *st = calloc(1, sizeof *st);
	uint32_t run = 0;
	uint64_t run_pc = 1, run_last = 0;     /* the pcs run stands for (none yet) */
	int rc = -1;

	if (!s || !st)
		goto out;
	for (size_t i = 0; i < n; i++) {
		uint64_t pc = s[i].pc;
		if (event != FLAT_ALL_EVENTS && s[i].event != event)
			continue;
		if (pc < run_pc || pc > run_last) {
			while (j < rs->n && last_of(&rs->info[j]) < pc)
				j++;
			run = j < rs->n && rs->info[j].pc <= pc ? (uint32_t)j : (uint32_t)rs->n;
			run_pc = run < rs->n ? rs->info[run].pc : pc;
			run_last = run < rs->n ? last_of(&rs->info[run]) : pc;
		}
		const struct flat_pcinfo *in = run_at(rs, run);
		uint64_t sub = sub_key(rs->sort, in, pc);
		if (!st->open || st->run != run || st->sub != sub) {
			if (close_stretch(st, ps))
				goto out;
			st->open = 1;
			st->run = run;
			st->sub = sub;
		}
		add_sample(st, s[i].cpu, s[i].count, flat_info_addr(in, pc));
	}
	rc = close_stretch(st, ps);
out:
	free(st);
	free(copy);
	return rc;
}

/* ---- pass 2: parts ranked, sorted and grouped into rows ---- */

static struct runs *sort_ctx;

static int cmp_run_ptr(const void *x, const void *y)
{
	const struct flat_pcinfo *a = *(const struct flat_pcinfo *const *)x;
	const struct flat_pcinfo *b = *(const struct flat_pcinfo *const *)y;
	return sort_ctx->sort == FLAT_BY_LINE ? run_key_line(a, b) : run_key_function(a, b);
}

/* Each part's rank: the place of its entry in the key order, equal for equal keys. */
static int rank_parts(struct runs *rs, struct parts *ps)
{
	size_t n = rs->n + 1;
	const struct flat_pcinfo **order;
	uint32_t *rank;

	if (rs->sort == FLAT_BY_ADDRESS)
		return 0;
	order = malloc(n * sizeof *order);
	rank = malloc(n * sizeof *rank);
	if (!order || !rank) {
		free(order);
		free(rank);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = run_at(rs, (uint32_t)i);
	sort_ctx = rs;
	qsort(order, n, sizeof *order, cmp_run_ptr);
	for (size_t i = 0, r = 0; i < n; i++) {
		if (i && cmp_run_ptr(&order[i - 1], &order[i]))
			r++;
		rank[order[i] == &rs->none ? rs->n : (size_t)(order[i] - rs->info)] = (uint32_t)r;
	}
	for (size_t i = 0; i < ps->n; i++)
		ps->p[i].rank = rank[ps->p[i].run];
	free(order);
	free(rank);
	return 0;
}

/* Row key order (cpu rows: by CPU first), then CPU, so a row's parts are by CPU. */
static int cmp_part(const struct part *a, const struct part *b, int by_cpu)
{
	int c = by_cpu ? cmp_u64(a->cpu, b->cpu) : 0;
	if (!c)
		c = cmp_u64(a->rank, b->rank);
	if (!c)
		c = cmp_u64(a->sub, b->sub);
	return c ? c : cmp_u64(a->cpu, b->cpu);
}

static int cmp_part_key(const void *x, const void *y)
{
	return cmp_part(x, y, 0);
}

static int cmp_part_cpu(const void *x, const void *y)
{
	return cmp_part(x, y, 1);
}

/* Parts a and b belong to one row. */
static int same_row(const struct part *a, const struct part *b, enum flat_sort sort)
{
	return a->rank == b->rank && a->sub == b->sub && (sort != FLAT_BY_CPU || a->cpu == b->cpu);
}

/* Row orders: hottest first, then the key. */
static int cmp_samples(const struct flat_row *a, const struct flat_row *b)
{
	return cmp_u64(b->samples, a->samples);
}

/* Ties between rows that differ only in where they are: image first, then by module and
 * region. */
static int cmp_row_origin(const struct flat_row *a, const struct flat_row *b)
{
	int c = cmp_u64((uint64_t)!!a->outside, (uint64_t)!!b->outside);
	if (!c)
		c = cmp_str(a->module, b->module);
	return c ? c : cmp_u64(a->region_lo, b->region_lo);
}

static int row_function(const void *x, const void *y)
{
	const struct flat_row *a = x, *b = y;
	int c = cmp_samples(a, b);
	if (!c)
		c = cmp_str(a->symbol, b->symbol);
	if (!c)
		c = cmp_row_origin(a, b);
	return c ? c : cmp_u64(a->addr_lo, b->addr_lo);
}

static int row_line(const void *x, const void *y)
{
	const struct flat_row *a = x, *b = y;
	int c = cmp_samples(a, b);
	if (!c)
		c = cmp_str(a->file, b->file);
	if (!c)
		c = cmp_u64(a->line, b->line);
	if (!c)
		c = cmp_str(a->function, b->function);
	if (!c)
		c = cmp_row_origin(a, b);
	return c ? c : cmp_u64(a->addr_lo, b->addr_lo);
}

static int row_address(const void *x, const void *y)
{
	const struct flat_row *a = x, *b = y;
	int c = cmp_samples(a, b);
	if (!c)
		c = cmp_row_origin(a, b);
	return c ? c : cmp_u64(a->addr_lo, b->addr_lo);
}

static int row_cpu(const void *x, const void *y)
{
	const struct flat_row *a = x, *b = y;
	int c = cmp_u64((uint64_t)a->cpu, (uint64_t)b->cpu);
	return c ? c : row_function(x, y);
}

struct line_count {
	const char *file;
	unsigned line;
	uint64_t count;
};

static int cmp_line_count(const void *x, const void *y)
{
	const struct line_count *a = x, *b = y;
	int c = cmp_str(a->file, b->file);
	return c ? c : cmp_u64(a->line, b->line);
}

/* The known source line with the most samples among the parts g[0..n) (ties: file name,
 * then the lower line). tmp has room for n entries. */
static void hottest_line(const struct runs *rs, const struct part *g, size_t n,
			 struct line_count *tmp, struct flat_row *row)
{
	size_t m = 0;
	struct line_count best = { NULL, 0, 0 };

	for (size_t i = 0; i < n; i++) {
		const struct flat_pcinfo *in = run_at(rs, g[i].run);
		if (in->file)
			tmp[m++] = (struct line_count){ in->file, in->line, g[i].samples };
	}
	qsort(tmp, m, sizeof *tmp, cmp_line_count);
	for (size_t i = 0; i < m;) {
		struct line_count cur = tmp[i++];
		while (i < m && !cmp_line_count(&cur, &tmp[i]))
			cur.count += tmp[i++].count;
		if (cur.count > best.count)
			best = cur;
	}
	row->file = best.file;
	row->line = best.line;
	row->line_samples = best.count;
}

static void sampled_range(const struct part *g, size_t n, struct flat_row *row)
{
	row->addr_lo = UINT64_MAX;
	row->addr_hi = 0;
	for (size_t i = 0; i < n; i++) {
		if (g[i].addr_lo < row->addr_lo)
			row->addr_lo = g[i].addr_lo;
		if (g[i].addr_hi > row->addr_hi)
			row->addr_hi = g[i].addr_hi;
	}
}

static void fill_row(const struct runs *rs, const struct part *g, size_t n,
		     struct line_count *tmp, struct flat_row *row)
{
	const struct flat_pcinfo *in = run_at(rs, g[0].run);

	memset(row, 0, sizeof *row);
	for (size_t i = 0; i < n; i++)
		row->samples += g[i].samples;
	row->cpu = -1;
	row->outside = in->outside;
	row->module = in->module;
	switch (rs->sort) {
	case FLAT_BY_CPU:
		row->cpu = g[0].cpu;
		/* fall through */
	case FLAT_BY_FUNCTION:
		row->symbol = row->function = in->symbol;
		if (in->symbol) {
			row->addr_lo = in->sym_lo;
			row->addr_hi = in->sym_hi;
		} else {
			sampled_range(g, n, row);
		}
		hottest_line(rs, g, n, tmp, row);
		break;
	case FLAT_BY_LINE:
		row->symbol = row->function = func_of(in);
		row->file = in->file;
		row->line = in->file ? in->line : 0;
		sampled_range(g, n, row);
		break;
	case FLAT_BY_ADDRESS:
		row->symbol = in->symbol;
		row->function = func_of(in);
		row->file = in->file;
		row->line = in->file ? in->line : 0;
		row->addr_lo = flat_info_addr(in, g[0].sub);
		row->addr_hi = row->addr_lo + 1;
		row->offset = in->symbol ? row->addr_lo - in->sym_lo : 0;
		break;
	case FLAT_BY_MODULE:     /* flat_by_module's, from function rows */
		break;
	}
	/* as the keys group them: by page when no symbol (line rows: no line, no function) */
	if (in->outside && !row->symbol && (rs->sort != FLAT_BY_LINE || !row->file)) {
		row->region_lo = region_of(g[0].sub);
		row->region_hi = row->region_lo + FLAT_REGION_SIZE;
	}
}

/* The samples of g[0..n) (by CPU ascending) summed per CPU into out. Returns the entries
 * written. */
static size_t per_cpu(const struct part *g, size_t n, struct flat_cpu_samples *out)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		if (m && out[m - 1].cpu == g[i].cpu)
			out[m - 1].samples += g[i].samples;
		else
			out[m++] = (struct flat_cpu_samples){ g[i].cpu, g[i].samples };
	}
	return m;
}

static int (*const orders[])(const void *, const void *) = {
	[FLAT_BY_FUNCTION] = row_function, [FLAT_BY_LINE] = row_line,
	[FLAT_BY_ADDRESS] = row_address, [FLAT_BY_CPU] = row_cpu,
};

/* Totals over every part: samples, outside, per CPU. 0 or -1. */
static int totals(const struct runs *rs, const struct parts *ps, struct flat_result *res)
{
	uint64_t cpu[PROFILE_MAX_CPUS] = { 0 };

	for (size_t i = 0; i < ps->n; i++) {
		const struct part *pt = &ps->p[i];
		const struct flat_pcinfo *in = run_at(rs, pt->run);
		res->total += pt->samples;
		cpu[pt->cpu] += pt->samples;
		if (in->outside) {
			res->outside += pt->samples;
			if (in->symbol)
				res->outside_symbolized += pt->samples;
		}
	}
	res->cpus = calloc(PROFILE_MAX_CPUS, sizeof *res->cpus);
	if (!res->cpus)
		return -1;
	for (unsigned c = 0; c < PROFILE_MAX_CPUS; c++)
		if (cpu[c])
			res->cpus[res->ncpus++] = (struct flat_cpu_samples){ (uint16_t)c, cpu[c] };
	return 0;
}

/* Rows from the sorted parts, grouped. 0 or -1. */
static int group(const struct runs *rs, const struct parts *ps, struct flat_result *res)
{
	size_t nrows = 0, biggest = 0, used = 0;
	struct line_count *tmp;

	for (size_t i = 0, j; i < ps->n; i = j) {
		for (j = i + 1; j < ps->n && same_row(&ps->p[i], &ps->p[j], rs->sort); j++)
			;
		nrows++;
		biggest = j - i > biggest ? j - i : biggest;
	}
	res->rows = calloc(nrows, sizeof *res->rows);
	res->split = calloc(ps->n, sizeof *res->split);
	tmp = calloc(biggest, sizeof *tmp);
	if (!res->rows || !res->split || !tmp) {
		free(tmp);
		return -1;
	}
	for (size_t i = 0, j; i < ps->n; i = j) {
		struct flat_row *row = &res->rows[res->nrows++];
		for (j = i + 1; j < ps->n && same_row(&ps->p[i], &ps->p[j], rs->sort); j++)
			;
		fill_row(rs, ps->p + i, j - i, tmp, row);
		row->per_cpu = res->split + used;
		row->nper_cpu = per_cpu(ps->p + i, j - i, res->split + used);
		used += row->nper_cpu;
	}
	free(tmp);
	return 0;
}

int flat_compute(const struct profile *p, int event, const struct flat_pcinfo *info,
		 size_t ninfo, enum flat_sort sort, struct flat_result *res)
{
	struct runs rs = { info, ninfo, { 0 }, sort };
	struct parts ps = { 0 };
	int rc = -1;

	memset(res, 0, sizeof *res);
	if (sort == FLAT_BY_MODULE) {
		struct flat_result fn;
		if (flat_compute(p, event, info, ninfo, FLAT_BY_FUNCTION, &fn))
			return -1;
		rc = flat_by_module(&fn, res);
		flat_free(&fn);
		return rc;
	}
	if ((unsigned)sort >= sizeof orders / sizeof orders[0])
		return -1;
	if (ninfo >= UINT32_MAX || collect(p, event, &rs, &ps))
		goto out;
	if (!ps.n) {
		rc = 0;         /* nothing sampled: an empty result, nothing to free */
		goto out;
	}
	if (rank_parts(&rs, &ps) || totals(&rs, &ps, res))
		goto out;
	if (sort != FLAT_BY_ADDRESS)
		qsort(ps.p, ps.n, sizeof *ps.p, sort == FLAT_BY_CPU ? cmp_part_cpu : cmp_part_key);
	if (group(&rs, &ps, res))
		goto out;
	for (size_t i = 0; i < res->nrows; i++) {
		struct flat_row *r = &res->rows[i];
		uint64_t all = r->cpu >= 0 ? flat_cpu_total(res, (unsigned)r->cpu) : 0;

		r->percent = res->total ? 100.0 * (double)r->samples / (double)res->total : 0;
		r->cpu_percent = all ? 100.0 * (double)r->samples / (double)all : 0;
	}
	qsort(res->rows, res->nrows, sizeof *res->rows, orders[sort]);
	rc = 0;
out:
	free(ps.p);
	if (rc)
		flat_free(res);
	return rc;
}

void flat_free(struct flat_result *res)
{
	free(res->rows);
	free(res->split);
	free(res->cpus);
	memset(res, 0, sizeof *res);
}

uint64_t flat_cpu_total(const struct flat_result *res, unsigned cpu)
{
	for (size_t i = 0; i < res->ncpus; i++)
		if (res->cpus[i].cpu == cpu)
			return res->cpus[i].samples;
	return 0;
}

static int has_samples(const struct profile *p, uint16_t id)
{
	for (size_t i = 0; i < p->nsamples; i++)
		if (p->samples[i].event == id && p->samples[i].count)
			return 1;
	return 0;
}

int flat_default_event(const struct profile *p)
{
	if (p->nevents < 2)
		return FLAT_ALL_EVENTS;
	for (unsigned i = 0; i < p->nevents; i++)
		if (has_samples(p, p->events[i].id))
			return p->events[i].id;
	return p->events[0].id;
}
