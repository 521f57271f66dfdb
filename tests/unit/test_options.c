/* SPDX-License-Identifier: BSD-2-Clause */
/* The declarative options (host/util/options.c): every spelling of an option, positional
 * arguments in order, "--", ranges and choices, and the one-line errors that name the
 * offending option and the closest existing one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/options.h"

static struct {
	int json, verbose, all, cb_calls;
	const char *input, *last_cb;
	unsigned long limit;
	double ratio;
	int sort;
} v;

static int cb(const struct opt *o, const char *arg, void *ctx)
{
	(void)o;
	(void)ctx;
	v.cb_calls++;
	v.last_cb = arg;
	if (!strcmp(arg, "bad")) {
		fprintf(stderr, "bmprof: report: -e bad: no such event\n");
		return -1;
	}
	return 0;
}

static const char *const sorts[] = { "function", "line", "address", NULL };
static const struct opt opts[] = {
	OPT_GROUP("Input:"),
	OPT_STRING('i', "input", &v.input, "FILE", "the profile"),
	OPT_ULONG('n', "limit", &v.limit, "N", "at most N rows", 1, 1000),
	OPT_BOOL(0, "json", &v.json, "JSON on stdout"),
	OPT_BOOL('v', "verbose", &v.verbose, "say more"),
	OPT_BOOL('a', "all", &v.all, "every row"),
	OPT_DOUBLE(0, "ratio", &v.ratio, "R", "a ratio"),
	OPT_CHOICE('s', "sort", &v.sort, "KEY", "function, line or address", sorts),
	OPT_CALLBACK('e', "event", "SPEC", "an event (repeatable)", cb),
	OPT_STRING(0, "input-format", NULL, "F", "a longer name sharing a prefix"),
	OPT_END(),
};
static const struct opt_cmd cmd = { "report", "bmprof report [OPTIONS] [ARGS]",
				    "The flat profile.", opts, "Exit status: 0.\n", NULL };

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
	assert_int_equal(parse(&a, "--help", NULL), 0);
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
}

static void test_help_and_man(void **state)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	(void)state;
	opt_usage(&cmd, f);
	fclose(f);
	assert_non_null(strstr(buf, "usage: bmprof report [OPTIONS] [ARGS]\n"));
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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
