#include <stdlib.h>
#include <string.h>
#include "flat.h"

/* One sampled pc with its samples summed over CPUs (and events, when not filtered). */
struct agg {
	struct flat_pcinfo in;
	uint64_t count;
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

static int cmp_pc(const void *a, const void *b)
{
	return cmp_u64(((const struct agg *)a)->in.pc, ((const struct agg *)b)->in.pc);
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

/* The filtered samples summed per pc, sorted by pc, each with its resolved info. */
static long aggregate(const struct profile *p, int event, const struct flat_pcinfo *info,
		      size_t ninfo, struct agg **out, uint64_t *total)
{
	size_t n = 0, m = 0;
	struct agg *a = p->nsamples ? calloc(p->nsamples, sizeof *a) : NULL;

	*out = a;
	*total = 0;
	if (p->nsamples && !a)
		return -1;
	for (size_t i = 0; i < p->nsamples; i++) {
		const struct profile_sample *s = &p->samples[i];
		if (event != FLAT_ALL_EVENTS && s->event != event)
			continue;
		a[n].in.pc = s->pc;
		a[n].count = s->count;
		*total += s->count;
		n++;
	}
	if (n)
		qsort(a, n, sizeof *a, cmp_pc);
	for (size_t i = 0; i < n; i++) {
		if (m && a[m - 1].in.pc == a[i].in.pc) {
			a[m - 1].count += a[i].count;
			continue;
		}
		uint64_t pc = a[i].in.pc, count = a[i].count;
		const struct flat_pcinfo *in = find_info(info, ninfo, pc);
		memset(&a[m], 0, sizeof a[m]);
		if (in) {
			a[m].in = *in;
		} else {
			a[m].in.pc = pc;
			a[m].in.addr = pc;
		}
		a[m].count = count;
		m++;
	}
	return (long)m;
}

/* Grouping orders: equal under the comparator = same row. */
static int key_function(const void *x, const void *y)
{
	const struct flat_pcinfo *a = &((const struct agg *)x)->in, *b = &((const struct agg *)y)->in;
	int c = cmp_str(a->symbol, b->symbol);
	if (c || !a->symbol)
		return c;
	return cmp_u64(a->sym_lo, b->sym_lo);
}

static int key_line(const void *x, const void *y)
{
	const struct flat_pcinfo *a = &((const struct agg *)x)->in, *b = &((const struct agg *)y)->in;
	int c = cmp_str(a->file, b->file);
	if (c)
		return c;
	if (a->file && (c = cmp_u64(a->line, b->line)))
		return c;
	return cmp_str(func_of(a), func_of(b));
}

/* Row orders: hottest first, then the key. */
static int cmp_samples(const struct flat_row *a, const struct flat_row *b)
{
	return cmp_u64(b->samples, a->samples);
}

static int row_function(const void *x, const void *y)
{
	const struct flat_row *a = x, *b = y;
	int c = cmp_samples(a, b);
	if (!c)
		c = cmp_str(a->symbol, b->symbol);
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
	return c ? c : cmp_u64(a->addr_lo, b->addr_lo);
}

static int row_address(const void *x, const void *y)
{
	const struct flat_row *a = x, *b = y;
	int c = cmp_samples(a, b);
	return c ? c : cmp_u64(a->addr_lo, b->addr_lo);
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
	switch (sort) {
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
}

int flat_compute(const struct profile *p, int event, const struct flat_pcinfo *info,
		 size_t ninfo, enum flat_sort sort, struct flat_result *res)
{
	int (*key)(const void *, const void *) = sort == FLAT_BY_FUNCTION ? key_function
		: sort == FLAT_BY_LINE ? key_line : NULL;
	int (*order)(const void *, const void *) = sort == FLAT_BY_FUNCTION ? row_function
		: sort == FLAT_BY_LINE ? row_line : row_address;
	struct agg *a;
	struct line_count *tmp = NULL;
	long n = aggregate(p, event, info, ninfo, &a, &res->total);

	res->rows = NULL;
	res->nrows = 0;
	if (n < 0)
		return -1;
	if (n == 0) {
		free(a);
		return 0;
	}
	res->rows = calloc((size_t)n, sizeof *res->rows);
	tmp = calloc((size_t)n, sizeof *tmp);
	if (!res->rows || !tmp) {
		free(a);
		free(tmp);
		flat_free(res);
		return -1;
	}
	if (key)
		qsort(a, (size_t)n, sizeof *a, key);
	for (size_t i = 0; i < (size_t)n;) {
		size_t j = i + 1;
		while (key && j < (size_t)n && !key(&a[i], &a[j]))
			j++;
		fill_row(a + i, j - i, sort, tmp, &res->rows[res->nrows++]);
		i = j;
	}
	for (size_t i = 0; i < res->nrows; i++)
		res->rows[i].percent = res->total ? 100.0 * (double)res->rows[i].samples / (double)res->total : 0;
	qsort(res->rows, res->nrows, sizeof *res->rows, order);
	free(a);
	free(tmp);
	return 0;
}

void flat_free(struct flat_result *res)
{
	free(res->rows);
	res->rows = NULL;
	res->nrows = 0;
	res->total = 0;
}
