/* SPDX-License-Identifier: BSD-2-Clause */
/* Unroll factors and throughput (bhive_unroll.h). */
#include "bhive.h"
#include "bhive/bhive_unroll.h"

int bhive_unroll_factors(size_t len, unsigned *u_lo, unsigned *u_hi)
{
	size_t hi;

	if (!len || len > BHIVE_MAX_BLOCK)
		return 0;
	hi = BHIVE_CODE_BUDGET / len;
	if (hi > BHIVE_UNROLL_HI)
		hi = BHIVE_UNROLL_HI;
	hi &= ~(size_t)1;
	if (hi < 2)
		return 0;
	*u_hi = (unsigned)hi;
	*u_lo = (unsigned)hi / 2;
	return 1;
}

double bhive_throughput(uint64_t t_lo, uint64_t t_hi, unsigned u_lo, unsigned u_hi)
{
	if (t_hi < t_lo || u_hi <= u_lo)
		return -1;
	return (double)(t_hi - t_lo) / (double)(u_hi - u_lo);
}

double bhive_core_per_tick(uint64_t cal_lo, uint64_t cal_hi)
{
	double t = bhive_throughput(cal_lo, cal_hi, BHIVE_CAL_LO, BHIVE_CAL_HI);

	return t > 0 ? BHIVE_CAL_ADDS / t : -1;
}
