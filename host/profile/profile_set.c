/* SPDX-License-Identifier: BSD-2-Clause */
/* Sets of profiles (profile_set.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/db.h"
#include "profile/profile_set.h"
#include "util/util.h"

static void push(struct profile_set *s, const char *path, const char *elf)
{
	s->paths = bm_realloc(s->paths, (s->n + 1) * sizeof *s->paths);
	s->elfs = bm_realloc(s->elfs, (s->n + 1) * sizeof *s->elfs);
	s->paths[s->n] = bm_strdup(path);
	s->elfs[s->n++] = elf ? bm_strdup(elf) : NULL;
}

int profile_set_add_args(struct profile_set *s, char **args, int n)
{
	for (int i = 0; i < n; i++) {
		if (strncmp(args[i], "db:", 3)) {
			push(s, args[i], NULL);
			continue;
		}
		char **paths = NULL, **elfs = NULL, err[1024];
		size_t np = 0;
		if (db_select_paths(NULL, args[i] + 3, &paths, &elfs, &np, err, sizeof err)) {
			bm_err("%s", err);
			return -1;
		}
		if (!np) {
			bm_err("%s: no profile in the database matches (bmprof db ls lists them)",
			       args[i]);
			free(paths);
			free(elfs);
			return -1;
		}
		for (size_t k = 0; k < np; k++) {
			push(s, paths[k], elfs[k]);
			free(paths[k]);
			free(elfs[k]);
		}
		free(paths);
		free(elfs);
	}
	return 0;
}

void profile_set_free(struct profile_set *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->paths[i]);
		free(s->elfs[i]);
	}
	free(s->paths);
	free(s->elfs);
	memset(s, 0, sizeof *s);
}

static int load_set(struct loaded_runs *lr, const struct profile_set *s, const char *elf,
		    const char *event, enum flat_sort sort)
{
	char err[1024];

	for (size_t i = 0; i < s->n; i++) {
		struct loaded_run *r = &lr->runs[lr->n];
		if (run_load(r, s->paths[i], s->elfs[i] ? s->elfs[i] : elf, event, sort, err,
			     sizeof err)) {
			bm_err("%s", err);
			return -1;
		}
		if (r->warning[0])
			fprintf(stderr, "bmprof: warning: %s\n", r->warning);
		lr->totals[lr->n++] = r->flat.total;
	}
	return 0;
}

int loaded_runs_load(struct loaded_runs *lr, const struct profile_set *a,
		     const struct profile_set *b, const char *elf, const char *event,
		     enum flat_sort sort)
{
	size_t n = a->n + (b ? b->n : 0);

	memset(lr, 0, sizeof *lr);
	lr->runs = bm_calloc(n ? n : 1, sizeof *lr->runs);
	lr->totals = bm_calloc(n ? n : 1, sizeof *lr->totals);
	if (load_set(lr, a, elf, event, sort) || (b && load_set(lr, b, elf, event, sort)))
		return -1;
	return 0;
}

int loaded_runs_merge(const struct loaded_runs *lr, struct bucket_matrix *m)
{
	struct bucket_run *b = bm_calloc(lr->n ? lr->n : 1, sizeof *b);
	int rc;

	for (size_t i = 0; i < lr->n; i++)
		b[i] = run_buckets(&lr->runs[i]);
	rc = bucket_merge(b, lr->n, m);
	free(b);
	if (rc)
		bm_err("out of memory");
	return rc;
}

int loaded_runs_has_clones(const struct loaded_runs *lr, const char *key)
{
	for (size_t i = 0; i < lr->n; i++)
		if (run_has_clones(&lr->runs[i], key))
			return 1;
	return 0;
}

void loaded_runs_free(struct loaded_runs *lr)
{
	for (size_t i = 0; i < lr->n; i++)
		run_free(&lr->runs[i]);
	free(lr->runs);
	free(lr->totals);
	memset(lr, 0, sizeof *lr);
}
