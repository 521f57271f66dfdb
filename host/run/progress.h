/* SPDX-License-Identifier: BSD-2-Clause */
/* The status line of a run on a terminal (perf record's model): elapsed time, samples
 * received so far, their rate against the one asked for, and frames lost on the way,
 * rewritten in place on stderr. Nothing when stderr is not a terminal. */
#ifndef BMPROF_PROGRESS_H
#define BMPROF_PROGRESS_H

#include <stdint.h>

/* The periodic flush a run on a terminal asks for, so the line has samples to count. */
#define PROGRESS_FLUSH_MS 1000

struct progress {
	int on, shown;
	double start;            /* qemu_now() at the start */
	double first;            /* when the first samples arrived; 0: none yet */
	unsigned long freq;      /* asked per CPU; 0: not known */
	int guest_clock;         /* -icount: the rate is per second of guest time */
	char step[48];           /* which step of several ("run 2/3"), shown first; "": none */
};

/* Whether a status line would be shown: stderr is a terminal and $TERM is not "dumb". */
int progress_terminal(void);
/* On when progress_terminal(). */
void progress_init(struct progress *pg, double now, unsigned long freq, int guest_clock);
/* The line at now: samples received, on ncpus CPUs, frames_lost missing by sequence. */
void progress_show(struct progress *pg, double now, uint64_t samples, unsigned ncpus,
		   uint64_t frames_lost);
struct profile;
/* The line for what profile p has received so far (its samples, CPUs, frames missing). */
void progress_show_profile(struct progress *pg, double now, const struct profile *p);
/* Erase the line (before other output, and at the end). */
void progress_clear(struct progress *pg);

#endif
