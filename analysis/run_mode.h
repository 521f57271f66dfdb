/* SPDX-License-Identifier: BSD-2-Clause */
/* How a profiled run executed, read from the profile's metadata (the accelerator and the
 * QEMU command line bmprof recorded): what the samples and the clock then mean. */
#ifndef BMPROF_RUN_MODE_H
#define BMPROF_RUN_MODE_H

#include "profile.h"

enum run_accel { RUN_ACCEL_UNKNOWN, RUN_ACCEL_TCG, RUN_ACCEL_KVM };

struct run_mode {
	enum run_accel accel;   /* UNKNOWN: not run by bmprof qemu (a board, a capture) */
	int icount;             /* QEMU -icount: guest time follows instructions executed */
	int icount_shift;       /* 2^shift ns per instruction; -1: auto or unknown */
	int icount_sleep;       /* the guest clock runs on while it idles (no sleep=off) */
	int singlestep;         /* one instruction per translation block */
};

void run_mode_of(const struct profile *p, struct run_mode *m);

/* TCG without -icount or -singlestep takes interrupts at translation-block starts only, so
 * samples land on block starts. */
int run_mode_block_starts(const struct run_mode *m);

/* TCG without -icount: guest time is the emulator's time, and what the target measures as
 * its core clock is how fast QEMU emulates. */
int run_mode_emulated_time(const struct run_mode *m);

/* Instructions per timebase tick under -icount with a known shift (then a guest
 * nanosecond is 2^-shift instructions); 0 otherwise. */
double run_mode_insns_per_tick(const struct run_mode *m, const struct profile *p);

#endif
