/* SPDX-License-Identifier: BSD-2-Clause */
/* Module rows and grouped row orders over a flat table (flat.h). */
#include <stdlib.h>
#include <string.h>
#include "flat.h"

static int cmp_u64(uint64_t a, uint64_t b) { return a < b ? -1 : a > b; }

static int cmp_str(const char *a, const char *b)
{
	if (!a || !b)
		return !a - !b;
	return strcmp(a, b);
}

/* Where a row's code is: the image, a firmware module, or (module rows only) a region. */
static int cmp_origin(const struct flat_row *a, const struct flat_row *b, int regions)
{
	int c = cmp_u64((uint64_t)!!a->outside, (uint64_t)!!b->outside);

	if (!c)
		c = cmp_str(a->module, b->module);
	if (!c && regions && !a->module)
		c = cmp_u64(a->region_lo, b->region_lo);
	return c;
}

static int cmp_key(const struct flat_row *a, const struct flat_row *b, enum flat_group key)
{
	int c = cmp_origin(a, b, 0);

	if (!c && key == FLAT_GROUP_FUNCTION)
		c = cmp_str(a->symbol, b->symbol);
	return c;
}

static const struct flat_row *g_rows;
static enum flat_group g_key;
static const uint64_t *g_total;

static int cmp_by_key(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	int c = cmp_key(&g_rows[a], &g_rows[b], g_key);
	return c ? c : cmp_u64(a, b);
}

/* group total (descending), key, place */
static int cmp_by_group(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	int c = cmp_u64(g_total[b], g_total[a]);
	if (!c)
		c = cmp_key(&g_rows[a], &g_rows[b], g_key);
	return c ? c : cmp_u64(a, b);
}

int flat_group_order(const struct flat_result *res, enum flat_group key, size_t *perm)
{
	uint64_t *total = malloc((res->nrows ? res->nrows : 1) * sizeof *total);

	if (!total)
		return -1;
	for (size_t i = 0; i < res->nrows; i++)
		perm[i] = i;
	g_rows = res->rows;
	g_key = key;
	qsort(perm, res->nrows, sizeof *perm, cmp_by_key);
	for (size_t i = 0, j; i < res->nrows; i = j) {
		uint64_t sum = 0;
		for (j = i; j < res->nrows && !cmp_key(&res->rows[perm[i]], &res->rows[perm[j]], key); j++)
			sum += res->rows[perm[j]].samples;
		for (size_t k = i; k < j; k++)
			total[perm[k]] = sum;
	}
	g_total = total;
	qsort(perm, res->nrows, sizeof *perm, cmp_by_group);
	free(total);
	return 0;
}

int flat_permute(struct flat_row *rows, size_t n, const size_t *perm)
{
	struct flat_row *tmp = malloc((n ? n : 1) * sizeof *tmp);

	if (!tmp)
		return -1;
	for (size_t i = 0; i < n; i++)
		tmp[i] = rows[perm[i]];
	memcpy(rows, tmp, n * sizeof *tmp);
	free(tmp);
	return 0;
}

static int cmp_cpu(const void *x, const void *y)
{
	const struct flat_cpu_samples *a = x, *b = y;
	return (a->cpu > b->cpu) - (a->cpu < b->cpu);
}

static int cmp_module_row(const void *x, const void *y)
{
	const struct flat_row *a = x, *b = y;
	int c = cmp_u64(b->samples, a->samples);
	return c ? c : cmp_origin(a, b, 1);
}

static int cmp_row_ptr(const void *x, const void *y)
{
	const struct flat_row *a = *(const struct flat_row *const *)x;
	const struct flat_row *b = *(const struct flat_row *const *)y;
	int c = cmp_origin(a, b, 1);
	return c ? c : (a > b) - (a < b);
}

/* One module row from the function rows g[0..n) (one origin); its per-CPU entries at
 * split. Returns how many entries it used. */
static size_t module_row(const struct flat_row *const *g, size_t n, struct flat_row *row,
			 struct flat_cpu_samples *split)
{
	size_t m = 0, k = 0;

	memset(row, 0, sizeof *row);
	row->cpu = -1;
	row->outside = g[0]->outside;
	row->module = g[0]->module;
	row->symbol = row->function = g[0]->module;
	row->addr_lo = UINT64_MAX;
	if (g[0]->outside && !g[0]->module) {
		row->region_lo = g[0]->region_lo;
		row->region_hi = g[0]->region_hi;
	}
	for (size_t i = 0; i < n; i++) {
		row->samples += g[i]->samples;
		row->addr_lo = g[i]->addr_lo < row->addr_lo ? g[i]->addr_lo : row->addr_lo;
		row->addr_hi = g[i]->addr_hi > row->addr_hi ? g[i]->addr_hi : row->addr_hi;
		for (size_t c = 0; c < g[i]->nper_cpu; c++)
			split[m++] = g[i]->per_cpu[c];
	}
	qsort(split, m, sizeof *split, cmp_cpu);
	for (size_t i = 0; i < m; i++) {
		if (k && split[k - 1].cpu == split[i].cpu)
			split[k - 1].samples += split[i].samples;
		else
			split[k++] = split[i];
	}
	row->per_cpu = split;
	row->nper_cpu = k;
	return k;
}

int flat_by_module(const struct flat_result *fn, struct flat_result *out)
{
	const struct flat_row **order = malloc((fn->nrows ? fn->nrows : 1) * sizeof *order);
	size_t nsplit = 0, used = 0;

	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < fn->nrows; i++)
		nsplit += fn->rows[i].nper_cpu;
	out->rows = calloc(fn->nrows ? fn->nrows : 1, sizeof *out->rows);
	out->split = calloc(nsplit ? nsplit : 1, sizeof *out->split);
	out->cpus = calloc(fn->ncpus ? fn->ncpus : 1, sizeof *out->cpus);
	if (!order || !out->rows || !out->split || !out->cpus) {
		free(order);
		flat_free(out);
		return -1;
	}
	for (size_t i = 0; i < fn->nrows; i++)
		order[i] = &fn->rows[i];
	qsort(order, fn->nrows, sizeof *order, cmp_row_ptr);
	for (size_t i = 0, j; i < fn->nrows; i = j) {
		for (j = i + 1; j < fn->nrows && !cmp_origin(order[i], order[j], 1); j++)
			;
		used += module_row(order + i, j - i, &out->rows[out->nrows++], out->split + used);
	}
	free(order);
	out->total = fn->total;
	out->outside = fn->outside;
	out->outside_symbolized = fn->outside_symbolized;
	memcpy(out->cpus, fn->cpus, fn->ncpus * sizeof *out->cpus);
	out->ncpus = fn->ncpus;
	for (size_t i = 0; i < out->nrows; i++)
		out->rows[i].percent = out->total ? 100.0 * (double)out->rows[i].samples /
					(double)out->total : 0;
	qsort(out->rows, out->nrows, sizeof *out->rows, cmp_module_row);
	return 0;
}
