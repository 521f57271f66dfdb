/* SPDX-License-Identifier: BSD-2-Clause */
/* The declarative options (host/util/options.c): every spelling of an option, positional
 * arguments in order, "--", ranges, choices and their aliases, repeatable options,
 * subcommands, the synopsis and the man page's OPTIONS written from the table, and the
 * one-line errors that name the offending option and the closest existing one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <limits.h>

#include "util/options.h"

static struct {
	int json, verbose, all, cb_calls;
	const char *input, *last_cb;
	unsigned long limit, count;
	double ratio, percent;
	int sort;
	struct opt_list syms;
} v;

static int cb_value;

static int cb(const struct opt *o, const char *arg, const struct opt_cmd *c)
{
	assert_ptr_equal(o->value, &cb_value);
	assert_string_equal(c->name, "report");
	v.cb_calls++;
	v.last_cb = arg;
	if (!strcmp(arg, "bad")) {
		fprintf(stderr, "bmprof: report: -e bad: no such event\n");
		return -1;
	}
	return 0;
}

static const char *const sorts[] = { "function|func|sym", "line", "address", NULL };
static const struct opt opts[] = {
	OPT_GROUP("Input:"),
	OPT_STRING('i', "input", &v.input, "FILE", "the profile"),
	OPT_ULONG('n', "limit", &v.limit, "N", "at most N rows", 1, 1000),
	OPT_BOOL(0, "json", &v.json, "JSON on stdout"),
	OPT_BOOL('v', "verbose", &v.verbose, "say more"),
	OPT_BOOL('a', "all", &v.all, "every row"),
	OPT_DOUBLE(0, "ratio", &v.ratio, "R", "a ratio"),
	OPT_CHOICE('s', "sort", &v.sort, "KEY", "function, line or address", sorts),
	OPT_CALLBACK_F('e', "event", &cb_value, "SPEC", "an event (repeatable)", cb, OPT_MULTI),
	OPT_STRING(0, "input-format", NULL, "F", "a longer name sharing a prefix"),
	OPT_LIST(0, "sym", &v.syms, "FILE", "a symbol file"),
	OPT_ULONG(0, "count", &v.count, "N", "a count", 1, ULONG_MAX),
	OPT_DOUBLE_RANGE(0, "percent", &v.percent, "P", "a share", 0, 100),
	OPT_ULONG_HIDDEN(0, "knob", &v.count, "N", "a testing knob", 0, 9),
	OPT_END(),
};
static const struct opt_cmd cmd = { .name = "report", .args = "[ARGS]",
				    .description = "The flat profile.", .opts = opts,
				    .tail = "Exit status: 0.\n" };

static char errbuf[4096];

/* parse argv (NULL-terminated), stderr captured into errbuf */
static int parse(struct opt_args *a, ...)
{
	char *argv[32];
	int argc = 0, rc, saved = dup(2);
	FILE *tmp = tmpfile();
	va_list ap;

	memset(&v, 0, sizeof v);
	argv[argc++] = "report";
	va_start(ap, a);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	fflush(stderr);
	dup2(fileno(tmp), 2);
	rc = opt_parse(&cmd, argc, argv, a);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	errbuf[fread(errbuf, 1, sizeof errbuf - 1, tmp)] = 0;
	fclose(tmp);
	return rc;
}

static void test_spellings(void **state)
{
	struct opt_args a;

	(void)state;
	assert_int_equal(parse(&a, "x", "-i", "p.data", "y", "--limit=5", "--json", "-va", "z",
			       "--ratio", "0.5", "-sline", "-e", "c1", "--event=c2", NULL), -1);
	assert_string_equal(v.input, "p.data");
	assert_non_null(opt_given(&a, "ratio"));
	assert_null(opt_given(&a, "input-format"));
	assert_int_equal(a.nseen, 9);
	assert_true(v.limit == 5 && v.json && v.verbose && v.all && v.ratio == 0.5);
	assert_int_equal(v.sort, 1);
	assert_int_equal(v.cb_calls, 2);
	assert_string_equal(v.last_cb, "c2");
	assert_int_equal(a.n, 3);
	assert_string_equal(a.v[0], "x");
	assert_string_equal(a.v[2], "z");
	assert_false(a.dash_given);
	opt_args_free(&a);
	/* prefixes, --no-, -n5, "--" */
	assert_int_equal(parse(&a, "--lim", "7", "--verb", "--no-verbose", "-n9", "--", "-x",
			       "--json", NULL), -1);
	assert_true(v.limit == 9 && !v.verbose && !v.json);
	assert_true(a.dash_given && a.ndash == 2 && !strcmp(a.dash[0], "-x"));
	assert_int_equal(a.n, 0);
	opt_args_free(&a);
	/* an alias of a choice, a list in order, a range, a hidden option */
	assert_int_equal(parse(&a, "--sort=func", "--sym", "a", "--sym=b", "--percent", "100",
			       "--knob", "3", NULL), -1);
	assert_int_equal(v.sort, 0);
	assert_int_equal(v.syms.n, 2);
	assert_string_equal(v.syms.v[1], "b");
	assert_true(v.percent == 100 && v.count == 3);
	opt_args_free(&a);
	assert_null(v.syms.v);
	assert_int_equal(parse(&a, "--help", NULL), 0);
	assert_int_equal(parse(&a, "x", "--man-options", NULL), 0);
}

static void bad(const char *want, ...)
{
	char *argv[16];
	int argc = 0, saved = dup(2);
	FILE *tmp = tmpfile();
	struct opt_args a;
	va_list ap;

	argv[argc++] = "report";
	va_start(ap, want);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	fflush(stderr);
	dup2(fileno(tmp), 2);
	int rc = opt_parse(&cmd, argc, argv, &a);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	errbuf[fread(errbuf, 1, sizeof errbuf - 1, tmp)] = 0;
	fclose(tmp);
	assert_int_equal(rc, 2);
	if (!strstr(errbuf, want))
		fail_msg("got '%s', want '%s'", errbuf, want);
	assert_non_null(strchr(errbuf, '\n'));
	assert_null(strchr(strchr(errbuf, '\n') + 1, '\n'));   /* one line */
}

static void test_errors(void **state)
{
	(void)state;
	bad("report: unknown option --josn; did you mean --json?", "--josn", NULL);
	bad("report: unknown option --limt; did you mean --limit?", "--limt=3", NULL);
	bad("report: unknown option --frobnicate (bmprof report --help)", "--frobnicate", NULL);
	bad("report: --inp is ambiguous: say which", "--inp", "x", NULL);
	bad("report: unknown option -x (in '-xq'", "-xq", NULL);
	bad("report: unknown option -q (bmprof report --help)", "-vq", NULL);
	bad("report: --limit takes a number from 1 to 1000, not '0'", "--limit", "0", NULL);
	bad("report: -n takes a number from 1 to 1000, not '5x'", "-n", "5x", NULL);
	bad("report: -n takes a number from 1 to 1000, not '-1'", "-n-1", NULL);
	bad("report: --sort takes function, line or address, not 'lines'; did you mean line?",
	    "--sort", "lines", NULL);
	bad("report: --json takes no value", "--json=1", NULL);
	bad("report: --input needs FILE", "--input", NULL);
	bad("report: -i needs FILE", "-i", NULL);
	bad("report: --ratio takes a number, not 'x'", "--ratio=x", NULL);
	bad("report: -e bad: no such event", "-e", "bad", NULL);   /* the callback's own */
	bad("report: --count takes a positive number, not '0'", "--count=0", NULL);
	bad("report: --percent takes a number from 0 to 100, not '101'", "--percent=101", NULL);
	bad("report: --percent takes a number from 0 to 100, not 'nan'", "--percent=nan", NULL);
	bad("report: --limit takes a number from 1 to 1000, not '010x'", "--limit=010x", NULL);
	bad("report: --sort takes function, line or address, not 'fnuc'", "--sort=fnuc", NULL);
	/* hidden options are parsed, never suggested */
	bad("report: unknown option --knb (bmprof report --help)", "--knb", NULL);
}

/* A command with subcommands, one of which has its own. */
static struct { const char *dir, *note; struct opt_list tags; } d;
static const struct opt db_opts[] = {
	OPT_STRING(0, "db", &d.dir, "DIR", "the database"), OPT_END() };
static const struct opt add_opts[] = {
	OPT_LIST(0, "tag", &d.tags, "TAG", "a tag"), OPT_END() };
static const struct opt new_opts[] = {
	OPT_STRING(0, "note", &d.note, "TEXT", "a note"), OPT_END() };
static const struct opt none[] = { OPT_END() };
static const struct opt_cmd epoch_subs[] = {
	{ .name = "db epoch new", .opts = new_opts }, { .name = "db epoch ls", .opts = none },
	{ 0 } };
static const struct opt_cmd db_subs[] = {
	{ .name = "db add", .args = "PROFILE...", .opts = add_opts },
	{ .name = "db epoch", .opts = none, .subs = epoch_subs },
	{ 0 } };
static const struct opt_cmd db = { .name = "db", .opts = db_opts, .subs = db_subs };

static int db_parse(struct opt_args *a, char **argv, int argc)
{
	int saved = dup(2), rc;
	FILE *tmp = tmpfile();

	memset(&d, 0, sizeof d);
	fflush(stderr);
	dup2(fileno(tmp), 2);
	rc = opt_parse(&db, argc, argv, a);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	errbuf[fread(errbuf, 1, sizeof errbuf - 1, tmp)] = 0;
	fclose(tmp);
	return rc;
}

static void test_subcommands(void **state)
{
	char *add[] = { "db", "--db", "D", "add", "--tag", "x", "p1", "--tag=y", "p2" };
	char *epoch[] = { "db", "epoch", "new", "--note", "hi" };
	char *typo[] = { "db", "ad", "p" }, *none_given[] = { "db", "--db", "D" };
	char *wrong_place[] = { "db", "add", "--db", "D" }, *epoch_only[] = { "db", "epoch" };
	struct opt_args a;

	(void)state;
	assert_int_equal(db_parse(&a, add, 9), -1);
	assert_ptr_equal(a.sub, &db_subs[0]);
	assert_string_equal(d.dir, "D");
	assert_int_equal(d.tags.n, 2);
	assert_int_equal(a.n, 2);
	assert_string_equal(a.v[1], "p2");
	opt_args_free(&a);
	assert_null(d.tags.v);
	assert_int_equal(db_parse(&a, epoch, 5), -1);
	assert_ptr_equal(a.sub, &epoch_subs[0]);
	assert_string_equal(d.note, "hi");
	opt_args_free(&a);
	assert_int_equal(db_parse(&a, typo, 3), 2);
	assert_non_null(strstr(errbuf, "db: unknown command 'ad'; did you mean 'add'?"));
	assert_int_equal(db_parse(&a, none_given, 3), 2);
	assert_non_null(strstr(errbuf, "db: name a command: add, epoch (bmprof db --help)"));
	assert_int_equal(db_parse(&a, epoch_only, 2), 2);
	assert_non_null(strstr(errbuf, "db epoch: name a command: new, ls (bmprof db epoch --help)"));
	assert_int_equal(db_parse(&a, wrong_place, 4), 2);
	assert_non_null(strstr(errbuf, "db add: unknown option --db (bmprof db add --help)"));
}

static void test_subcommand_help(void **state)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	(void)state;
	opt_usage(&db, f);
	fclose(f);
	assert_non_null(strstr(buf, "usage: bmprof db [--db DIR] add [--tag TAG]... PROFILE...\n"));
	assert_non_null(strstr(buf, "       bmprof db [--db DIR] epoch new [--note TEXT]\n"));
	assert_non_null(strstr(buf, "       bmprof db [--db DIR] epoch ls\n"));
	assert_non_null(strstr(buf, "\nbmprof db add:\n      --tag TAG"));
	free(buf);
	f = open_memstream(&buf, &n);
	opt_man_options(&db, f);
	fclose(f);
	assert_non_null(strstr(buf, ".SS bmprof db epoch new\n.TP\n\\fB\\-\\-note\\fR"));
	free(buf);
}

static void test_help_and_man(void **state)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	(void)state;
	opt_usage(&cmd, f);
	fclose(f);
	assert_non_null(strstr(buf, "usage: bmprof report [-i FILE] [-n N] [--json] [-v] [-a] [--ratio R]\n"
				    "                     [-s function|line|address] [-e SPEC]... "));
	assert_non_null(strstr(buf, "[--percent P] [ARGS]\n"));
	assert_null(strstr(buf, "knob"));
	assert_non_null(strstr(buf, "\nInput:\n"));
	assert_non_null(strstr(buf, "  -i, --input FILE        the profile\n"));
	assert_non_null(strstr(buf, "      --json              JSON on stdout\n"));
	assert_non_null(strstr(buf, "  -h, --help"));
	assert_non_null(strstr(buf, "Exit status: 0.\n"));
	free(buf);
	f = open_memstream(&buf, &n);
	opt_man_options(&cmd, f);
	fclose(f);
	assert_non_null(strstr(buf, ".SH OPTIONS\n"));
	assert_non_null(strstr(buf, "\\fB\\-i\\fR, \\fB\\-\\-input\\fR \\fIFILE\\fR\nthe profile\n"));
	free(buf);
}

static void test_closest(void **state)
{
	const char *const names[] = { "report", "record", "annotate", "stat", "stats" };

	(void)state;
	assert_string_equal(opt_closest("reprot", names, 5), "report");
	assert_string_equal(opt_closest("anotate", names, 5), "annotate");
	assert_string_equal(opt_closest("stst", names, 5), "stat");
	assert_null(opt_closest("xyz", names, 5));
	assert_null(opt_closest("compile", names, 5));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spellings),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_help_and_man),
		cmocka_unit_test(test_closest),
		cmocka_unit_test(test_subcommands),
		cmocka_unit_test(test_subcommand_help),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
