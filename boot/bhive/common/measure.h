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

/* The block b (its code at code, its rip-relative operands at rip, its accesses at acc),
 * unrolled u_lo and u_hi times, into *m (zeroed). */
void measure(const void *code, const struct bhive_in_block *b, const struct bhive_in_rip *rip,
	     const struct bhive_in_access *acc, struct measure *m);

#endif
