/* SPDX-License-Identifier: BSD-2-Clause */
/* Keeping only some of a profile's samples: those of chosen CPUs, those at runtime
 * addresses in a range (bmprof report --cpu, --addr-range). No I/O. */
#ifndef BMPROF_PROFILE_FILTER_H
#define BMPROF_PROFILE_FILTER_H

#include <stdint.h>
#include "profile.h"

struct profile_filter {
	int by_cpu;                              /* keep only the CPUs in cpus */
	uint64_t cpus[PROFILE_MAX_CPUS / 64];    /* bit c: CPU c */
	int by_addr;                             /* keep only pcs in [lo, hi] */
	uint64_t lo, hi;
};

/* Whether a sample of cpu at pc passes f. */
int profile_filter_keeps(const struct profile_filter *f, uint16_t cpu, uint64_t pc);
/* Drop every sample (flat, with call stacks, per phase) f does not keep; p->total becomes
 * the samples kept. 0, or -1 if out of memory. */
int profile_filter_apply(struct profile *p, const struct profile_filter *f);

#endif
