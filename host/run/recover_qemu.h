/* SPDX-License-Identifier: BSD-2-Clause */
/* Recovery through QEMU's monitor (QMP): stop the machine, read the target's recovery
 * descriptor and every CPU's table and buffers with `memsave` (virtual addresses, through
 * CPU 0's page tables), and note where each vCPU was. A CPU stopped inside the sampler is
 * let run a moment (`cont`, then `stop` again) until none is, a bounded number of times.
 * QEMU is left stopped. */
#ifndef BMPROF_RECOVER_QEMU_H
#define BMPROF_RECOVER_QEMU_H

#include <stdint.h>
#include "run/recover.h"

struct qmp;

#define RECOVER_QEMU_STOPS 40       /* stops before reading a busy CPU as it is */

struct recover_run {
	struct recover rec;
	int have;                   /* rec holds the state read */
	unsigned stops;             /* stops it took (1: the first found no CPU busy) */
	char err[512];              /* why nothing was recovered; "" when have */
	char pcs[1024];             /* each vCPU's pc when stopped, "0x..,0x.." ("" unknown) */
};

/* 0 with rr->have set, or -1 with rr->err. rr is to be freed (recover_free(&rr->rec)). */
int recover_qemu(struct recover_run *rr, struct qmp *q, uint64_t desc_addr);

struct capture;

/* Once the stream has ended (QEMU gone, the rings read): the profile's meta keys
 * (recovered = why, recovered_samples, recovered_cpus, recovered_stops, recovered_pcs,
 * recovered_in_flight, recovered_stacks, recovered_inexact; docs/profile-format.md) and the frames built
 * from rr against what arrived, into cap. why: "timeout", "interrupted", "stalled".
 * 0, or -1 if the profile file could not be written. */
int recover_qemu_conclude(struct recover_run *rr, struct capture *cap, const char *why,
			  struct recover_result *res);

#endif
