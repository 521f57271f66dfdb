/* SPDX-License-Identifier: BSD-2-Clause */
/* Differential profiling (McKenney, "Differential Profiling", 1999): combine corresponding
 * buckets of two sets of profiles, base (less stressed, or the old build) and new (more
 * stressed, or the new build), and sort by the combined value. No I/O.
 *
 * Combining functions, m1/m2 the base/new measurement of a bucket:
 *   ratio        m2 / m1, sorted descending (a bucket only in new: +inf, first)
 *   wdiff        w1*m2 - w2*m1 (w: work done in each run), descending; 0 for a bucket
 *                that scales linearly with the work
 *   saturation   the load at which the bucket reaches the saturation measurement ms,
 *                ascending: linear  s = (ms - m2)(l2 - l1)/(m2 - m1) + l2
 *                           power   log s = log(ms/m2) log(l2/l1)/log(m2/m1) + log l2
 *                (the paper's Eq. 5 prints m^2 for m2); a bucket that does not grow never
 *                saturates (+inf, last)
 * Measurements: ratio and wdiff use the mean count per run; saturation the mean share of
 * the run's samples, in percent (so ms = 100 is "all of the time").
 *
 * Every bucket also gets the views perf diff users know: each side's mean share (percent of
 * its runs' samples), the delta of shares in percentage points, and the relative change of
 * the share. Significance: with two or more runs a side, Welch's t-test on the per-run
 * shares; with one run a side, the two-proportion z-test on the counts (each sample either
 * fell in the bucket or did not).
 */
#ifndef BMPROF_DIFF_H
#define BMPROF_DIFF_H

#include <stddef.h>
#include <stdint.h>
#include "stats.h"

enum diff_combine { DIFF_RATIO, DIFF_WDIFF, DIFF_SATURATION, DIFF_DELTA };

double diff_ratio(double m1, double m2);
double diff_wdiff(double w1, double w2, double m1, double m2);
double diff_saturation_linear(double ms, double m1, double m2, double l1, double l2);
double diff_saturation_power(double ms, double m1, double m2, double l1, double l2);

struct diff_opts {
	enum diff_combine combine;
	double w1, w2;               /* wdiff: work of a base run and of a new run */
	double l1, l2, ms;           /* saturation: loads and the saturation measurement */
	int power;                   /* saturation: the power-law projection */
	uint64_t min_count;          /* a bucket whose per-run counts are all below it (both
					sides) is left out */
	double alpha;                /* significance level of the test */
};

enum diff_state { DIFF_BOTH, DIFF_NEW, DIFF_GONE };

struct diff_row {
	const char *key;
	enum diff_state state;       /* NEW: no sample in any base run; GONE: none in new */
	double m1, m2;               /* mean count per run */
	double share1, share2;       /* mean share of the run's samples, percent */
	double delta;                /* share2 - share1, percentage points */
	double change;               /* (share2 / share1 - 1) * 100; +inf when NEW */
	double value;                /* the combining function's value */
	double p;                    /* two-sided p-value; NaN if not tested */
	int significant;             /* p < alpha */
};

struct diff_result {
	struct diff_row *rows;
	size_t nrows;
	size_t nfiltered;            /* buckets left out by min_count */
	size_t nbase, nnew;          /* runs */
	uint64_t total1, total2;     /* samples over all runs of each side */
	const char *test;            /* "welch" or "two-proportion" */
};

/* m: the runs lined up, base runs first (columns 0..nbase), then new ones; totals[r] each
 * run's samples. Returns 0, or -1 out of memory. */
int diff_compute(const struct bucket_matrix *m, const uint64_t *totals, size_t nbase,
		 const struct diff_opts *o, struct diff_result *r);
void diff_free(struct diff_result *r);

#endif
