/* SPDX-License-Identifier: BSD-2-Clause */
/* Differential profiling (diff.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

double diff_ratio(double m1, double m2)
{
	if (m1 == 0)
		return m2 == 0 ? 1.0 : INFINITY;
	return m2 / m1;
}

double diff_wdiff(double w1, double w2, double m1, double m2)
{
	return w1 * m2 - w2 * m1;
}

double diff_saturation_linear(double ms, double m1, double m2, double l1, double l2)
{
	if (!(m2 > m1))
		return INFINITY;
	return (ms - m2) * (l2 - l1) / (m2 - m1) + l2;
}

double diff_saturation_power(double ms, double m1, double m2, double l1, double l2)
{
	if (!(m2 > m1) || !(m1 > 0) || !(l1 > 0) || !(l2 > 0))
		return INFINITY;
	return exp(log(ms / m2) * log(l2 / l1) / log(m2 / m1) + log(l2));
}

/* The order of a combining function: descending, except saturation. NaN last. */
static int cmp_value(double a, double b, int ascending)
{
	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	if (a == b)
		return 0;
	return (a < b) == ascending ? -1 : 1;
}

static int cmp_row(const void *pa, const void *pb, void *ctx)
{
	const struct diff_row *a = pa, *b = pb;
	int c = cmp_value(a->value, b->value, *(const enum diff_combine *)ctx == DIFF_SATURATION);

	if (!c)   /* ties: the bigger bucket first, then by key */
		c = cmp_value(a->share1 + a->share2, b->share1 + b->share2, 0);
	return c ? c : strcmp(a->key, b->key);
}

static double test_bucket(const uint64_t *c, const uint64_t *totals, size_t nbase,
			  size_t nnew, double *x)
{
	if (nbase == 1 && nnew == 1)
		return stats_two_proportions(c[0], totals[0], c[1], totals[1]);
	if (nbase < 2 || nnew < 2)
		return NAN;
	struct stats_welch w;
	if (stats_welch(x, nbase, x + nbase, nnew, &w))
		return NAN;
	return w.p;
}

int diff_compute(const struct bucket_matrix *m, const uint64_t *totals, size_t nbase,
		 const struct diff_opts *o, struct diff_result *r)
{
	size_t nruns = m->nruns, nnew = nruns - nbase;
	double *x;

	memset(r, 0, sizeof *r);
	r->nbase = nbase;
	r->nnew = nnew;
	r->test = nbase == 1 && nnew == 1 ? "two-proportion" : "welch";
	for (size_t i = 0; i < nruns; i++)
		*(i < nbase ? &r->total1 : &r->total2) += totals[i];
	if (!m->nkeys || !nbase || !nnew)
		return 0;
	if (!(r->rows = calloc(m->nkeys, sizeof *r->rows)))
		return -1;
	if (!(x = malloc(nruns * sizeof *x))) {
		diff_free(r);
		return -1;
	}
	for (size_t k = 0; k < m->nkeys; k++) {
		const uint64_t *c = &m->count[k * nruns];
		uint64_t s1 = 0, s2 = 0;
		int keep = 0;
		for (size_t i = 0; i < nruns; i++) {
			keep |= c[i] >= o->min_count;
			x[i] = totals[i] ? 100.0 * (double)c[i] / (double)totals[i] : 0.0;
			*(i < nbase ? &s1 : &s2) += c[i];
		}
		if (!keep) {
			r->nfiltered++;
			continue;
		}
		struct diff_row *d = &r->rows[r->nrows++];
		d->key = m->keys[k];
		d->state = !s1 ? DIFF_NEW : !s2 ? DIFF_GONE : DIFF_BOTH;
		d->m1 = (double)s1 / (double)nbase;
		d->m2 = (double)s2 / (double)nnew;
		for (size_t i = 0; i < nruns; i++)
			*(i < nbase ? &d->share1 : &d->share2) += x[i];
		d->share1 /= (double)nbase;
		d->share2 /= (double)nnew;
		d->delta = d->share2 - d->share1;
		d->change = d->share1 > 0 ? (d->share2 / d->share1 - 1.0) * 100.0
			: d->share2 > 0 ? INFINITY : 0.0;
		switch (o->combine) {
		case DIFF_RATIO:
			d->value = diff_ratio(d->m1, d->m2);
			break;
		case DIFF_WDIFF:
			d->value = diff_wdiff(o->w1, o->w2, d->m1, d->m2);
			break;
		case DIFF_SATURATION:
			d->value = o->power
				? diff_saturation_power(o->ms, d->share1, d->share2, o->l1, o->l2)
				: diff_saturation_linear(o->ms, d->share1, d->share2, o->l1, o->l2);
			break;
		case DIFF_DELTA:
			d->value = d->delta;
			break;
		}
		d->p = test_bucket(c, totals, nbase, nnew, x);
		d->significant = !isnan(d->p) && d->p < o->alpha;
	}
	free(x);
	qsort_r(r->rows, r->nrows, sizeof *r->rows, cmp_row, (void *)&o->combine);
	return 0;
}

void diff_free(struct diff_result *r)
{
	free(r->rows);
	r->rows = NULL;
	r->nrows = 0;
}
