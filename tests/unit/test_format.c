/* SPDX-License-Identifier: BSD-2-Clause */
/* The runtimes' printf engine (boot/common/format.c, fmt_double.c) against the C library's
 * vsnprintf, directive by directive: doubles from random bit patterns, subnormals, powers
 * of ten and their neighbours, exact decimal ties, large precisions, every combination of
 * the flags with widths and precisions, inf and nan; integers, characters and strings with
 * the same flags; and the directives it prints as written (%Lf, %a, %n, unknown ones),
 * with the arguments after them still in step. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <float.h>
#include <cmocka.h>

#include "../../boot/common/format.h"

struct buf {
	struct bmrt_sink sink;
	char *p;
	size_t n, cap;
};

static void buf_put(struct bmrt_sink *s, const char *p, size_t n)
{
	struct buf *b = (struct buf *)s;

	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->p = realloc(b->p, b->cap);
		assert_non_null(b->p);
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
	b->p[b->n] = 0;
}

static uint64_t host_float(va_list *ap, int is_long)
{
	double d;
	uint64_t bits;

	if (is_long) {
		(void)va_arg(*ap, long double);
		return 0;
	}
	d = va_arg(*ap, double);
	memcpy(&bits, &d, sizeof bits);
	return bits;
}

static struct buf out = { .sink = { buf_put } };
static char *want;
static size_t want_cap;
static unsigned long checked;

/* The engine's text and count for fmt, into out; returns the count. */
static int engine(const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	out.n = 0;
	buf_put(&out.sink, "", 0);
	va_copy(aq, ap);
	n = bmrt_vformat(&out.sink, fmt, &aq, host_float);
	va_end(aq);
	return n;
}

/* The engine against vsnprintf for one format and its arguments. */
static void same(const char *fmt, ...)
{
	va_list ap;
	int n, m;

	va_start(ap, fmt);
	m = vsnprintf(want, want_cap, fmt, ap);
	va_end(ap);
	if (m >= 0 && (size_t)m >= want_cap) {
		want_cap = (size_t)m + 1;
		want = realloc(want, want_cap);
		assert_non_null(want);
		va_start(ap, fmt);
		vsnprintf(want, want_cap, fmt, ap);
		va_end(ap);
	}
	va_start(ap, fmt);
	n = engine(fmt, ap);
	va_end(ap);
	if (n != m || out.n != (size_t)n || strcmp(out.p, want)) {
		print_error("format \"%s\": want (%d) \"%.200s\", got (%d) \"%.200s\"\n", fmt, m,
			    want, n, out.p);
		fail();
	}
	checked++;
}

/* The engine's output for fmt, as a string. */
static const char *got(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	engine(fmt, ap);
	va_end(ap);
	return out.p;
}

static double from_bits(uint64_t b)
{
	double d;

	memcpy(&d, &b, sizeof d);
	return d;
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static const char convs[] = "fFeEgG";

/* Every conversion at the precisions that matter for a value: the default, 0, 1, a
 * few, 17 (a double's round trip), and ones past the exact expansion for %e / %g. */
static void every_conv(double d)
{
	static const int precs[] = { 0, 1, 2, 3, 5, 10, 16, 17, 25, 40 };
	char f[16];

	for (const char *c = convs; *c; c++) {
		snprintf(f, sizeof f, "%%%c", *c);
		same(f, d);
		for (size_t i = 0; i < sizeof precs / sizeof precs[0]; i++) {
			snprintf(f, sizeof f, "%%.%d%c", precs[i], *c);
			same(f, d);
			snprintf(f, sizeof f, "%%#.%d%c", precs[i], *c);
			same(f, d);
		}
	}
}

static void test_random_bits(void **state)
{
	(void)state;
	for (int i = 0; i < 2000; i++)
		every_conv(from_bits(next()));
	/* bit patterns of ordinary magnitudes, where %f prints every digit */
	for (int i = 0; i < 1500; i++) {
		uint64_t b = next();
		b = (b & 0x800FFFFFFFFFFFFFull) | (uint64_t)(1023 - 60 + (int)(next() % 120)) << 52;
		every_conv(from_bits(b));
	}
}

static void test_subnormals(void **state)
{
	(void)state;
	every_conv(from_bits(1));                       /* 2^-1074 */
	every_conv(from_bits(0x000FFFFFFFFFFFFFull));   /* the largest subnormal */
	every_conv(from_bits(0x0010000000000000ull));   /* DBL_MIN */
	every_conv(-from_bits(3));
	for (int i = 0; i < 300; i++)
		every_conv(from_bits(next() & 0x800FFFFFFFFFFFFFull));
	/* every digit of the smallest ones */
	same("%.1100f", from_bits(1));
	same("%.1100f", from_bits(0x000FFFFFFFFFFFFFull));
	same("%.800e", from_bits(0x000FFFFFFFFFFFFFull));
	same("%.770e", from_bits(0x000FFFFFFFFFFFFFull));
	same("%.760g", from_bits(0x000FFFFFFFFFFFFFull));
	same("%.1074f", -from_bits(1));
}

static void test_powers_of_ten(void **state)
{
	(void)state;
	for (int e = -324; e <= 308; e++) {
		char s[16];
		double d;

		snprintf(s, sizeof s, "1e%d", e);
		d = strtod(s, NULL);
		every_conv(d);
		every_conv(nextafter(d, 0));
		every_conv(nextafter(d, INFINITY));
		same("%.0f", d);
	}
	every_conv(DBL_MAX);
	same("%.400f", DBL_MAX);
	same("%f", -DBL_MAX);
	same("%.320e", DBL_MAX);
	/* 2^k: the exact integers and fractions with the most digits per bit */
	for (int k = -1074; k <= 1023; k += 7)
		every_conv(ldexp(1, k));
}

/* Exact decimal ties: the digit after the cut is 5 and nothing follows, so the last
 * digit kept goes to even; one bit more or less is not a tie. */
static void test_ties(void **state)
{
	static const double ties[] = {
		0.5, 1.5, 2.5, 3.5, -0.5, -2.5, 0.125, 0.375, 0.625, 0.875, 2.675, 1.0625,
		1e23, 5e-324, 9.5, 99.5, 999.5, 0.0625, 1.25, 1.35, 4.5e15, 4503599627370497.5,
		9007199254740993.0, 0.03125, 1.5e-5,
	};

	(void)state;
	for (size_t i = 0; i < sizeof ties / sizeof ties[0]; i++) {
		every_conv(ties[i]);
		every_conv(nextafter(ties[i], 0));
		every_conv(nextafter(ties[i], INFINITY));
	}
	/* k + 0.5 and k / 2^n at the precision that cuts at the 5 */
	for (int k = 0; k < 200; k++) {
		same("%.0f", k + 0.5);
		same("%.0e", k * 10 + 5.0);
		same("%.1e", k * 100 + 25.0);
		same("%.1g", k * 10 + 5.0);
		for (int n = 1; n < 12; n++) {
			double d = ldexp(2 * k + 1, -n);
			char f[16];
			snprintf(f, sizeof f, "%%.%df", n - 1);
			same(f, d);
			snprintf(f, sizeof f, "%%.%de", n > 1 ? n - 2 : 0);
			same(f, d);
		}
	}
	/* rounding that carries into a new digit */
	same("%.0f", 9.5);
	same("%.2f", 9.995);
	same("%.3e", 9.9995);
	same("%g", 999999.5);
	same("%g", 9.999995e-5);
	same("%.0e", 9.5);
	same("%.0f", 0.5);
	same("%.0f", 0.51);
	same("%.3f", 0.0005);
	same("%.3f", 0.00051);
	same("%.3f", 0.0004999);
	/* %#g carried out of %f style into %e style, and back */
	same("%#g|%#.5g|%#.3g|%#.2g|%#012.6g|%#-12.6G|", 999999.5, 99999.5, 999.9996, 99.99996,
	     999999.5, 999999.7);
	for (int k = 1; k < 17; k++) {
		double d = pow(10, k) - 0.5;
		char f[16];
		snprintf(f, sizeof f, "%%#.%dg", k);
		same(f, d);
		same(f, -d);
		same(f, nextafter(d, 0));
		same(f, 1 / d);
		same(f, pow(10, -k) - pow(10, -k - 7));
	}
}

static void test_large_precision(void **state)
{
	static const double v[] = { 0.1, 1.0 / 3, 123456.789, 1e-300, 1e300, 0, -0.0, 2.5 };

	(void)state;
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		same("%.100f", v[i]);
		same("%.340f", v[i]);
		same("%.1200f", v[i]);
		same("%.500e", v[i]);
		same("%.900e", v[i]);
		same("%.800g", v[i]);
		same("%#.900g", v[i]);
		same("%1300.1100f", v[i]);
	}
}

/* All 32 combinations of the flags, with widths and precisions, on each conversion. */
static void test_flags(void **state)
{
	static const double v[] = {
		0, -0.0, 1, -1, 0.5, 3.14159, -2.71828e-10, 1e100, 123456789.125, 1e-5, 1e-4,
		0.0001234, 99999.95, 1e15, 1e16, 1e17, INFINITY, -INFINITY, NAN, -NAN,
	};
	static const char *const widths[] = { "", "1", "8", "25" };
	static const char *const precs[] = { "", ".", ".0", ".1", ".3", ".17" };
	char f[32];

	(void)state;
	for (unsigned flags = 0; flags < 32; flags++) {
		char fl[6];
		int n = 0;
		for (int b = 0; b < 5; b++)
			if (flags >> b & 1)
				fl[n++] = "-+ #0"[b];
		fl[n] = 0;
		for (size_t w = 0; w < 4; w++)
			for (size_t p = 0; p < 6; p++)
				for (const char *c = convs; *c; c++) {
					snprintf(f, sizeof f, "%%%s%s%s%c", fl, widths[w], precs[p], *c);
					for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
						same(f, v[i]);
				}
	}
	/* width and precision from the arguments, negative ones included */
	for (int w = -12; w <= 12; w += 4)
		for (int p = -2; p <= 8; p += 3) {
			same("%*.*f|%*.*e|%*.*g", w, p, 2.5, w, p, -0.000123, w, p, 1e10);
			same("%0*.*f|%+*.*E", w, p, 2.5, w, p, 6e23);
		}
	same("%lf %lg %le", 1.5, 2.5, 3.5);
	same("%f %e %g %F %E %G", INFINITY, -INFINITY, NAN, INFINITY, -NAN, NAN);
	same("%05f|%-5f|%+f|% f|%05F", INFINITY, -INFINITY, NAN, INFINITY, NAN);
}

static void test_integers(void **state)
{
	static const long long v[] = { 0, 1, -1, 7, 42, -42, 255, 4096, 2147483647,
				       -2147483647 - 1, 9223372036854775807ll,
				       -9223372036854775807ll - 1 };
	static const char *const widths[] = { "", "1", "6", "24" };
	static const char *const precs[] = { "", ".", ".0", ".1", ".5", ".22" };
	char f[32];

	(void)state;
	for (unsigned flags = 0; flags < 32; flags++) {
		char fl[6];
		int n = 0;
		for (int b = 0; b < 5; b++)
			if (flags >> b & 1)
				fl[n++] = "-+ #0"[b];
		fl[n] = 0;
		for (size_t w = 0; w < 4; w++)
			for (size_t p = 0; p < 6; p++) {
				for (const char *c = "diuoxX"; *c; c++) {
					if ((*c == 'd' || *c == 'i') ? flags & 8 : flags & 6)
						continue;   /* not defined by C */
					for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
						snprintf(f, sizeof f, "%%%s%s%sll%c", fl, widths[w],
							 precs[p], *c);
						same(f, v[i]);
						snprintf(f, sizeof f, "%%%s%s%s%c", fl, widths[w],
							 precs[p], *c);
						same(f, (int)v[i]);
					}
				}
				if (flags & 30)
					continue;
				snprintf(f, sizeof f, "%%%s%s%ss", fl, widths[w], precs[p]);
				same(f, "hello, world");
				same(f, "");
				if (!precs[p][0]) {
					snprintf(f, sizeof f, "%%%s%sc", fl, widths[w]);
					same(f, 'x');
				}
			}
	}
	same("%hhd %hhu %hd %hu %ld %lu %zu %zx %jd %ju %td", 300, 300, 70000, 70000, -5l, 5ul,
	     (size_t)-1, (size_t)255, (intmax_t)-9, (uintmax_t)9, (ptrdiff_t)-3);
	same("%lld %llx %Ld", -1ll, ~0ull, 1ll << 40);
	same("%%|%-5d|%s|%.3s|%c%c", 3, "x", "abcdef", 'a', 'b');
	same("%p %10p %-10p|", (void *)0x1234, (void *)0xabc, (void *)0x10);
	assert_string_equal(got("%p", (void *)0), "0x0");
}

/* What the engine does not convert prints as written; the arguments stay in step. */
static void test_as_written(void **state)
{
	int n = 0;

	(void)state;
	assert_string_equal(got("%Lf %d", (long double)1.5, 7), "%Lf 7");
	assert_string_equal(got("%10.3Le|%s", (long double)2, "ok"), "%10.3Le|ok");
	assert_string_equal(got("%a %A %d", 1.0, 2.0, 8), "%a %A 8");
	assert_string_equal(got("%n|%d", &n, 9), "%n|9");
	assert_int_equal(n, 0);
	assert_string_equal(got("%y %d", 5), "%y 5");
	assert_string_equal(got("abc%"), "abc%");
	assert_string_equal(got("%-08"), "%-08");
}

/* Without a float_arg (the runtime's own messages) floating directives print as written
 * and take nothing. */
static const char *no_float(const char *fmt, ...)
{
	va_list ap;

	out.n = 0;
	buf_put(&out.sink, "", 0);
	va_start(ap, fmt);
	bmrt_vformat(&out.sink, fmt, &ap, NULL);
	va_end(ap);
	return out.p;
}

static void test_no_float_arg(void **state)
{
	(void)state;
	assert_string_equal(no_float("%f %d|%.3e", 5), "%f 5|%.3e");
}

static int teardown(void **state)
{
	(void)state;
	fprintf(stderr, "%lu formats checked against vsnprintf\n", checked);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_bits),
		cmocka_unit_test(test_subnormals),
		cmocka_unit_test(test_powers_of_ten),
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_large_precision),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_as_written),
		cmocka_unit_test(test_no_float_arg),
	};
	int r = cmocka_run_group_tests(tests, NULL, teardown);

	free(out.p);
	free(want);
	return r;
}
