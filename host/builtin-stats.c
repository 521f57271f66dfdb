/* bmprof stats: DCPI's dcpistats over repeated runs: per bucket, the spread of its samples
 * across the runs (analysis/stats.h). docs/bmprof-stats.md is its manual. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
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

static const char usage[] =
	"usage: bmprof stats [--by function|line|address] [--min-count N] [--event NAME]\n"
	"                    [--limit N | --all] [--json] [--db DIR] PROFILE...\n"
	"\n"
	"DCPI's dcpistats: for every bucket (function by default) its samples across the runs:\n"
	"N, sum, mean, standard deviation, min, max and range% = (max - min) / sum, sorted by\n"
	"range%, the least stable first. A PROFILE may be a database query db:KEY=VALUE,...\n"
	"\n"
	"      --by KEY         function (default), line or address\n"
	"      --min-count N    leave out buckets with fewer than N samples in every run\n"
	"                       (default 10)\n"
	"  -e, --event NAME     the event (default: the first with samples)\n"
	"  -n, --limit N        print at most N rows (default 30); -a, --all: every row\n"
	"      --json           the table as JSON\n"
	"      --db DIR         the database db: queries read (default $BMPROF_DB)\n"
	PROFILE_BOUND_USAGE
	"  -h, --help           this text\n";

int cmd_stats(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "by", required_argument, NULL, 'b' },
		{ "min-count", required_argument, NULL, 'm' },
		{ "event", required_argument, NULL, 'e' },
		{ "limit", required_argument, NULL, 'n' },
		{ "all", no_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ "db", required_argument, NULL, 'D' },
		{ "max-entries", required_argument, NULL, 'X' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum flat_sort by = FLAT_BY_FUNCTION;
	const char *event = NULL;
	long limit = DEFAULT_LIMIT, min_count = DEFAULT_MIN_COUNT;
	int json = 0, ch, rc = 1;
	char *end;
	struct profile_set set = { 0 };
	struct loaded_runs runs = { 0 };
	struct bucket_matrix m = { 0 };
	struct stats_table t = { 0 };

	optind = 0;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":e:n:ah", longopts, NULL)) != -1) {
		switch (ch) {
		case 'b':
			if (run_parse_by(optarg, &by)) {
				bm_err("stats: --by takes function, line or address, not '%s'", optarg);
				return 2;
			}
			break;
		case 'm':
		case 'n':
			errno = 0;
			long v = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || v < (ch == 'n')) {
				bm_err("stats: %s takes a number >= %d, not '%s'", ch == 'n' ? "--limit"
				       : "--min-count", ch == 'n', optarg);
				return 2;
			}
			*(ch == 'n' ? &limit : &min_count) = v;
			break;
		case 'e': event = optarg; break;
		case 'a': limit = -1; break;
		case 'j': json = 1; break;
		case 'D': db_set_dir(optarg); break;
		case 'X':
			if (profile_bound_option("stats", optarg))
				return 2;
			break;
		case 'h': fputs(usage, stdout); return 0;
		case ':':
			bm_err("stats: %s needs an argument (see bmprof stats --help)", argv[optind - 1]);
			return 2;
		default:
			bm_err("stats: unknown option %s (see bmprof stats --help)", argv[optind - 1]);
			return 2;
		}
	}
	if (optind >= argc) {
		bm_err("stats: name the profiles of the runs (bmprof stats --help)");
		return 2;
	}
	if (profile_set_add_args(&set, argv + optind, argc - optind) ||
	    loaded_runs_load(&runs, &set, NULL, NULL, event, by) || loaded_runs_merge(&runs, &m))
		goto out;
	if (stats_table_compute(&m, (uint64_t)min_count, &t)) {
		bm_err("out of memory");
		goto out;
	}
	if (json) {
		struct json j;
		json_init(&j, stdout, 1);
		json_begin_object(&j);
		json_kv_string(&j, "format", "bmprof-stats");
		json_kv_u64(&j, "format_version", STATS_JSON_VERSION);
		json_key(&j, "profiles");
		json_begin_array(&j);
		for (size_t i = 0; i < set.n; i++)
			json_string(&j, set.paths[i]);
		json_end_array(&j);
		json_key(&j, "totals");
		json_begin_array(&j);
		for (size_t i = 0; i < runs.n; i++)
			json_u64(&j, runs.totals[i]);
		json_end_array(&j);
		json_kv_u64(&j, "filtered", t.nfiltered);
		json_key(&j, "rows");
		json_begin_array(&j);
		for (size_t i = 0; i < t.nrows && (limit < 0 || (long)i < limit); i++) {
			const struct stats_row *r = &t.rows[i];
			json_begin_object(&j);
			json_kv_string(&j, "key", r->key);
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
		rc = json_finish(&j) ? 1 : 0;
		goto out;
	}
	printf("# stats     %zu run%s:", set.n, set.n == 1 ? "" : "s");
	for (size_t i = 0; i < runs.n; i++)
		printf(" %" PRIu64, runs.totals[i]);
	printf(" samples\n# sorted    by range%% = (max - min) / sum, descending\n");
	if (t.nfiltered)
		printf("# filtered  %zu bucket%s with fewer than %ld samples in every run\n",
		       t.nfiltered, t.nfiltered == 1 ? "" : "s", min_count);
	printf("#\n#  Range%%    N        Sum       Mean    Std-dev        Min        Max  %s\n",
	       by == FLAT_BY_LINE ? "Line" : by == FLAT_BY_ADDRESS ? "Address" : "Function");
	for (size_t i = 0; i < t.nrows; i++) {
		const struct stats_row *r = &t.rows[i];
		if (limit >= 0 && (long)i >= limit) {
			printf("# ... %zu more rows (--all)\n", t.nrows - i);
			break;
		}
		printf("%7.2f%% %4zu %10.0f %10.1f %10.1f %10.0f %10.0f  %s\n", 100.0 * r->s.range,
		       r->s.n, r->s.sum, r->s.mean, r->s.sd, r->s.min, r->s.max, r->key);
	}
	rc = 0;
out:
	stats_table_free(&t);
	bucket_matrix_free(&m);
	loaded_runs_free(&runs);
	profile_set_free(&set);
	return rc;
}
