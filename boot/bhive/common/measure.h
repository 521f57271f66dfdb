/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof bhive's harness: one block measured. */
#ifndef BHIVE_MEASURE_H
#define BHIVE_MEASURE_H

#include "harness.h"

struct measure {
	int status;
	uint64_t t[2], cal[2];           /* the block's timings, the calibration's */
	unsigned kept[2], tries, faults;
	struct run_result last;
	int faulted;                    /* last holds the exception that ended it */
};

/* The block of len bytes at code, unrolled u_lo and u_hi times, into *m (zeroed). */
void measure(const void *code, unsigned len, unsigned u_lo, unsigned u_hi, struct measure *m);

#endif
