#include <stdlib.h>
#include <string.h>
#include "flat.h"

/* One sampled (pc, cpu) with its samples (summed over events, when not filtered). */
struct agg {
	struct flat_pcinfo in;
	uint64_t count;
	uint16_t cpu;
};

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

static int cmp_pc_cpu(const void *x, const void *y)
{
	const struct agg *a = x, *b = y;
	int c = cmp_u64(a->in.pc, b->in.pc);
	return c ? c : cmp_u64(a->cpu, b->cpu);
}

static int cmp_cpu(const void *a, const void *b)
{
	return cmp_u64(((const struct flat_cpu_samples *)a)->cpu,
		       ((const struct flat_cpu_samples *)b)->cpu);
}

static int cmp_u64p(const void *a, const void *b)
{
	return cmp_u64(*(const uint64_t *)a, *(const uint64_t *)b);
}

long flat_distinct_pcs(const struct profile *p, uint64_t **out)
{
	size_t n = 0;

	*out = NULL;
	if (!p->nsamples)
		return 0;
	uint64_t *pcs = malloc(p->nsamples * sizeof *pcs);
	if (!pcs)
		return -1;
	for (size_t i = 0; i < p->nsamples; i++)
		pcs[i] = p->samples[i].pc;
	qsort(pcs, p->nsamples, sizeof *pcs, cmp_u64p);
	for (size_t i = 0; i < p->nsamples; i++)
		if (n == 0 || pcs[n - 1] != pcs[i])
			pcs[n++] = pcs[i];
	*out = pcs;
	return (long)n;
}

static const struct flat_pcinfo *find_info(const struct flat_pcinfo *info, size_t n, uint64_t pc)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (info[mid].pc < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && info[lo].pc == pc ? &info[lo] : NULL;
}

/* The filtered samples summed per (pc, cpu), sorted by pc then cpu, each with the info of
 * its pc. */
static long aggregate(const struct profile *p, int event, const struct flat_pcinfo *info,
		      size_t ninfo, struct agg **out, uint64_t *total)
{
	size_t n = 0, m = 0;
	struct agg *a = p->nsamples ? calloc(p->nsamples, sizeof *a) : NULL;
	const struct flat_pcinfo *in = NULL;

	*out = a;
	*total = 0;
	if (p->nsamples && !a)
		return -1;
	for (size_t i = 0; i < p->nsamples; i++) {
		const struct profile_sample *s = &p->samples[i];
		if (event != FLAT_ALL_EVENTS && s->event != event)
			continue;
		a[n].in.pc = s->pc;
		a[n].cpu = s->cpu;
		a[n].count = s->count;
		*total += s->count;
		n++;
	}
	if (n)
		qsort(a, n, sizeof *a, cmp_pc_cpu);
	for (size_t i = 0; i < n; i++) {
		if (m && !cmp_pc_cpu(&a[m - 1], &a[i])) {
			a[m - 1].count += a[i].count;
			continue;
		}
		uint64_t pc = a[i].in.pc, count = a[i].count;
		uint16_t cpu = a[i].cpu;
		if (!m || a[m - 1].in.pc != pc)
			in = find_info(info, ninfo, pc);
		memset(&a[m], 0, sizeof a[m]);
		if (in) {
			a[m].in = *in;
		} else {
			a[m].in.pc = pc;
			a[m].in.addr = pc;
		}
		a[m].cpu = cpu;
		a[m].count = count;
		m++;
	}
	return (long)m;
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

/* Grouping orders: equal under the comparator = same row. */
static int key_function(const void *x, const void *y)
{
	const struct flat_pcinfo *a = &((const struct agg *)x)->in, *b = &((const struct agg *)y)->in;
	int c = cmp_origin(a, b);
	if (!c)
		c = cmp_str(a->symbol, b->symbol);
	if (c)
		return c;
	if (!a->symbol)
		return a->outside ? cmp_u64(region_of(a->pc), region_of(b->pc)) : 0;
	return cmp_u64(a->sym_lo, b->sym_lo);
}

static int key_address(const void *x, const void *y)
{
	return cmp_u64(((const struct agg *)x)->in.pc, ((const struct agg *)y)->in.pc);
}

static int key_cpu(const void *x, const void *y)
{
	int c = cmp_u64(((const struct agg *)x)->cpu, ((const struct agg *)y)->cpu);
	return c ? c : key_function(x, y);
}

static int key_line(const void *x, const void *y)
{
	const struct flat_pcinfo *a = &((const struct agg *)x)->in, *b = &((const struct agg *)y)->in;
	int c = cmp_origin(a, b);
	if (!c)
		c = cmp_str(a->file, b->file);
	if (c)
		return c;
	if (a->file && (c = cmp_u64(a->line, b->line)))
		return c;
	if ((c = cmp_str(func_of(a), func_of(b))) || a->file || func_of(a) || !a->outside)
		return c;
	return cmp_u64(region_of(a->pc), region_of(b->pc));
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

/* The known source line with the most samples among g[0..n) (ties: file name, then the
 * lower line). tmp has room for n entries. */
static void hottest_line(const struct agg *g, size_t n, struct line_count *tmp,
			 struct flat_row *row)
{
	size_t m = 0;
	struct line_count best = { NULL, 0, 0 };

	for (size_t i = 0; i < n; i++)
		if (g[i].in.file)
			tmp[m++] = (struct line_count){ g[i].in.file, g[i].in.line, g[i].count };
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

static void sampled_range(const struct agg *g, size_t n, struct flat_row *row)
{
	row->addr_lo = UINT64_MAX;
	row->addr_hi = 0;
	for (size_t i = 0; i < n; i++) {
		if (g[i].in.addr < row->addr_lo)
			row->addr_lo = g[i].in.addr;
		if (g[i].in.addr + 1 > row->addr_hi)
			row->addr_hi = g[i].in.addr + 1;
	}
}

static void fill_row(const struct agg *g, size_t n, enum flat_sort sort,
		     struct line_count *tmp, struct flat_row *row)
{
	const struct flat_pcinfo *in = &g[0].in;

	memset(row, 0, sizeof *row);
	for (size_t i = 0; i < n; i++)
		row->samples += g[i].count;
	row->cpu = -1;
	row->outside = in->outside;
	row->module = in->module;
	switch (sort) {
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
		hottest_line(g, n, tmp, row);
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
		row->addr_lo = in->addr;
		row->addr_hi = in->addr + 1;
		row->offset = in->symbol ? in->addr - in->sym_lo : 0;
		break;
	}
	/* as the keys group them: by page when no symbol (line rows: no line, no function) */
	if (in->outside && !row->symbol && (sort != FLAT_BY_LINE || !row->file)) {
		row->region_lo = region_of(in->pc);
		row->region_hi = row->region_lo + FLAT_REGION_SIZE;
	}
}

/* The (cpu, count) of g[0..n) summed per CPU into out, by CPU ascending. Returns the
 * entries written (at most n). */
static size_t per_cpu(const struct agg *g, size_t n, struct flat_cpu_samples *out)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		out[i] = (struct flat_cpu_samples){ g[i].cpu, g[i].count };
	qsort(out, n, sizeof *out, cmp_cpu);
	for (size_t i = 0; i < n; i++) {
		if (m && out[m - 1].cpu == out[i].cpu)
			out[m - 1].samples += out[i].samples;
		else
			out[m++] = out[i];
	}
	return m;
}

static int (*const keys[])(const void *, const void *) = {
	[FLAT_BY_FUNCTION] = key_function, [FLAT_BY_LINE] = key_line,
	[FLAT_BY_ADDRESS] = key_address, [FLAT_BY_CPU] = key_cpu,
};

static int (*const orders[])(const void *, const void *) = {
	[FLAT_BY_FUNCTION] = row_function, [FLAT_BY_LINE] = row_line,
	[FLAT_BY_ADDRESS] = row_address, [FLAT_BY_CPU] = row_cpu,
};

/* Rows from the aggregates a[0..n), grouped by key. */
static void group(struct agg *a, size_t n, enum flat_sort sort, struct line_count *tmp,
		  struct flat_result *res)
{
	int (*key)(const void *, const void *) = keys[sort];
	size_t used = 0;

	qsort(a, n, sizeof *a, key);
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		struct flat_row *row = &res->rows[res->nrows++];

		while (j < n && !key(&a[i], &a[j]))
			j++;
		fill_row(a + i, j - i, sort, tmp, row);
		row->per_cpu = res->split + used;
		row->nper_cpu = per_cpu(a + i, j - i, res->split + used);
		used += row->nper_cpu;
		i = j;
	}
}

int flat_compute(const struct profile *p, int event, const struct flat_pcinfo *info,
		 size_t ninfo, enum flat_sort sort, struct flat_result *res)
{
	struct agg *a;
	struct line_count *tmp = NULL;
	long n;

	memset(res, 0, sizeof *res);
	if ((unsigned)sort >= sizeof keys / sizeof keys[0])
		return -1;
	n = aggregate(p, event, info, ninfo, &a, &res->total);
	if (n < 0)
		return -1;
	if (n == 0) {
		free(a);
		return 0;
	}
	res->rows = calloc((size_t)n, sizeof *res->rows);
	res->split = calloc((size_t)n, sizeof *res->split);
	res->cpus = calloc((size_t)n, sizeof *res->cpus);
	tmp = calloc((size_t)n, sizeof *tmp);
	if (!res->rows || !res->split || !res->cpus || !tmp) {
		free(a);
		free(tmp);
		flat_free(res);
		return -1;
	}
	for (long i = 0; i < n; i++) {
		if (!a[i].in.outside)
			continue;
		res->outside += a[i].count;
		if (a[i].in.symbol)
			res->outside_symbolized += a[i].count;
	}
	res->ncpus = per_cpu(a, (size_t)n, res->cpus);
	group(a, (size_t)n, sort, tmp, res);
	for (size_t i = 0; i < res->nrows; i++) {
		struct flat_row *r = &res->rows[i];
		uint64_t all = r->cpu >= 0 ? flat_cpu_total(res, (unsigned)r->cpu) : 0;

		r->percent = res->total ? 100.0 * (double)r->samples / (double)res->total : 0;
		r->cpu_percent = all ? 100.0 * (double)r->samples / (double)all : 0;
	}
	qsort(res->rows, res->nrows, sizeof *res->rows, orders[sort]);
	free(a);
	free(tmp);
	return 0;
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
