/* SPDX-License-Identifier: BSD-2-Clause */
/* Statistics over repeated runs: DCPI's dcpistats table (per bucket, across N runs: sum,
 * mean, standard deviation, min, max and normalized range), Welch's two-sample t-test, and
 * the Student t distribution it needs (through the regularized incomplete beta function).
 * No I/O.
 *
 * A run is a list of (key, count) buckets with the run's total; bucket_merge lines up the
 * buckets of several runs by key (a bucket a run lacks counts 0 there).
 */
#ifndef BMPROF_STATS_H
#define BMPROF_STATS_H

#include <stddef.h>
#include <stdint.h>

/* The regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1 (NaN outside). */
double stats_beta_inc(double a, double b, double x);
/* P(T <= t) for Student's t with df > 0 degrees of freedom (df need not be whole). */
double stats_t_cdf(double t, double df);
/* P(|T| >= |t|): the two-sided p-value of t. */
double stats_t_two_sided(double t, double df);
/* The standard normal's two-sided p-value of z. */
double stats_normal_two_sided(double z);

struct stats_summary {
	size_t n;
	double sum, mean, sd;        /* sd: sample standard deviation (n - 1); 0 when n < 2 */
	double min, max;
	double range;                /* (max - min) / sum, DCPI's normalized range; 0 if sum 0 */
};
void stats_summarize(const double *x, size_t n, struct stats_summary *s);

/* Welch's t-test of mean(b) - mean(a). t and df as usual; p two-sided. Needs n >= 2 on both
 * sides (returns -1, w untouched, otherwise). With no variance on either side the
 * difference is exact: p 0 if the means differ, 1 if not (t and df are then infinite/0). */
struct stats_welch {
	double t, df, p;
	double mean_a, mean_b;
};
int stats_welch(const double *a, size_t na, const double *b, size_t nb, struct stats_welch *w);

/* Two proportions, k1 of n1 against k2 of n2 (one run a side: each sample lands in the
 * bucket or not): the two-sided p-value of the pooled z-test. 1 when it cannot be told. */
double stats_two_proportions(uint64_t k1, uint64_t n1, uint64_t k2, uint64_t n2);

/* One run's buckets. keys[i] names bucket i (unique within the run); strings borrowed. */
struct bucket_run {
	const char *const *keys;
	const uint64_t *counts;
	size_t n;
	uint64_t total;              /* samples of the run (all buckets; may exceed the sum) */
};

/* The buckets of runs[0..nruns) lined up: keys (sorted, unique, borrowed from the runs) and
 * count[k * nruns + r] the count of key k in run r. */
struct bucket_matrix {
	const char **keys;
	size_t nkeys, nruns;
	uint64_t *count;
};
int bucket_merge(const struct bucket_run *runs, size_t nruns, struct bucket_matrix *m);
void bucket_matrix_free(struct bucket_matrix *m);

/* dcpistats: one row per bucket over the runs, sorted by normalized range descending
 * (ties by key). Buckets whose counts are all below min_count are left out (counted in
 * nfiltered). */
struct stats_row {
	const char *key;
	struct stats_summary s;
};
struct stats_table {
	struct stats_row *rows;
	size_t nrows, nfiltered;
};
int stats_table_compute(const struct bucket_matrix *m, uint64_t min_count,
			struct stats_table *t);
void stats_table_free(struct stats_table *t);

#endif
