/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof diff: differential profiling of two sets of profiles (analysis/diff.h), with a
 * significance test per bucket and a CI gate. docs/bmprof-diff.md is its manual. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
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

static const char description[] =
	"Compare two sets of profiles bucket by bucket (differential profiling): which "
	"functions changed between two builds or two loads, and whether the change is more "
	"than run-to-run noise. A profile set is profile files, or a database query "
	"db:KEY=VALUE[,KEY=VALUE] (docs/bmprof-db.md).";

static const char tail[] = "Exit status: 0; 1 error; 2 usage; 3 a regression above --fail-above.\n";

/* in enum diff_combine's order */
static const char *const combines[] = { "ratio", "wdiff", "saturation", "delta", NULL };

struct diff_cli {
	struct diff_opts o;
	int combine, by;
	const char *event;
	double fail_above;           /* < 0: no gate */
	double min_count;
	unsigned long limit;
	int all, json;
	struct opt_args args;
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

/* --work W1,W2 and --load L1,L2 (o->value: the struct diff_opts) */
static int pair(const struct opt *o, const char *arg, const struct opt_cmd *c)
{
	struct diff_opts *d = o->value;
	int work = !strcmp(o->long_name, "work");

	if (parse_pair(arg, work ? &d->w1 : &d->l1, work ? &d->w2 : &d->l2)) {
		bm_err("diff: --%s takes %s (two numbers), not '%s'", o->long_name,
		       work ? "W1,W2" : "L1,L2", arg);
		return -1;
	}
	return 0;
}

static const char *combine_name(enum diff_combine c)
{
	return c == DIFF_WDIFF ? "wdiff" : c == DIFF_SATURATION ? "saturation"
		: c == DIFF_DELTA ? "delta" : "ratio";
}

/* What the options need of each other. 2 (usage, printed) or -1 (go on). */
static int check_opts(struct diff_cli *c)
{
	c->o.combine = (enum diff_combine)c->combine;
	c->o.min_count = (uint64_t)c->min_count;
	if (c->o.alpha >= 1) {
		bm_err("diff: --alpha takes a level between 0 and 1, not '%g'", c->o.alpha);
		return 2;
	}
	if (c->o.combine == DIFF_WDIFF && !opt_given(&c->args, "work")) {
		bm_err("diff: --combine wdiff needs --work W1,W2 (the work done in each run)");
		return 2;
	}
	if (c->o.combine == DIFF_SATURATION &&
	    (!opt_given(&c->args, "load") || !opt_given(&c->args, "saturation"))) {
		bm_err("diff: --combine saturation needs --load L1,L2 and --saturation MS");
		return 2;
	}
	if (c->o.combine == DIFF_SATURATION && c->o.power && !(c->o.l1 > 0 && c->o.l2 > 0)) {
		bm_err("diff: --power needs loads above 0");
		return 2;
	}
	return -1;
}

/* 2 (usage, printed), 0 (--help) or -1 (go on). */
static int parse_opts(int argc, char **argv, struct diff_cli *c)
{
	const struct opt opts[] = {
		OPT_CHOICE(0, "combine", &c->combine, "F", "ratio (default): new/base mean "
			   "samples, descending; wdiff: W1*new - W2*base, descending (needs "
			   "--work); saturation: load at which the bucket's share reaches MS, "
			   "ascending (needs --load, --saturation); delta: share change", combines),
		OPT_CALLBACK(0, "work", &c->o, "W1,W2", "work done in a base run and in a new "
			     "run (wdiff)", pair),
		OPT_CALLBACK(0, "load", &c->o, "L1,L2", "offered load of the base and of the "
			     "new runs (saturation)", pair),
		OPT_DOUBLE_RANGE(0, "saturation", &c->o.ms, "MS", "the share (percent of samples) "
				 "that means saturated", 0, HUGE_VAL),
		OPT_BOOL(0, "power", &c->o.power, "saturation by power-law projection instead of "
			 "linear"),
		OPT_DOUBLE_RANGE(0, "min-count", &c->min_count, "N", "leave out buckets with fewer "
				 "than N samples in every run (default 10)", 0, HUGE_VAL),
		OPT_DOUBLE_RANGE(0, "alpha", &c->o.alpha, "A", "significance level (default "
				 "0.01)", 0, HUGE_VAL),
		OPT_DOUBLE_RANGE(0, "fail-above", &c->fail_above, "PCT", "exit 3 when a bucket's "
				 "share grew by more than PCT percent and the growth is significant "
				 "(a CI gate)", 0, HUGE_VAL),
		RUN_BY_OPT(&c->by, "buckets: function (default), line (file:line) or address "
			   "(symbol+offset)"),
		OPT_STRING('e', "event", &c->event, "NAME", "the event to compare (default: the "
			   "first with samples)"),
		OPT_ULONG('n', "limit", &c->limit, "N", "print at most N rows (default 30)", 1,
			  LONG_MAX),
		OPT_BOOL('a', "all", &c->all, "print every row"),
		OPT_BOOL(0, "json", &c->json, "the result as JSON"),
		RUN_DB_OPT,
		PROFILE_BOUND_OPT,
		OPT_END(),
	};
	const struct opt_cmd cmd = { .name = "diff", .args = "BASE NEW\n"
				     "BASE1 BASE2 ... -- NEW1 NEW2 ...", .opts = opts,
				     .description = description, .tail = tail };
	int rc = opt_parse(&cmd, argc, argv, &c->args);

	return rc >= 0 ? rc : check_opts(c);
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
		       const struct profile_set *base, const struct profile_set *new,
		       const struct loaded_runs *runs)
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
		if (!c->all && i >= c->limit) {
			printf("# ... %zu more rows (--all)\n", r->nrows - i);
			break;
		}
		fmt_change(ch, sizeof ch, d);
		fmt_value(val, sizeof val, d->value, c->o.combine);
		fmt_p(p, sizeof p, d->p);
		printf("%8.2f%% %8.2f%% %+8.2f %8s   %10s  %8s   %s   %s%s\n", d->share1,
		       d->share2, d->delta, ch, val, p, d->significant ? "*" : " ", d->key,
		       loaded_runs_has_clones(runs, d->key) ? " [clones]" : "");
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
		      const struct profile_set *base, const struct profile_set *new,
		      const struct loaded_runs *runs)
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
		if (!c->all && i >= c->limit)
			break;
		json_begin_object(&j);
		json_kv_string(&j, "key", d->key);
		json_kv_string(&j, "state", d->state == DIFF_NEW ? "new" : d->state == DIFF_GONE
			       ? "gone" : "both");
		json_kv_bool(&j, "clones", loaded_runs_has_clones(runs, d->key));
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
	struct diff_cli c = { .o = { .alpha = DEFAULT_ALPHA, .w1 = 1, .w2 = 1 },
			      .min_count = DEFAULT_MIN_COUNT, .by = FLAT_BY_FUNCTION,
			      .fail_above = -1, .limit = DEFAULT_LIMIT };
	struct profile_set base = { 0 }, new = { 0 };
	struct loaded_runs runs = { 0 };
	struct bucket_matrix m = { 0 };
	struct diff_result r = { 0 };
	struct opt_args *a = &c.args;
	int rc;

	rc = parse_opts(argc, argv, &c);
	if (rc >= 0)
		goto out;
	if (a->dash_given ? a->n < 1 || a->ndash < 1 : a->n != 2) {
		bm_err("diff: name two profile sets: BASE NEW, or BASE... -- NEW... (bmprof diff --help)");
		rc = 2;
		goto out;
	}
	rc = 1;
	if (a->dash_given) {
		if (profile_set_add_args(&base, a->v, a->n) ||
		    profile_set_add_args(&new, a->dash, a->ndash))
			goto out;
	} else if (profile_set_add_args(&base, a->v, 1) ||
		   profile_set_add_args(&new, a->v + 1, 1)) {
		goto out;
	}
	if (loaded_runs_load(&runs, &base, &new, NULL, c.event, c.by) ||
	    loaded_runs_merge(&runs, &m))
		goto out;
	if (diff_compute(&m, runs.totals, base.n, &c.o, &r)) {
		bm_err("out of memory");
		goto out;
	}
	if (c.json ? print_json(&c, &r, &base, &new, &runs)
		   : (print_text(&c, &r, &base, &new, &runs), 0))
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
	opt_args_free(&c.args);
	return rc;
}
