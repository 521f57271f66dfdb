/* SPDX-License-Identifier: BSD-2-Clause */
/* Statistics over repeated runs (stats.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

#define CF_MAX_ITER 300
#define CF_EPS 1e-15
#define CF_TINY 1e-300

/* The continued fraction of I_x(a, b) (the form that converges for x < (a+1)/(a+b+2)),
 * evaluated by the modified Lentz method. */
static double beta_cf(double a, double b, double x)
{
	double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0), h;

	if (fabs(d) < CF_TINY)
		d = CF_TINY;
	d = 1.0 / d;
	h = d;
	for (int m = 1; m <= CF_MAX_ITER; m++) {
		double m2 = 2.0 * m;
		/* even step: d_{2m} = m(b-m)x / ((a+2m-1)(a+2m)) */
		double num = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
		d = 1.0 + num * d;
		c = 1.0 + num / c;
		if (fabs(d) < CF_TINY)
			d = CF_TINY;
		if (fabs(c) < CF_TINY)
			c = CF_TINY;
		d = 1.0 / d;
		h *= d * c;
		/* odd step: d_{2m+1} = -(a+m)(a+b+m)x / ((a+2m)(a+2m+1)) */
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
		d = 1.0 + num * d;
		c = 1.0 + num / c;
		if (fabs(d) < CF_TINY)
			d = CF_TINY;
		if (fabs(c) < CF_TINY)
			c = CF_TINY;
		d = 1.0 / d;
		double step = d * c;
		h *= step;
		if (fabs(step - 1.0) < CF_EPS)
			break;
	}
	return h;
}

double stats_beta_inc(double a, double b, double x)
{
	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	/* x^a (1-x)^b / B(a, b), in logs */
	double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1.0) / (a + b + 2.0))
		return front * beta_cf(a, b, x) / a;
	return 1.0 - front * beta_cf(b, a, 1.0 - x) / b;
}

double stats_t_two_sided(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0.0;
	/* P(|T| >= |t|) = I_{df/(df+t^2)}(df/2, 1/2) */
	return stats_beta_inc(df / 2.0, 0.5, df / (df + t * t));
}

double stats_t_cdf(double t, double df)
{
	double tail = stats_t_two_sided(t, df) / 2.0;

	if (isnan(tail))
		return NAN;
	return t > 0 ? 1.0 - tail : tail;
}

double stats_normal_two_sided(double z)
{
	return erfc(fabs(z) / sqrt(2.0));
}

void stats_summarize(const double *x, size_t n, struct stats_summary *s)
{
	memset(s, 0, sizeof *s);
	s->n = n;
	if (!n)
		return;
	s->min = s->max = x[0];
	for (size_t i = 0; i < n; i++) {
		s->sum += x[i];
		if (x[i] < s->min)
			s->min = x[i];
		if (x[i] > s->max)
			s->max = x[i];
	}
	s->mean = s->sum / (double)n;
	if (n > 1) {
		double ss = 0;
		for (size_t i = 0; i < n; i++)
			ss += (x[i] - s->mean) * (x[i] - s->mean);
		s->sd = sqrt(ss / (double)(n - 1));
	}
	s->range = s->sum != 0 ? (s->max - s->min) / s->sum : 0.0;
}

int stats_welch(const double *a, size_t na, const double *b, size_t nb, struct stats_welch *w)
{
	struct stats_summary sa, sb;

	if (na < 2 || nb < 2)
		return -1;
	stats_summarize(a, na, &sa);
	stats_summarize(b, nb, &sb);
	double va = sa.sd * sa.sd / (double)na, vb = sb.sd * sb.sd / (double)nb;
	double se2 = va + vb;
	w->mean_a = sa.mean;
	w->mean_b = sb.mean;
	if (se2 == 0) {
		int same = sa.mean == sb.mean;
		w->t = same ? 0.0 : (sb.mean > sa.mean ? INFINITY : -INFINITY);
		w->df = 0;
		w->p = same ? 1.0 : 0.0;
		return 0;
	}
	w->t = (sb.mean - sa.mean) / sqrt(se2);
	/* Welch-Satterthwaite */
	w->df = se2 * se2 / (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
	w->p = stats_t_two_sided(w->t, w->df);
	return 0;
}

double stats_two_proportions(uint64_t k1, uint64_t n1, uint64_t k2, uint64_t n2)
{
	if (!n1 || !n2)
		return 1.0;
	double p1 = (double)k1 / (double)n1, p2 = (double)k2 / (double)n2;
	double p = (double)(k1 + k2) / (double)(n1 + n2);
	double se = sqrt(p * (1.0 - p) * (1.0 / (double)n1 + 1.0 / (double)n2));
	if (se == 0)
		return p1 == p2 ? 1.0 : 0.0;
	return stats_normal_two_sided((p2 - p1) / se);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static long find_key(const char **keys, size_t n, const char *key)
{
	const char **k = bsearch(&key, keys, n, sizeof *keys, cmp_str);
	return k ? (long)(k - keys) : -1;
}

int bucket_merge(const struct bucket_run *runs, size_t nruns, struct bucket_matrix *m)
{
	size_t all = 0, n = 0;

	memset(m, 0, sizeof *m);
	for (size_t r = 0; r < nruns; r++)
		all += runs[r].n;
	m->nruns = nruns;
	if (!all)
		return 0;
	if (!(m->keys = malloc(all * sizeof *m->keys)))
		return -1;
	for (size_t r = 0; r < nruns; r++)
		for (size_t i = 0; i < runs[r].n; i++)
			m->keys[n++] = runs[r].keys[i];
	qsort(m->keys, n, sizeof *m->keys, cmp_str);
	size_t u = 0;
	for (size_t i = 0; i < n; i++)
		if (!u || strcmp(m->keys[u - 1], m->keys[i]))
			m->keys[u++] = m->keys[i];
	m->nkeys = u;
	if (!(m->count = calloc(u * nruns, sizeof *m->count))) {
		bucket_matrix_free(m);
		return -1;
	}
	for (size_t r = 0; r < nruns; r++)
		for (size_t i = 0; i < runs[r].n; i++) {
			long k = find_key(m->keys, u, runs[r].keys[i]);
			m->count[(size_t)k * nruns + r] += runs[r].counts[i];
		}
	return 0;
}

void bucket_matrix_free(struct bucket_matrix *m)
{
	free(m->keys);
	free(m->count);
	memset(m, 0, sizeof *m);
}

static int cmp_stats_row(const void *pa, const void *pb)
{
	const struct stats_row *a = pa, *b = pb;

	if (a->s.range != b->s.range)
		return a->s.range > b->s.range ? -1 : 1;
	return strcmp(a->key, b->key);
}

int stats_table_compute(const struct bucket_matrix *m, uint64_t min_count,
			struct stats_table *t)
{
	double *x = NULL;

	memset(t, 0, sizeof *t);
	if (!m->nkeys)
		return 0;
	if (!(t->rows = calloc(m->nkeys, sizeof *t->rows)) ||
	    !(x = malloc(m->nruns * sizeof *x))) {
		free(t->rows);
		t->rows = NULL;
		return -1;
	}
	for (size_t k = 0; k < m->nkeys; k++) {
		const uint64_t *c = &m->count[k * m->nruns];
		int keep = 0;
		for (size_t r = 0; r < m->nruns; r++) {
			x[r] = (double)c[r];
			keep |= c[r] >= min_count;
		}
		if (!keep) {
			t->nfiltered++;
			continue;
		}
		t->rows[t->nrows].key = m->keys[k];
		stats_summarize(x, m->nruns, &t->rows[t->nrows].s);
		t->nrows++;
	}
	free(x);
	qsort(t->rows, t->nrows, sizeof *t->rows, cmp_stats_row);
	return 0;
}

void stats_table_free(struct stats_table *t)
{
	free(t->rows);
	memset(t, 0, sizeof *t);
}
