/* SPDX-License-Identifier: BSD-2-Clause */
/* BHive's throughput from two unroll factors (docs/bmprof-bhive.md):
 *   throughput(b) = (cycles(b, u_hi) - cycles(b, u_lo)) / (u_hi - u_lo)
 * so the prologue, the epilogue and the first iterations' warm-up cancel out. (The
 * paper's rearranged form, cycles(b,u') = cycles(b,u) + throughput/(u'-u), is a typo for
 * + (u'-u) * throughput.) */
#ifndef BMPROF_BHIVE_UNROLL_H
#define BMPROF_BHIVE_UNROLL_H

#include <stddef.h>
#include <stdint.h>

/* The factors for a block of len bytes: u_hi copies fit in BHIVE_CODE_BUDGET bytes (half
 * a 32 KiB L1I), at most BHIVE_UNROLL_HI, even; u_lo = u_hi / 2. 0 when even two copies
 * do not fit (the block is too long). */
int bhive_unroll_factors(size_t len, unsigned *u_lo, unsigned *u_hi);
/* Clock units per iteration; -1 when t_hi < t_lo or the factors are not increasing. */
double bhive_throughput(uint64_t t_lo, uint64_t t_hi, unsigned u_lo, unsigned u_hi);
/* Core cycles per clock unit from the calibration block's timings (BHIVE_CAL_ADDS
 * dependent adds, one cycle each, per iteration); -1 when the calibration failed. */
double bhive_core_per_tick(uint64_t cal_lo, uint64_t cal_hi);

#endif
