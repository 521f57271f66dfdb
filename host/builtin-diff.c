/* bmprof diff: differential profiling of two sets of profiles (analysis/diff.h), with a
 * significance test per bucket and a CI gate. docs/bmprof-diff.md is its manual. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "profile/db.h"
#include "diff.h"
#include "profile/diff_load.h"
#include "util/json.h"
#include "profile/profile_bound.h"
#include "profile/profile_set.h"
#include "util/util.h"

/* the JSON output's schema version: a later one only adds keys, or changes the number */
#define DIFF_JSON_VERSION 1

#define EXIT_REGRESSION 3
#define DEFAULT_MIN_COUNT 10
#define DEFAULT_ALPHA 0.01
#define DEFAULT_LIMIT 30

static const char usage[] =
	"usage: bmprof diff [--combine ratio|wdiff|saturation|delta] [--work W1,W2]\n"
	"                   [--load L1,L2 --saturation MS [--power]] [--min-count N]\n"
	"                   [--alpha A] [--fail-above PCT] [--by function|line|address]\n"
	"                   [--event NAME] [--limit N | --all] [--json] [--db DIR] BASE NEW\n"
	"       bmprof diff [OPTIONS] BASE1 BASE2 ... -- NEW1 NEW2 ...\n"
	"\n"
	"Compare two sets of profiles bucket by bucket (differential profiling): which\n"
	"functions changed between two builds or two loads, and whether the change is more\n"
	"than run-to-run noise. A profile set is profile files, or a database query\n"
	"db:KEY=VALUE[,KEY=VALUE] (docs/bmprof-db.md).\n"
	"\n"
	"      --combine F      ratio (default): new/base mean samples, descending;\n"
	"                       wdiff: W1*new - W2*base, descending (needs --work);\n"
	"                       saturation: load at which the bucket's share reaches MS,\n"
	"                       ascending (needs --load, --saturation); delta: share change\n"
	"      --work W1,W2     work done in a base run and in a new run (wdiff)\n"
	"      --load L1,L2     offered load of the base and of the new runs (saturation)\n"
	"      --saturation MS  the share (percent of samples) that means saturated\n"
	"      --power          saturation by power-law projection instead of linear\n"
	"      --min-count N    leave out buckets with fewer than N samples in every run\n"
	"                       (default 10)\n"
	"      --alpha A        significance level (default 0.01)\n"
	"      --fail-above PCT exit 3 when a bucket's share grew by more than PCT percent\n"
	"                       and the growth is significant (a CI gate)\n"
	"      --by KEY         buckets: function (default), line (file:line) or address\n"
	"                       (symbol+offset)\n"
	"  -e, --event NAME     the event to compare (default: the first with samples)\n"
	"  -n, --limit N        print at most N rows (default 30); -a, --all: every row\n"
	"      --json           the result as JSON\n"
	"      --db DIR         the database db: queries read (default $BMPROF_DB)\n"
	PROFILE_BOUND_USAGE
	"  -h, --help           this text\n"
	"\n"
	"Exit status: 0; 1 error; 2 usage; 3 a regression above --fail-above.\n";

struct diff_cli {
	struct diff_opts o;
	enum flat_sort by;
	const char *event;
	double fail_above;           /* < 0: no gate */
	long limit;
	int json;
};

static int parse_pair(const char *s, double *a, double *b)
{
	char *end;

	errno = 0;
	*a = strtod(s, &end);
	if (errno || end == s || *end != ',')
		return -1;
	s = end + 1;
	*b = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(*a) || !isfinite(*b))
		return -1;
	return 0;
}

static int parse_num(const char *opt, const char *s, double lo, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(*out) || *out < lo) {
		bm_err("diff: %s takes a number >= %g, not '%s'", opt, lo, s);
		return -1;
	}
	return 0;
}

static const char *combine_name(enum diff_combine c)
{
	return c == DIFF_WDIFF ? "wdiff" : c == DIFF_SATURATION ? "saturation"
		: c == DIFF_DELTA ? "delta" : "ratio";
}

/* 2 (usage, printed), 0 (--help) or -1 (go on). */
static int parse_opts(int argc, char **argv, struct diff_cli *c)
{
	static const struct option longopts[] = {
		{ "combine", required_argument, NULL, 'c' },
		{ "work", required_argument, NULL, 'w' },
		{ "load", required_argument, NULL, 'l' },
		{ "saturation", required_argument, NULL, 'S' },
		{ "power", no_argument, NULL, 'P' },
		{ "min-count", required_argument, NULL, 'm' },
		{ "alpha", required_argument, NULL, 'A' },
		{ "fail-above", required_argument, NULL, 'f' },
		{ "by", required_argument, NULL, 'b' },
		{ "event", required_argument, NULL, 'e' },
		{ "limit", required_argument, NULL, 'n' },
		{ "all", no_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ "db", required_argument, NULL, 'D' },
		{ "max-entries", required_argument, NULL, 'X' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch, have_work = 0, have_load = 0, have_ms = 0;
	double v;

	optind = 0;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":e:n:ah", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			if (!strcmp(optarg, "ratio"))
				c->o.combine = DIFF_RATIO;
			else if (!strcmp(optarg, "wdiff"))
				c->o.combine = DIFF_WDIFF;
			else if (!strcmp(optarg, "saturation"))
				c->o.combine = DIFF_SATURATION;
			else if (!strcmp(optarg, "delta"))
				c->o.combine = DIFF_DELTA;
			else {
				bm_err("diff: --combine takes ratio, wdiff, saturation or delta, not '%s'",
				       optarg);
				return 2;
			}
			break;
		case 'w':
			if (parse_pair(optarg, &c->o.w1, &c->o.w2)) {
				bm_err("diff: --work takes W1,W2 (two numbers), not '%s'", optarg);
				return 2;
			}
			have_work = 1;
			break;
		case 'l':
			if (parse_pair(optarg, &c->o.l1, &c->o.l2)) {
				bm_err("diff: --load takes L1,L2 (two numbers), not '%s'", optarg);
				return 2;
			}
			have_load = 1;
			break;
		case 'S':
			if (parse_num("--saturation", optarg, 0, &c->o.ms))
				return 2;
			have_ms = 1;
			break;
		case 'P': c->o.power = 1; break;
		case 'm':
			if (parse_num("--min-count", optarg, 0, &v))
				return 2;
			c->o.min_count = (uint64_t)v;
			break;
		case 'A':
			if (parse_num("--alpha", optarg, 0, &c->o.alpha) || c->o.alpha >= 1) {
				bm_err("diff: --alpha takes a level between 0 and 1, not '%s'", optarg);
				return 2;
			}
			break;
		case 'f':
			if (parse_num("--fail-above", optarg, 0, &c->fail_above))
				return 2;
			break;
		case 'b':
			if (run_parse_by(optarg, &c->by)) {
				bm_err("diff: --by takes function, line or address, not '%s'", optarg);
				return 2;
			}
			break;
		case 'e': c->event = optarg; break;
		case 'n':
			if (parse_num("--limit", optarg, 1, &v))
				return 2;
			c->limit = (long)v;
			break;
		case 'a': c->limit = -1; break;
		case 'j': c->json = 1; break;
		case 'D': db_set_dir(optarg); break;
		case 'X':
			if (profile_bound_option("diff", optarg))
				return 2;
			break;
		case 'h': fputs(usage, stdout); return 0;
		case ':':
			bm_err("diff: %s needs an argument (see bmprof diff --help)", argv[optind - 1]);
			return 2;
		default:
			bm_err("diff: unknown option %s (see bmprof diff --help)", argv[optind - 1]);
			return 2;
		}
	}
	if (c->o.combine == DIFF_WDIFF && !have_work) {
		bm_err("diff: --combine wdiff needs --work W1,W2 (the work done in each run)");
		return 2;
	}
	if (c->o.combine == DIFF_SATURATION && (!have_load || !have_ms)) {
		bm_err("diff: --combine saturation needs --load L1,L2 and --saturation MS");
		return 2;
	}
	if (c->o.combine == DIFF_SATURATION && c->o.power && !(c->o.l1 > 0 && c->o.l2 > 0)) {
		bm_err("diff: --power needs loads above 0");
		return 2;
	}
	return -1;
}

static void fmt_change(char *buf, size_t n, const struct diff_row *d)
{
	if (d->state == DIFF_NEW)
		snprintf(buf, n, "new");
	else if (d->state == DIFF_GONE)
		snprintf(buf, n, "gone");
	else
		snprintf(buf, n, "%+.1f%%", d->change);
}

static void fmt_value(char *buf, size_t n, double v, enum diff_combine c)
{
	if (isinf(v))
		snprintf(buf, n, "%s", c == DIFF_SATURATION ? "never" : v > 0 ? "inf" : "-inf");
	else if (c == DIFF_DELTA)
		snprintf(buf, n, "%+.2f", v);
	else
		snprintf(buf, n, "%.3f", v);
}

static void fmt_p(char *buf, size_t n, double p)
{
	if (isnan(p))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.2g", p);
}

/* A row the gate fails on. */
static int regression(const struct diff_cli *c, const struct diff_row *d)
{
	return c->fail_above >= 0 && d->significant && d->delta > 0 && d->change > c->fail_above;
}

static const char *by_title(enum flat_sort by)
{
	return by == FLAT_BY_LINE ? "Line" : by == FLAT_BY_ADDRESS ? "Address" : "Function";
}

static void print_side(const char *name, const struct profile_set *s, uint64_t total)
{
	printf("# %-9s %zu run%s, %" PRIu64 " samples:", name, s->n, s->n == 1 ? "" : "s", total);
	for (size_t i = 0; i < s->n && i < 8; i++)
		printf(" %s", s->paths[i]);
	if (s->n > 8)
		printf(" ...");
	putchar('\n');
}

static const char *combine_text(const struct diff_cli *c)
{
	switch (c->o.combine) {
	case DIFF_WDIFF: return "weighted difference W1*new - W2*base of mean samples per run, descending";
	case DIFF_SATURATION:
		return c->o.power ? "projected saturation load (power law) of the share, ascending"
			: "projected saturation load (linear) of the share, ascending";
	case DIFF_DELTA: return "change of the share in percentage points, descending";
	default: return "ratio new/base of mean samples per run, descending";
	}
}

static void print_text(const struct diff_cli *c, const struct diff_result *r,
		       const struct profile_set *base, const struct profile_set *new)
{
	char ch[32], val[32], p[32];

	print_side("base", base, r->total1);
	print_side("new", new, r->total2);
	printf("# combine   %s\n", combine_text(c));
	if (!strcmp(r->test, "welch"))
		printf("# test      Welch's t-test on the per-run shares, alpha %g%s\n", c->o.alpha,
		       r->nbase < 2 || r->nnew < 2 ? " (needs 2 or more runs a side: not tested)" : "");
	else
		printf("# test      two-proportion z-test on the samples (one run a side), alpha %g\n",
		       c->o.alpha);
	if (r->nfiltered)
		printf("# filtered  %zu bucket%s with fewer than %" PRIu64 " samples in every run\n",
		       r->nfiltered, r->nfiltered == 1 ? "" : "s", c->o.min_count);
	printf("#\n#   Base%%     New%%     Delta   Change   %10s   p-value  Sig  %s\n",
	       combine_name(c->o.combine), by_title(c->by));
	for (size_t i = 0; i < r->nrows; i++) {
		const struct diff_row *d = &r->rows[i];
		if (c->limit >= 0 && (long)i >= c->limit) {
			printf("# ... %zu more rows (--all)\n", r->nrows - i);
			break;
		}
		fmt_change(ch, sizeof ch, d);
		fmt_value(val, sizeof val, d->value, c->o.combine);
		fmt_p(p, sizeof p, d->p);
		printf("%8.2f%% %8.2f%% %+8.2f %8s   %10s  %8s   %s   %s\n", d->share1, d->share2,
		       d->delta, ch, val, p, d->significant ? "*" : " ", d->key);
	}
}

static void json_side(struct json *j, const char *key, const struct profile_set *s,
		      uint64_t total)
{
	json_key(j, key);
	json_begin_object(j);
	json_key(j, "profiles");
	json_begin_array(j);
	for (size_t i = 0; i < s->n; i++)
		json_string(j, s->paths[i]);
	json_end_array(j);
	json_kv_u64(j, "samples", total);
	json_end_object(j);
}

static int print_json(const struct diff_cli *c, const struct diff_result *r,
		      const struct profile_set *base, const struct profile_set *new)
{
	struct json j;

	json_init(&j, stdout, 1);
	json_begin_object(&j);
	json_kv_string(&j, "format", "bmprof-diff");
	json_kv_u64(&j, "format_version", DIFF_JSON_VERSION);
	json_side(&j, "base", base, r->total1);
	json_side(&j, "new", new, r->total2);
	json_kv_string(&j, "combine", combine_name(c->o.combine));
	json_kv_bool(&j, "power", c->o.power);
	json_kv_string(&j, "by", c->by == FLAT_BY_LINE ? "line" : c->by == FLAT_BY_ADDRESS
		       ? "address" : "function");
	json_kv_string(&j, "test", r->test);
	json_kv_double(&j, "alpha", c->o.alpha);
	json_kv_u64(&j, "min_count", c->o.min_count);
	json_kv_u64(&j, "filtered", r->nfiltered);
	json_key(&j, "rows");
	json_begin_array(&j);
	for (size_t i = 0; i < r->nrows; i++) {
		const struct diff_row *d = &r->rows[i];
		if (c->limit >= 0 && (long)i >= c->limit)
			break;
		json_begin_object(&j);
		json_kv_string(&j, "key", d->key);
		json_kv_string(&j, "state", d->state == DIFF_NEW ? "new" : d->state == DIFF_GONE
			       ? "gone" : "both");
		json_kv_double(&j, "base_samples", d->m1);
		json_kv_double(&j, "new_samples", d->m2);
		json_kv_double(&j, "base_share", d->share1);
		json_kv_double(&j, "new_share", d->share2);
		json_kv_double(&j, "delta", d->delta);
		json_kv_double(&j, "change", d->change);
		json_kv_double(&j, "value", d->value);
		json_kv_double(&j, "p", d->p);
		json_kv_bool(&j, "significant", d->significant);
		json_kv_bool(&j, "regression", regression(c, d));
		json_end_object(&j);
	}
	json_end_array(&j);
	json_end_object(&j);
	return json_finish(&j);
}

int cmd_diff(int argc, char **argv)
{
	struct diff_cli c = { .o = { .min_count = DEFAULT_MIN_COUNT, .alpha = DEFAULT_ALPHA,
				     .w1 = 1, .w2 = 1 },
			      .by = FLAT_BY_FUNCTION, .fail_above = -1, .limit = DEFAULT_LIMIT };
	struct profile_set base = { 0 }, new = { 0 };
	struct loaded_runs runs = { 0 };
	struct bucket_matrix m = { 0 };
	struct diff_result r = { 0 };
	int sep = argc, rc;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			sep = i;
			break;
		}
	rc = parse_opts(sep, argv, &c);
	if (rc >= 0)
		return rc;
	int npos = sep - optind;
	if (sep < argc ? npos < 1 || sep + 1 >= argc : npos != 2) {
		bm_err("diff: name two profile sets: BASE NEW, or BASE... -- NEW... (bmprof diff --help)");
		return 2;
	}
	rc = 1;
	if (sep < argc) {
		if (profile_set_add_args(&base, argv + optind, npos) ||
		    profile_set_add_args(&new, argv + sep + 1, argc - sep - 1))
			goto out;
	} else if (profile_set_add_args(&base, argv + optind, 1) ||
		   profile_set_add_args(&new, argv + optind + 1, 1)) {
		goto out;
	}
	if (loaded_runs_load(&runs, &base, &new, NULL, c.event, c.by) ||
	    loaded_runs_merge(&runs, &m))
		goto out;
	if (diff_compute(&m, runs.totals, base.n, &c.o, &r)) {
		bm_err("out of memory");
		goto out;
	}
	if (c.json ? print_json(&c, &r, &base, &new) : (print_text(&c, &r, &base, &new), 0))
		goto out;
	rc = 0;
	for (size_t i = 0; i < r.nrows; i++) {
		const struct diff_row *d = &r.rows[i];
		char ch[32];
		if (!regression(&c, d))
			continue;
		fmt_change(ch, sizeof ch, d);
		bm_err("diff: regression: %s %s (share %.2f%% -> %.2f%%, p %.2g), above "
		       "--fail-above %g%%", d->key, ch, d->share1, d->share2, d->p, c.fail_above);
		rc = EXIT_REGRESSION;
	}
out:
	diff_free(&r);
	bucket_matrix_free(&m);
	loaded_runs_free(&runs);
	profile_set_free(&base);
	profile_set_free(&new);
	return rc;
}
