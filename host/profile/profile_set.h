/* SPDX-License-Identifier: BSD-2-Clause */
/* A set of profiles named on the command line: profile files, and database queries
 * (db:KEY=VALUE[,KEY=VALUE], docs/bmprof-db.md) that expand to the files they select.
 * And the runs of one or two sets loaded as buckets (diff_load.h), lined up by key. */
#ifndef BMPROF_PROFILE_SET_H
#define BMPROF_PROFILE_SET_H

#include <stddef.h>
#include <stdint.h>
#include "profile/diff_load.h"
#include "stats.h"

struct profile_set {
	char **paths;
	char **elfs;                 /* per path: its ELF (stored in the database), or NULL */
	size_t n;
};

/* Append args[0..n): paths as they are, db: queries expanded. 0, or -1 with the reason
 * printed (a query that selects nothing is an error). */
int profile_set_add_args(struct profile_set *s, char **args, int n);
void profile_set_free(struct profile_set *s);

struct loaded_runs {
	struct loaded_run *runs;
	size_t n;
	uint64_t *totals;            /* each run's samples */
};

/* Load every profile of a, then of b (b may be NULL), bucketed by sort. 0, or -1 with the
 * reason printed. */
int loaded_runs_load(struct loaded_runs *lr, const struct profile_set *a,
		     const struct profile_set *b, const char *elf, const char *event,
		     enum flat_sort sort);
int loaded_runs_merge(const struct loaded_runs *lr, struct bucket_matrix *m);
/* Whether key's bucket holds a compiler clone's samples in any of the runs. */
int loaded_runs_has_clones(const struct loaded_runs *lr, const char *key);
void loaded_runs_free(struct loaded_runs *lr);

#endif
