/* SPDX-License-Identifier: BSD-2-Clause */
/* report's filters and keys, the pure parts: --sort KEY[,KEY] parsing, module rows from
 * function rows, grouped row orders, keeping samples by CPU and address, the source prefix
 * map and search path, and perf's percentage colours. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "flat.h"
#include "profile_filter.h"
#include "report/sort_keys.h"
#include "symbol/symname.h"
#include "util/srcpath.h"
#include "util/term.h"

static void test_sort_keys(void **state)
{
	struct report_sort s;
	char err[512];
	static const struct { const char *spec; enum flat_sort sort; int group; } ok[] = {
		{ "function", FLAT_BY_FUNCTION, -1 }, { "sym", FLAT_BY_FUNCTION, -1 },
		{ "srcline", FLAT_BY_LINE, -1 }, { "addr", FLAT_BY_ADDRESS, -1 },
		{ "cpu", FLAT_BY_CPU, -1 }, { "dso", FLAT_BY_MODULE, -1 },
		{ "cpu,function", FLAT_BY_CPU, -1 },
		{ "module,function", FLAT_BY_FUNCTION, FLAT_GROUP_MODULE },
		{ "module,line", FLAT_BY_LINE, FLAT_GROUP_MODULE },
		{ "mod,addr", FLAT_BY_ADDRESS, FLAT_GROUP_MODULE },
		{ "function,line", FLAT_BY_LINE, FLAT_GROUP_FUNCTION },
		{ "sym,address", FLAT_BY_ADDRESS, FLAT_GROUP_FUNCTION },
	};
	static const char *const bad[] = { "cpu,line", "line,function", "module,module",
		"function,function", "function,cpu", "module,cpu", "function,line,address", "",
		",", "function,", "lines", "cpu,,function" };

	(void)state;
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		assert_int_equal(report_sort_parse(ok[i].spec, &s, err, sizeof err), 0);
		assert_int_equal(s.sort, ok[i].sort);
		assert_int_equal(s.group, ok[i].group);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(report_sort_parse(bad[i], &s, err, sizeof err), -1);
	report_sort_parse("lines", &s, err, sizeof err);
	assert_non_null(strstr(err, "did you mean line?"));
	report_sort_parse("cpu,line", &s, err, sizeof err);
	assert_non_null(strstr(err, "module,function"));
	report_sort_parse("module,line", &s, err, sizeof err);
	assert_string_equal(report_sort_title(&s, err, sizeof err), "module, line");
}

/* Function rows: two of the image, two of module M, one of a region, one of module N. */
static struct flat_cpu_samples split[] = {
	{ 0, 50 }, { 1, 10 },      /* image f */
	{ 1, 30 },                 /* image g */
	{ 0, 20 },                 /* M a */
	{ 0, 5 }, { 2, 5 },        /* M b */
	{ 2, 25 },                 /* region */
	{ 1, 4 },                  /* N c */
};

static void fn_rows(struct flat_result *fn, struct flat_row *rows)
{
	const struct flat_row r[] = {
		{ .samples = 60, .symbol = "f", .cpu = -1, .per_cpu = split, .nper_cpu = 2,
		  .addr_lo = 0x1000, .addr_hi = 0x1100 },
		{ .samples = 30, .symbol = "g", .cpu = -1, .per_cpu = split + 2, .nper_cpu = 1,
		  .addr_lo = 0x2000, .addr_hi = 0x2100 },
		{ .samples = 25, .symbol = NULL, .outside = 1, .region_lo = 0x7000,
		  .region_hi = 0x8000, .cpu = -1, .per_cpu = split + 6, .nper_cpu = 1 },
		{ .samples = 20, .symbol = "a", .outside = 1, .module = "M", .cpu = -1,
		  .per_cpu = split + 3, .nper_cpu = 1 },
		{ .samples = 10, .symbol = "b", .outside = 1, .module = "M", .cpu = -1,
		  .per_cpu = split + 4, .nper_cpu = 2 },
		{ .samples = 4, .symbol = "c", .outside = 1, .module = "N", .cpu = -1,
		  .per_cpu = split + 7, .nper_cpu = 1 },
	};
	static struct flat_cpu_samples cpus[] = { { 0, 75 }, { 1, 44 }, { 2, 30 } };

	memcpy(rows, r, sizeof r);
	memset(fn, 0, sizeof *fn);
	fn->rows = rows;
	fn->nrows = sizeof r / sizeof r[0];
	fn->total = 149;
	fn->outside = 59;
	fn->cpus = cpus;
	fn->ncpus = 3;
}

static void test_by_module(void **state)
{
	struct flat_row rows[6];
	struct flat_result fn, m;

	(void)state;
	fn_rows(&fn, rows);
	assert_int_equal(flat_by_module(&fn, &m), 0);
	assert_int_equal(m.nrows, 4);
	assert_int_equal(m.total, 149);
	/* image 90, M 30, region 25, N 4 */
	assert_int_equal(m.rows[0].samples, 90);
	assert_false(m.rows[0].outside);
	assert_null(m.rows[0].symbol);
	assert_int_equal(m.rows[0].nper_cpu, 2);
	assert_int_equal(m.rows[0].per_cpu[0].samples, 50);
	assert_int_equal(m.rows[0].per_cpu[1].samples, 40);
	assert_int_equal(m.rows[0].addr_lo, 0x1000);
	assert_int_equal(m.rows[0].addr_hi, 0x2100);
	assert_int_equal(m.rows[1].samples, 30);
	assert_string_equal(m.rows[1].module, "M");
	assert_string_equal(m.rows[1].symbol, "M");
	assert_int_equal(m.rows[1].nper_cpu, 2);
	assert_int_equal(m.rows[1].per_cpu[0].samples, 25);
	assert_int_equal(m.rows[1].per_cpu[1].cpu, 2);
	assert_int_equal(m.rows[2].samples, 25);
	assert_int_equal(m.rows[2].region_lo, 0x7000);
	assert_null(m.rows[2].module);
	assert_int_equal(m.rows[3].samples, 4);
	assert_string_equal(m.rows[3].module, "N");
	assert_true(m.rows[1].percent > 20.13 && m.rows[1].percent < 20.14);
	flat_free(&m);
}

static void test_group_order(void **state)
{
	struct flat_row rows[6];
	struct flat_result fn;
	size_t perm[6];

	(void)state;
	fn_rows(&fn, rows);
	/* by module: image (90), M (30), unnamed firmware (25), N (4) */
	assert_int_equal(flat_group_order(&fn, FLAT_GROUP_MODULE, perm), 0);
	const size_t want[] = { 0, 1, 3, 4, 2, 5 };
	for (size_t i = 0; i < 6; i++)
		assert_int_equal(perm[i], want[i]);
	assert_int_equal(flat_permute(rows, 6, perm), 0);
	assert_string_equal(rows[2].symbol, "a");
	assert_string_equal(rows[3].symbol, "b");
	/* by function: each row its own group here, so the order is by samples */
	fn_rows(&fn, rows);
	rows[1].symbol = "f";    /* g becomes f: the image's f is 90 */
	rows[0].samples = 10;
	assert_int_equal(flat_group_order(&fn, FLAT_GROUP_FUNCTION, perm), 0);
	assert_int_equal(perm[0], 0);
	assert_int_equal(perm[1], 1);
	assert_int_equal(perm[2], 2);
}

static void test_sample_filter(void **state)
{
	struct profile p;
	struct profile_filter f;
	struct profile_sample *s = calloc(4, sizeof *s);
	struct profile_stack_sample *st = calloc(2, sizeof *st);

	(void)state;
	assert_non_null(s);
	assert_non_null(st);
	profile_init(&p);
	s[0] = (struct profile_sample){ .pc = 0x100, .count = 5, .cpu = 0 };
	s[1] = (struct profile_sample){ .pc = 0x100, .count = 7, .cpu = 2 };
	s[2] = (struct profile_sample){ .pc = 0x200, .count = 11, .cpu = 2 };
	s[3] = (struct profile_sample){ .pc = 0x300, .count = 13, .cpu = 130 };
	p.samples = s;
	p.nsamples = p.nsorted = p.samples_cap = 4;
	p.total = 36;
	st[0] = (struct profile_stack_sample){ .pc = 0x100, .count = 1, .cpu = 0 };
	st[1] = (struct profile_stack_sample){ .pc = 0x200, .count = 1, .cpu = 2 };
	p.stack_samples = st;
	p.nstack_samples = p.stack_samples_cap = 2;

	memset(&f, 0, sizeof f);
	f.by_cpu = 1;
	f.cpus[0] = 1u << 2;
	f.cpus[2] = 1u << 2;     /* CPU 130 */
	assert_true(profile_filter_keeps(&f, 130, 0));
	assert_false(profile_filter_keeps(&f, 0, 0x100));
	f.by_addr = 1;
	f.lo = 0x100;
	f.hi = 0x200;
	assert_false(profile_filter_keeps(&f, 130, 0x300));
	assert_int_equal(profile_filter_apply(&p, &f), 0);
	assert_int_equal(p.nsamples, 2);
	assert_int_equal(p.total, 18);
	assert_int_equal(p.samples[0].cpu, 2);
	assert_int_equal(p.samples[1].pc, 0x200);
	assert_int_equal(p.nstack_samples, 1);
	assert_int_equal(p.stack_samples[0].pc, 0x200);
	profile_free(&p);
}

static void test_srcpath(void **state)
{
	char buf[4096], tried[4096], dir[] = "/tmp/bmprof-srcpath-XXXXXX", path[4200];
	FILE *f;

	(void)state;
	assert_int_equal(srcpath_add_map("noequals"), -1);
	assert_int_equal(srcpath_add_map("=x"), -1);
	assert_int_equal(srcpath_add_map("/ci=/a"), 0);
	assert_int_equal(srcpath_add_map("/ci/src=/b"), 0);
	assert_string_equal(srcpath_map("/ci/src/x.c", buf, sizeof buf), "/b/x.c");
	assert_string_equal(srcpath_map("/ci/lib/x.c", buf, sizeof buf), "/a/lib/x.c");
	assert_string_equal(srcpath_map("/cix/x.c", buf, sizeof buf), "/cix/x.c");
	assert_string_equal(srcpath_map("rel/x.c", buf, sizeof buf), "rel/x.c");
	srcpath_clear();
	assert_false(srcpath_given());

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/lib", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/lib/w.c", dir);
	assert_non_null(f = fopen(path, "w"));
	fclose(f);
	assert_null(srcpath_find("/gone/src/lib/w.c", buf, sizeof buf, tried, sizeof tried));
	assert_string_equal(tried, "/gone/src/lib/w.c");
	assert_int_equal(srcpath_add_dir("/nonexistent"), 0);
	assert_int_equal(srcpath_add_dir(dir), 0);
	assert_non_null(srcpath_find("/gone/src/lib/w.c", buf, sizeof buf, tried, sizeof tried));
	assert_string_equal(buf, path);
	srcpath_clear();
	unlink(path);
	snprintf(path, sizeof path, "%s/lib", dir);
	rmdir(path);
	rmdir(dir);
}

static void test_colors_and_names(void **state)
{
	(void)state;
	assert_string_equal(term_pct_color(5.0), "\033[31m");
	assert_string_equal(term_pct_color(4.99), "\033[32m");
	assert_string_equal(term_pct_color(0.5), "\033[32m");
	assert_null(term_pct_color(0.49));
	assert_true(symname_names("foo.constprop.0", "foo"));
	assert_true(symname_names("foo.constprop.0", "foo.constprop.0"));
	assert_false(symname_names("foobar", "foo"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sort_keys),
		cmocka_unit_test(test_by_module),
		cmocka_unit_test(test_group_order),
		cmocka_unit_test(test_sample_filter),
		cmocka_unit_test(test_srcpath),
		cmocka_unit_test(test_colors_and_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
