/* SPDX-License-Identifier: BSD-2-Clause */
/* Differential profiling (analysis/diff.h) on the examples of McKenney's paper: the ratio
 * profile of Table 2, the weighted differences of the cache-thrashing example (Table 4),
 * and Table 1's ratio, difference and linear-saturation columns (ms = 100%), with the
 * paper's errata; then buckets only on one side, the count cutoff, and significance. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "diff.h"

static void near(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.12g, want %.12g (tolerance %g)", got, want, tol);
}

/* One run a side: keys with base counts c1 and new counts c2, run totals t1, t2. */
static void two_runs(const char **keys, const uint64_t *c1, const uint64_t *c2, size_t n,
		     uint64_t t1, uint64_t t2, const struct diff_opts *o, struct diff_result *r)
{
	struct bucket_run runs[2] = { { keys, c1, n, t1 }, { keys, c2, n, t2 } };
	struct bucket_matrix m;
	uint64_t totals[2] = { t1, t2 };

	assert_int_equal(bucket_merge(runs, 2, &m), 0);
	assert_int_equal(diff_compute(&m, totals, 1, o, r), 0);
	bucket_matrix_free(&m);
}

static const struct diff_row *row(const struct diff_result *r, const char *key)
{
	for (size_t i = 0; i < r->nrows; i++)
		if (!strcmp(r->rows[i].key, key))
			return &r->rows[i];
	fail_msg("no row %s", key);
	return NULL;
}

/* Table 2: poly2 1 -> 12, log 409 -> 554, poly1 60 -> 70 (loads 3 and 4). The paper prints
 * 1.35 and 1.16: the ratios cut, not rounded, to two places (70/60 = 1.1667). */
static void test_table2_ratio(void **state)
{
	(void)state;
	const char *keys[] = { "log", "poly1", "poly2" };
	const uint64_t c1[] = { 409, 60, 1 }, c2[] = { 554, 70, 12 };
	struct diff_opts o = { .combine = DIFF_RATIO, .alpha = 0.01 };
	struct diff_result r;

	two_runs(keys, c1, c2, 3, 470, 636, &o, &r);
	assert_int_equal(r.nrows, 3);
	assert_string_equal(r.rows[0].key, "poly2");
	assert_string_equal(r.rows[1].key, "log");
	assert_string_equal(r.rows[2].key, "poly1");
	near(r.rows[0].value, 12.00, 1e-12);
	near(floor(r.rows[1].value * 100) / 100, 1.35, 1e-12);
	near(floor(r.rows[2].value * 100) / 100, 1.16, 1e-12);
	diff_free(&r);

	/* McKenney's cure for noise: a cutoff. At 10 counts poly2 (1 and 12) still stays, as
	 * one of its counts is above it; at 13 it goes. */
	o.min_count = 13;
	two_runs(keys, c1, c2, 3, 470, 636, &o, &r);
	assert_int_equal(r.nrows, 2);
	assert_int_equal(r.nfiltered, 1);
	assert_string_equal(r.rows[0].key, "log");
	diff_free(&r);
}

/* Table 4: lines of the cache-thrashing fragment on 1 and 2 CPUs; d = w1*m2 - w2*m1 with
 * w1 = 1 CPU, w2 = 2 CPUs. (The text calls it a ratio profile; the table is Eq. 3.) */
static void test_table4_wdiff(void **state)
{
	(void)state;
	const char *keys[] = { "64", "75", "68", "71", "72", "76", "73", "65", "70", "66" };
	const uint64_t c1[] = { 61, 198, 74, 96, 4, 13, 279, 16, 214, 68 };
	const uint64_t c2[] = { 519, 457, 162, 206, 18, 25, 556, 21, 417, 108 };
	const double want[] = { 397, 61, 14, 14, 10, -1, -2, -11, -11, -28 };
	struct diff_opts o = { .combine = DIFF_WDIFF, .w1 = 1, .w2 = 2, .alpha = 0.01 };
	struct diff_result r;

	two_runs(keys, c1, c2, 10, 1023, 2489, &o, &r);
	assert_int_equal(r.nrows, 10);
	for (size_t i = 0; i < 10; i++) {
		near(row(&r, keys[i])->value, want[i], 1e-9);
		near(r.rows[i].value, want[i], 1e-9);      /* sorted descending */
	}
	assert_string_equal(r.rows[0].key, "64");
	assert_string_equal(r.rows[9].key, "66");
	diff_free(&r);
	near(diff_wdiff(1, 2, 61, 519), 397, 0);
	near(diff_wdiff(3, 3, 5, 5), 0, 0);      /* linear scaling gives 0 */
}

/* Table 1: CPU 5% -> 10%, memory 20% -> 30%, disk 98% -> 99% at loads 1 and 2, saturated at
 * 100%: R 2.00, 1.50, 1.01; LSL 20, 9, 3, so disk first in ascending order. The "D" column
 * (5, 10, 1) is plain m2 - m1: Eq. 3 with w1 = 1, w2 = 2 would give 0, -10, -97. */
static void test_table1_saturation(void **state)
{
	(void)state;
	const char *keys[] = { "cpu", "memory", "disk" };
	const uint64_t c1[] = { 5, 20, 98 }, c2[] = { 10, 30, 99 };
	struct diff_opts o = { .combine = DIFF_SATURATION, .l1 = 1, .l2 = 2, .ms = 100,
			       .alpha = 0.01 };
	struct diff_result r;

	two_runs(keys, c1, c2, 3, 100, 100, &o, &r);
	assert_string_equal(r.rows[0].key, "disk");
	assert_string_equal(r.rows[1].key, "memory");
	assert_string_equal(r.rows[2].key, "cpu");
	near(r.rows[0].value, 3, 1e-12);
	near(r.rows[1].value, 9, 1e-12);
	near(r.rows[2].value, 20, 1e-12);
	diff_free(&r);

	near(diff_ratio(5, 10), 2.00, 1e-12);
	near(diff_ratio(20, 30), 1.50, 1e-12);
	near(round(diff_ratio(98, 99) * 100) / 100, 1.01, 1e-12);
	near(diff_wdiff(1, 1, 5, 10), 5, 0);
	near(diff_wdiff(1, 1, 20, 30), 10, 0);
	near(diff_wdiff(1, 1, 98, 99), 1, 0);
	near(diff_wdiff(1, 2, 98, 99), -97, 0);

	/* Eq. 5 with m2 for the printed m^2: s = l2 (ms/m2)^(log(l2/l1)/log(m2/m1)). CPU grows
	 * in proportion to load, so power and linear agree; memory: 2*(10/3)^(ln2/ln1.5). */
	near(diff_saturation_power(100, 5, 10, 1, 2), 20, 1e-9);
	near(diff_saturation_power(100, 20, 30, 1, 2),
	     2 * pow(10.0 / 3.0, log(2) / log(1.5)), 1e-9);
	o.power = 1;
	two_runs(keys, c1, c2, 3, 100, 100, &o, &r);
	assert_string_equal(r.rows[0].key, "disk");
	near(r.rows[2].value, 20, 1e-9);
	diff_free(&r);
	/* a bucket that does not grow never saturates */
	assert_true(isinf(diff_saturation_linear(100, 10, 10, 1, 2)));
	assert_true(isinf(diff_saturation_power(100, 10, 5, 1, 2)));
}

/* A bucket only in new is new (ratio +inf, first); only in base is gone (ratio 0). */
static void test_new_and_gone(void **state)
{
	(void)state;
	const char *k1[] = { "kept", "old" }, *k2[] = { "fresh", "kept" };
	const uint64_t c1[] = { 100, 50 }, c2[] = { 30, 100 };
	struct bucket_run runs[2] = { { k1, c1, 2, 150 }, { k2, c2, 2, 130 } };
	struct bucket_matrix m;
	uint64_t totals[2] = { 150, 130 };
	struct diff_opts o = { .combine = DIFF_RATIO, .min_count = 10, .alpha = 0.01 };
	struct diff_result r;

	assert_int_equal(bucket_merge(runs, 2, &m), 0);
	assert_int_equal(diff_compute(&m, totals, 1, &o, &r), 0);
	assert_int_equal(r.nrows, 3);
	assert_string_equal(r.rows[0].key, "fresh");
	assert_int_equal(r.rows[0].state, DIFF_NEW);
	assert_true(isinf(r.rows[0].value) && isinf(r.rows[0].change));
	assert_string_equal(r.rows[2].key, "old");
	assert_int_equal(r.rows[2].state, DIFF_GONE);
	near(r.rows[2].value, 0, 0);
	near(r.rows[2].change, -100, 1e-12);
	diff_free(&r);
	bucket_matrix_free(&m);
}

/* Five runs a side of 1200 samples each. "hot" tripled in every run (taking the time from
 * "rest"): significant. "flat" moves by noise only: not. */
static void test_significance(void **state)
{
	(void)state;
	const char *keys[] = { "flat", "hot", "rest" };
	const uint64_t flat[] = { 98, 103, 100, 96, 104, 101, 99, 97, 103, 100 };
	const uint64_t hot[] = { 50, 52, 48, 51, 49, 150, 148, 153, 149, 151 };
	struct bucket_run runs[10];
	uint64_t counts[10][3], totals[10];
	struct bucket_matrix m;
	struct diff_opts o = { .combine = DIFF_RATIO, .min_count = 10, .alpha = 0.01 };
	struct diff_result r;

	for (int i = 0; i < 10; i++) {
		counts[i][0] = flat[i];
		counts[i][1] = hot[i];
		counts[i][2] = 1200 - flat[i] - hot[i];
		totals[i] = 1200;
		runs[i] = (struct bucket_run){ keys, counts[i], 3, totals[i] };
	}
	assert_int_equal(bucket_merge(runs, 10, &m), 0);
	assert_int_equal(diff_compute(&m, totals, 5, &o, &r), 0);
	assert_string_equal(r.test, "welch");
	const struct diff_row *h = row(&r, "hot"), *f = row(&r, "flat");
	assert_string_equal(r.rows[0].key, "hot");
	near(h->value, 751.0 / 250.0, 1e-12);
	assert_true(h->significant && h->p < 1e-6);
	assert_false(f->significant);
	assert_true(f->p > 0.01);
	assert_true(h->change > 150);
	diff_free(&r);
	bucket_matrix_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table2_ratio),
		cmocka_unit_test(test_table4_wdiff),
		cmocka_unit_test(test_table1_saturation),
		cmocka_unit_test(test_new_and_gone),
		cmocka_unit_test(test_significance),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
