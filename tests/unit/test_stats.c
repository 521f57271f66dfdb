/* SPDX-License-Identifier: BSD-2-Clause */
/* The statistics of analysis/stats.h: the regularized incomplete beta function and the t
 * distribution against closed forms and published table values, Welch's t-test, the
 * two-proportion test, lining up runs by key, and the dcpistats table. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "stats.h"

static void near(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.12g, want %.12g (tolerance %g)", got, want, tol);
}

static void test_beta_closed_forms(void **state)
{
	(void)state;
	for (double x = 0.05; x < 1; x += 0.1) {
		near(stats_beta_inc(1, 1, x), x, 1e-12);             /* uniform */
		near(stats_beta_inc(3, 1, x), pow(x, 3), 1e-12);     /* I_x(a,1) = x^a */
		near(stats_beta_inc(1, 4, x), 1 - pow(1 - x, 4), 1e-12);
	}
	near(stats_beta_inc(7.5, 7.5, 0.5), 0.5, 1e-12);         /* symmetry */
	near(stats_beta_inc(2, 5, 0.3) + stats_beta_inc(5, 2, 0.7), 1.0, 1e-12);
	near(stats_beta_inc(2, 3, 0), 0, 0);
	near(stats_beta_inc(2, 3, 1), 1, 0);
	assert_true(isnan(stats_beta_inc(2, 3, 1.5)));
	assert_true(isnan(stats_beta_inc(0, 3, 0.5)));
}

static void test_t_cdf(void **state)
{
	(void)state;
	/* df 1 is the Cauchy distribution: 1/2 + atan(t)/pi */
	for (double t = -5; t <= 5; t += 0.7)
		near(stats_t_cdf(t, 1), 0.5 + atan(t) / M_PI, 1e-12);
	/* df 2: 1/2 + t / (2 sqrt(2 + t^2)) */
	for (double t = -5; t <= 5; t += 0.7)
		near(stats_t_cdf(t, 2), 0.5 + t / (2 * sqrt(2 + t * t)), 1e-12);
	near(stats_t_cdf(0, 7), 0.5, 1e-15);
	/* two-sided 5% critical values from the t table */
	near(stats_t_two_sided(12.706, 1), 0.05, 1e-4);
	near(stats_t_two_sided(2.776, 4), 0.05, 1e-4);
	near(stats_t_two_sided(2.228, 10), 0.05, 1e-4);
	near(stats_t_two_sided(2.042, 30), 0.05, 1e-4);
	/* one-sided 5% and 1% */
	near(stats_t_cdf(1.812, 10), 0.95, 1e-4);
	near(stats_t_cdf(-2.764, 10), 0.01, 1e-4);
	/* a fractional df (Welch's), against numerical integration of the density */
	near(stats_t_two_sided(1.5, 3.7), 0.21359817, 1e-6);
	/* large df tends to the normal */
	near(stats_t_two_sided(1.959964, 1e7), 0.05, 1e-5);
	near(stats_normal_two_sided(1.959964), 0.05, 1e-6);
	near(stats_t_two_sided(INFINITY, 3), 0, 0);
}

static void test_welch(void **state)
{
	(void)state;
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 3, 4, 5, 6, 7 };
	const double c[] = { 10, 10, 10 }, d[] = { 12, 12, 12 };
	struct stats_welch w;

	/* variances 2.5 and 2.5: t = 2 / sqrt(0.5 + 0.5) = 2, df = 1 / (2 * 0.25 / 4) = 8 */
	assert_int_equal(stats_welch(a, 5, b, 5, &w), 0);
	near(w.t, 2, 1e-12);
	near(w.df, 8, 1e-12);
	near(w.p, 0.0805162, 1e-6);
	/* unequal sizes and variances: df from Welch-Satterthwaite */
	const double e[] = { 20, 22, 19, 21 }, f[] = { 30, 25, 35, 28, 32, 40 };
	assert_int_equal(stats_welch(e, 4, f, 6, &w), 0);
	double va = 5.0 / 3.0 / 4.0, vb = 0, mb = 190.0 / 6.0;
	for (int i = 0; i < 6; i++)
		vb += (f[i] - mb) * (f[i] - mb);
	vb = vb / 5.0 / 6.0;
	near(w.t, (mb - 20.5) / sqrt(va + vb), 1e-12);
	near(w.df, (va + vb) * (va + vb) / (va * va / 3 + vb * vb / 5), 1e-9);
	assert_true(w.p > 0 && w.p < 0.01);
	/* no variance: exact */
	assert_int_equal(stats_welch(c, 3, d, 3, &w), 0);
	near(w.p, 0, 0);
	assert_int_equal(stats_welch(c, 3, c, 3, &w), 0);
	near(w.p, 1, 0);
	/* one run a side cannot be tested */
	assert_int_equal(stats_welch(a, 1, b, 5, &w), -1);
}

static void test_two_proportions(void **state)
{
	(void)state;
	/* 50 of 1000 against 50 of 1000: no difference */
	near(stats_two_proportions(50, 1000, 50, 1000), 1.0, 1e-12);
	/* 100/1000 vs 150/1000: pooled p 0.125, se = sqrt(.125*.875*.002), z = 0.05/se */
	double se = sqrt(0.125 * 0.875 * 0.002);
	near(stats_two_proportions(100, 1000, 150, 1000), erfc(0.05 / se / sqrt(2)), 1e-12);
	near(stats_two_proportions(1, 0, 1, 10), 1.0, 0);
}

static void test_summary(void **state)
{
	(void)state;
	const double x[] = { 90, 100, 110, 100 };
	struct stats_summary s;

	stats_summarize(x, 4, &s);
	assert_int_equal(s.n, 4);
	near(s.sum, 400, 0);
	near(s.mean, 100, 0);
	near(s.sd, sqrt(200.0 / 3.0), 1e-12);
	near(s.min, 90, 0);
	near(s.max, 110, 0);
	near(s.range, 20.0 / 400.0, 1e-15);
}

/* Three runs; "b" missing from run 1 counts 0 there; "rare" below the cutoff everywhere. */
static void test_table(void **state)
{
	(void)state;
	const char *k0[] = { "main", "b", "rare" }, *k1[] = { "main", "rare" },
		*k2[] = { "b", "main" };
	const uint64_t c0[] = { 100, 40, 2 }, c1[] = { 100, 3 }, c2[] = { 50, 102 };
	struct bucket_run runs[] = { { k0, c0, 3, 142 }, { k1, c1, 2, 103 }, { k2, c2, 2, 152 } };
	struct bucket_matrix m;
	struct stats_table t;

	assert_int_equal(bucket_merge(runs, 3, &m), 0);
	assert_int_equal(m.nkeys, 3);
	assert_string_equal(m.keys[0], "b");
	assert_string_equal(m.keys[1], "main");
	assert_string_equal(m.keys[2], "rare");
	assert_int_equal(m.count[0 * 3 + 0], 40);
	assert_int_equal(m.count[0 * 3 + 1], 0);
	assert_int_equal(m.count[0 * 3 + 2], 50);
	assert_int_equal(m.count[1 * 3 + 2], 102);
	assert_int_equal(stats_table_compute(&m, 10, &t), 0);
	assert_int_equal(t.nrows, 2);
	assert_int_equal(t.nfiltered, 1);
	/* b: 40, 0, 50: range 50/90; main: 100, 100, 102: range 2/302 */
	assert_string_equal(t.rows[0].key, "b");
	near(t.rows[0].s.range, 50.0 / 90.0, 1e-12);
	near(t.rows[0].s.min, 0, 0);
	assert_string_equal(t.rows[1].key, "main");
	near(t.rows[1].s.mean, 302.0 / 3.0, 1e-12);
	stats_table_free(&t);
	bucket_matrix_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_beta_closed_forms),
		cmocka_unit_test(test_t_cdf),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_two_proportions),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
