/* SPDX-License-Identifier: BSD-2-Clause */
/* The outputs' building blocks: names as shown (GCC clone suffixes, C++ demangling), markup
 * escaping of hostile text, the stack list (merging, interning), and the flame graph's
 * frames: one per distinct (callers, name), as wide as its samples. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/flamegraph.h"
#include "report/markup.h"
#include "report/stacks.h"
#include "symbol/symname.h"

static void clone_names(void **state)
{
	char b[256];
	(void)state;

	assert_string_equal(symname_display(b, sizeof b, "foo.constprop.0"), "foo [clone .constprop.0]");
	assert_string_equal(symname_display(b, sizeof b, "foo.isra.0"), "foo [clone .isra.0]");
	assert_string_equal(symname_display(b, sizeof b, "foo.part.0"), "foo [clone .part.0]");
	assert_string_equal(symname_display(b, sizeof b, "foo.cold"), "foo [clone .cold]");
	assert_string_equal(symname_display(b, sizeof b, "foo.isra.0.cold"), "foo [clone .isra.0.cold]");
	assert_string_equal(symname_base(b, sizeof b, "foo.constprop.0"), "foo");
	/* not clones: a dot in a name, a number alone, a suffix that is not GCC's */
	assert_string_equal(symname_display(b, sizeof b, "foo.bar"), "foo.bar");
	assert_string_equal(symname_display(b, sizeof b, "foo.0"), "foo.0");
	assert_string_equal(symname_display(b, sizeof b, ".cold"), ".cold");
	assert_string_equal(symname_display(b, sizeof b, "foo.cold."), "foo.cold.");
	assert_string_equal(symname_display(b, sizeof b, "main"), "main");
}

static void demangled(void **state)
{
	char b[256];
	(void)state;

	if (!symname_can_demangle()) {
		assert_string_equal(symname_display(b, sizeof b, "_ZN3Foo3runEm"), "_ZN3Foo3runEm");
		return;
	}
	assert_string_equal(symname_display(b, sizeof b, "_ZN3Foo3runEm"), "Foo::run(unsigned long)");
	assert_string_equal(symname_display(b, sizeof b, "_Z3fooi.constprop.0"),
			    "foo(int) [clone .constprop.0]");
	assert_string_equal(symname_base(b, sizeof b, "_Z3fooi.isra.0"), "foo(int)");
	/* not a valid mangling: left as it is */
	assert_string_equal(symname_display(b, sizeof b, "_Zzzz"), "_Zzzz");
}

static char *escaped(const char *s)
{
	char *out = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&out, &n);

	markup_escape(f, s);
	fclose(f);
	return out;
}

static void markup(void **state)
{
	char *e;
	(void)state;

	e = escaped("a<b>&\"c'</script>");
	assert_string_equal(e, "a&lt;b&gt;&amp;&quot;c&#39;&lt;/script&gt;");
	free(e);
	e = escaped("x\x01y\x7fz\xff\xc3\xa9");      /* control bytes, a stray byte, valid é */
	assert_string_equal(e, "x\\x01y\\x7fz\\xff\xc3\xa9");
	free(e);
	e = escaped("\xe0\x80\x80\xed\xa0\x80]]>");  /* overlong, a surrogate; CDATA's end */
	assert_string_equal(e, "\\xe0\\x80\\x80\\xed\\xa0\\x80]]&gt;");
	free(e);
}

static void add(struct stack_list *sl, const char *folded, uint64_t n)
{
	char buf[256], *save = NULL;
	const char *fr[16];
	unsigned k = 0;

	snprintf(buf, sizeof buf, "%s", folded);
	for (char *t = strtok_r(buf, ";", &save); t && k < 16; t = strtok_r(NULL, ";", &save))
		fr[k++] = t;
	stacks_add(sl, fr, k, n);
}

static void stack_list(void **state)
{
	struct stack_list sl;
	char *out = NULL;
	size_t n = 0;
	FILE *f;
	(void)state;

	stacks_init(&sl);
	add(&sl, "main;b", 3);
	add(&sl, "main;a;x", 2);
	add(&sl, "main;b", 4);
	add(&sl, "main", 1);
	add(&sl, "other", 0);            /* no samples: left out */
	stacks_merge(&sl);
	assert_int_equal(sl.n, 3);
	assert_int_equal(sl.total, 10);
	assert_int_equal(sl.max_depth, 3);
	assert_ptr_equal(sl.v[0].frames[0], sl.v[2].frames[0]);   /* one copy of "main" */
	f = open_memstream(&out, &n);
	assert_int_equal(stacks_write_folded(f, &sl), 0);
	fclose(f);
	assert_string_equal(out, "main 1\nmain;a;x 2\nmain;b 7\n");
	free(out);
	stacks_free(&sl);
}

/* The rects of the SVG: (depth, start, samples, width) per <g class="f">. */
static size_t rects(const char *svg, unsigned *d, uint64_t *s, uint64_t *cnt, double *w, size_t max)
{
	size_t k = 0;

	for (const char *p = strstr(svg, "<g class=\"f\""); p && k < max;
	     p = strstr(p + 1, "<g class=\"f\"")) {
		const char *r = strstr(p, "<rect ");
		assert_int_equal(sscanf(p, "<g class=\"f\" data-s=\"%lu\" data-n=\"%lu\" data-d=\"%u\"",
					&s[k], &cnt[k], &d[k]), 3);
		assert_non_null(r);
		assert_non_null(strstr(r, "width=\""));
		w[k] = strtod(strstr(r, "width=\"") + 7, NULL);
		k++;
	}
	return k;
}

static void flame_frames(void **state)
{
	struct stack_list sl;
	struct flame_opts o = { "t", NULL, 1000, 0 };
	char *out = NULL;
	size_t n = 0, nr;
	unsigned d[32];
	uint64_t s[32], c[32];
	double w[32], sum1 = 0;
	FILE *f;
	(void)state;

	stacks_init(&sl);
	add(&sl, "main;a;x", 2);
	add(&sl, "main;b", 7);
	add(&sl, "main", 1);
	add(&sl, "<evil>&\"", 10);
	stacks_merge(&sl);
	f = open_memstream(&out, &n);
	assert_int_equal(flamegraph_svg(f, &sl, &o), 0);
	fclose(f);
	nr = rects(out, d, s, c, w, 32);
	/* all, main, a, x, b, <evil>&" */
	assert_int_equal(nr, 6);
	for (size_t i = 0; i < nr; i++) {
		assert_true(w[i] > 1000.0 * (double)c[i] / 20 - 0.01 &&
			    w[i] < 1000.0 * (double)c[i] / 20 + 0.01);
		if (d[i] == 1)
			sum1 += w[i];
		if (d[i] == 0)
			assert_int_equal(c[i], 20);
	}
	assert_true(sum1 > 999.9 && sum1 < 1000.1);
	assert_null(strstr(out, "<evil>"));
	assert_non_null(strstr(out, "data-name=\"&lt;evil&gt;&amp;&quot;\""));
	free(out);
	stacks_free(&sl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(clone_names),
		cmocka_unit_test(demangled),
		cmocka_unit_test(markup),
		cmocka_unit_test(stack_list),
		cmocka_unit_test(flame_frames),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
