/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof bhive's harness: what the host's input and the clock decide for every block. */
#ifndef BHIVE_OPTS_H
#define BHIVE_OPTS_H

struct bhive_opts {
	int pmc;                        /* the clock is the core cycle counter */
	int show_timings;               /* BHIVE_IN_TIMINGS */
	int unstable;                   /* BHIVE_IN_UNSTABLE */
	unsigned max_faults;
};
extern struct bhive_opts bhive_opts;    /* main.c */

#endif
