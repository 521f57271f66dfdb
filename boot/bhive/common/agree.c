/* SPDX-License-Identifier: BSD-2-Clause */
/* The timing clean timings agree on (agree.h); each round's timings on the console with
 * BHIVE_IN_TIMINGS. */
#include "bmrt.h"
#include "bhive.h"
#include "agree.h"
#include "opts.h"

static void sort(uint64_t *a, unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j && a[j - 1] > a[j]; j--) {
			uint64_t t = a[j];
			a[j] = a[j - 1];
			a[j - 1] = t;
		}
}

/* Timings that agree: equal with the core cycle counter; with a clock that ticks at its
 * own rate (the TSC, the generic timer) and is read with some jitter, within
 * max(BHIVE_TSC_TOL_TICKS, 1%) of the smallest of them. */
static uint64_t tolerance(uint64_t t)
{
	return bhive_opts.pmc ? 0 : t / 100 > BHIVE_TSC_TOL_TICKS ? t / 100 : BHIVE_TSC_TOL_TICKS;
}

int agree(uint64_t *v, unsigned n, uint64_t *t, unsigned *kept)
{
	unsigned best = 0;

	sort(v, n);
	if (bhive_opts.show_timings) {
		bm_printf("@bhive-timings %u", n);
		for (unsigned i = 0; i < n; i++)
			bm_printf(" %lu", v[i]);
		bm_printf("\n");
	}
	for (unsigned i = 0, j; i < n; i++) {
		for (j = i; j < n && v[j] - v[i] <= tolerance(v[i]); j++)
			;
		if (j - i > best)
			best = j - i, *t = v[i + (j - i) / 2];
	}
	*kept = best;
	return best >= BHIVE_KEEP;
}
