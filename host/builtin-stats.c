/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof stats: DCPI's dcpistats over repeated runs: per bucket, the spread of its samples
 * across the runs (analysis/stats.h). docs/bmprof-stats.md is its manual. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "profile/db.h"
#include "util/json.h"
#include "profile/profile_bound.h"
#include "profile/profile_set.h"
#include "stats.h"
#include "util/util.h"

/* the JSON output's schema version: a later one only adds keys, or changes the number */
#define STATS_JSON_VERSION 1

#define DEFAULT_MIN_COUNT 10
#define DEFAULT_LIMIT 30

static const char description[] =
	"DCPI's dcpistats: for every bucket (function by default) its samples across the runs: "
	"N, sum, mean, standard deviation, min, max and range% = (max - min) / sum, sorted by "
	"range%, the least stable first. A PROFILE may be a database query db:KEY=VALUE,...";

/* The table as JSON on stdout. 0, or -1 when it could not be written. */
static int print_json(const struct profile_set *set, const struct loaded_runs *runs,
		      const struct stats_table *t, unsigned long limit)
{
	struct json j;

	json_init(&j, stdout, 1);
	json_begin_object(&j);
	json_kv_string(&j, "format", "bmprof-stats");
	json_kv_u64(&j, "format_version", STATS_JSON_VERSION);
	json_key(&j, "profiles");
	json_begin_array(&j);
	for (size_t i = 0; i < set->n; i++)
		json_string(&j, set->paths[i]);
	json_end_array(&j);
	json_key(&j, "totals");
	json_begin_array(&j);
	for (size_t i = 0; i < runs->n; i++)
		json_u64(&j, runs->totals[i]);
	json_end_array(&j);
	json_kv_u64(&j, "filtered", t->nfiltered);
	json_key(&j, "rows");
	json_begin_array(&j);
	for (size_t i = 0; i < t->nrows && i < limit; i++) {
		const struct stats_row *r = &t->rows[i];
		json_begin_object(&j);
		json_kv_string(&j, "key", r->key);
		json_kv_bool(&j, "clones", loaded_runs_has_clones(runs, r->key));
		json_kv_u64(&j, "n", r->s.n);
		json_kv_double(&j, "sum", r->s.sum);
		json_kv_double(&j, "mean", r->s.mean);
		json_kv_double(&j, "sd", r->s.sd);
		json_kv_double(&j, "min", r->s.min);
		json_kv_double(&j, "max", r->s.max);
		json_kv_double(&j, "range", r->s.range);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_end_object(&j);
	return json_finish(&j) ? -1 : 0;
}

static void print_text(const struct profile_set *set, const struct loaded_runs *runs,
		       const struct stats_table *t, int by, unsigned long limit,
		       unsigned long min_count)
{
	printf("# stats     %zu run%s:", set->n, set->n == 1 ? "" : "s");
	for (size_t i = 0; i < runs->n; i++)
		printf(" %" PRIu64, runs->totals[i]);
	printf(" samples\n# sorted    by range%% = (max - min) / sum, descending\n");
	if (t->nfiltered)
		printf("# filtered  %zu bucket%s with fewer than %lu samples in every run\n",
		       t->nfiltered, t->nfiltered == 1 ? "" : "s", min_count);
	printf("#\n#  Range%%    N        Sum       Mean    Std-dev        Min        Max  %s\n",
	       by == FLAT_BY_LINE ? "Line" : by == FLAT_BY_ADDRESS ? "Address" : "Function");
	for (size_t i = 0; i < t->nrows; i++) {
		const struct stats_row *r = &t->rows[i];
		if (i >= limit) {
			printf("# ... %zu more rows (--all)\n", t->nrows - i);
			break;
		}
		printf("%7.2f%% %4zu %10.0f %10.1f %10.1f %10.0f %10.0f  %s%s\n",
		       100.0 * r->s.range, r->s.n, r->s.sum, r->s.mean, r->s.sd, r->s.min, r->s.max,
		       r->key, loaded_runs_has_clones(runs, r->key) ? " [clones]" : "");
	}
}

int cmd_stats(int argc, char **argv)
{
	int by = FLAT_BY_FUNCTION, json = 0, all = 0, rc = 1;
	const char *event = NULL;
	unsigned long limit = DEFAULT_LIMIT, min_count = DEFAULT_MIN_COUNT;
	const struct opt opts[] = {
		RUN_BY_OPT(&by, "function (default), line or address"),
		OPT_ULONG(0, "min-count", &min_count, "N", "leave out buckets with fewer than N "
			  "samples in every run (default 10)", 0, ULONG_MAX),
		OPT_STRING('e', "event", &event, "NAME", "the event (default: the first with "
			   "samples)"),
		OPT_ULONG('n', "limit", &limit, "N", "print at most N rows (default 30)", 1,
			  ULONG_MAX),
		OPT_BOOL('a', "all", &all, "print every row"),
		OPT_BOOL(0, "json", &json, "the table as JSON"),
		RUN_DB_OPT,
		PROFILE_BOUND_OPT,
		OPT_END(),
	};
	const struct opt_cmd cmd = { .name = "stats", .args = "PROFILE...", .opts = opts,
				     .description = description };
	struct opt_args a;
	struct profile_set set = { 0 };
	struct loaded_runs runs = { 0 };
	struct bucket_matrix m = { 0 };
	struct stats_table t = { 0 };

	if ((rc = opt_parse(&cmd, argc, argv, &a)) >= 0)
		return rc;
	rc = 1;
	if (all)
		limit = ULONG_MAX;
	if (a.n + a.ndash < 1) {
		bm_err("stats: name the profiles of the runs (bmprof stats --help)");
		opt_args_free(&a);
		return 2;
	}
	if (profile_set_add_args(&set, a.v, a.n) || profile_set_add_args(&set, a.dash, a.ndash) ||
	    loaded_runs_load(&runs, &set, NULL, NULL, event, by) || loaded_runs_merge(&runs, &m))
		goto out;
	if (stats_table_compute(&m, (uint64_t)min_count, &t)) {
		bm_err("out of memory");
		goto out;
	}
	if (json) {
		rc = print_json(&set, &runs, &t, limit) ? 1 : 0;
		goto out;
	}
	print_text(&set, &runs, &t, by, limit, min_count);
	rc = 0;
out:
	stats_table_free(&t);
	bucket_matrix_free(&m);
	loaded_runs_free(&runs);
	profile_set_free(&set);
	opt_args_free(&a);
	return rc;
}
