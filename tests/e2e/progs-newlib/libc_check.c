/* SPDX-License-Identifier: BSD-2-Clause */
/* A program that uses newlib (make image LIBC=newlib): printf with floating point,
 * malloc/realloc/calloc/free, qsort and bsearch, math.h, strtod/strtol, string.h, errno,
 * atexit and stdio flushed at exit. Everything it prints before the "image:" lines is the
 * same under any C library, so tests/e2e/test_newlib.sh compares it with the same program
 * built for the build machine (glibc); the "image:" lines are what only the bare-metal
 * runtime gives (no files, a bounded heap). With the run-time parameter loops=N it runs a
 * fixed loop of qsort, sin/cos and snprintf/strtod instead, for a profile. */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bmrt.h>

static uint32_t seed = 12345;
static int failures;

static uint32_t rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return seed >> 8;
}

static void check(int ok, const char *what)
{
	if (!ok) {
		printf("FAIL %s\n", what);
		failures++;
	}
}

static const char *ename(int e)
{
	switch (e) {
	case 0: return "0";
	case EDOM: return "EDOM";
	case ERANGE: return "ERANGE";
	case ENOMEM: return "ENOMEM";
	case EBADF: return "EBADF";
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case ENOSYS: return "ENOSYS";
	case ESPIPE: return "ESPIPE";
	default: return "other";
	}
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void formats(void)
{
	printf("f: %f %.3f %10.4f|%-9.2f|%+.0f %.1f %.2f\n", 3.14159265358979, 2.0 / 3,
	       -1234.56789, 0.005, 2.5, 0.05, 1e15 / 7);
	printf("e: %e %.3E %g %G %.10g %g %g\n", 6.02214076e23, 1.0 / 3, 1e-5, 1e100,
	       M_PI, 100000.0, 1000000.0);
	printf("i: %d %ld %lld %llu %u %x %#o %5s|%-5s|%c %%\n", -42, -1234567890L, LLONG_MIN,
	       ULLONG_MAX, 4000000000u, 0xbeefu, 8u, "ab", "cd", 'z');
	printf("c99: %zu %jd %td %hhd %hd\n", sizeof(double), (intmax_t)-7, (ptrdiff_t)3,
	       (signed char)300, (short)70000);
}

static void heap(void)
{
	enum { N = 64 };
	unsigned char *b[N];
	size_t len[N];
	uint32_t sum = 0;
	int ok = 1;

	for (int i = 0; i < N; i++) {
		len[i] = rnd() % 2000 + 1;
		b[i] = malloc(len[i]);
		check(b[i] != NULL, "malloc");
		memset(b[i], i, len[i]);
	}
	for (int i = 0; i < N; i += 2) {
		free(b[i]);
		b[i] = NULL;
	}
	for (int i = 1; i < N; i += 2) {
		b[i] = realloc(b[i], len[i] * 3);
		for (size_t j = 0; j < len[i]; j++)
			ok &= b[i][j] == i;
		sum += (uint32_t)len[i] * (uint32_t)i;
	}
	for (int i = 0; i < N; i++)
		free(b[i]);
	int *z = calloc(1000, sizeof *z);
	int zero = z != NULL;
	for (int i = 0; zero && i < 1000; i++)
		zero &= z[i] == 0;
	free(z);
	printf("heap: %d blocks, sum %u, realloc kept the contents: %s, calloc zeroed: %s\n", N,
	       (unsigned)sum, ok ? "yes" : "no", zero ? "yes" : "no");
}

static void sorting(void)
{
	enum { N = 1000 };
	static int a[N];
	const char *w[] = { "pear", "apple", "fig", "kiwi", "banana", "cherry", "date" };
	long long sum = 0;
	int sorted = 1;

	for (int i = 0; i < N; i++)
		a[i] = (int)(rnd() % 100000) - 50000;
	qsort(a, N, sizeof a[0], cmp_int);
	for (int i = 0; i < N; i++) {
		sum += a[i];
		if (i)
			sorted &= a[i - 1] <= a[i];
	}
	int key = a[500];
	int *hit = bsearch(&key, a, N, sizeof a[0], cmp_int);
	printf("qsort: sorted %s, first %d %d %d, last %d, sum %lld, bsearch %s\n",
	       sorted ? "yes" : "no", a[0], a[1], a[2], a[N - 1], sum,
	       hit && *hit == key ? "found" : "missing");
	qsort(w, sizeof w / sizeof w[0], sizeof w[0], cmp_str);
	printf("words:");
	for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
		printf(" %s", w[i]);
	printf("\n");
}

static void maths(void)
{
	for (int i = 0; i < 8; i++) {
		double x = i * 0.7 - 2.1;
		printf("m %+.1f: %.9f %.9f %.9f %.9f %.9f %.9f %.9f\n", x, sin(x), cos(x), tan(x),
		       exp(x), log(fabs(x) + 1), atan2(x, 1.5), pow(1.5, x));
	}
	printf("m: sqrt(2) %.15f, floor(-2.5) %.1f, fmod(7.5, 2) %.2f, hypot %.6f\n", sqrt(2.0),
	       floor(-2.5), fmod(7.5, 2.0), hypot(3.0, 4.0));
	errno = 0;
	double r = log(-1.0);
	printf("m: log(-1) %s, errno %s\n", isnan(r) ? "nan" : "a number", ename(errno));
	errno = 0;
	r = sqrt(-1.0);
	printf("m: sqrt(-1) %s, errno %s\n", isnan(r) ? "nan" : "a number", ename(errno));
	errno = 0;
	r = exp(1000.0);
	printf("m: exp(1000) %s, errno %s\n", isinf(r) ? "inf" : "finite", ename(errno));
}

static void parsing(void)
{
	const char *in[] = { "3.14159", "-2.5e-3", "1e308", "0x1.8p1", "  42abc", "1e400",
			     "inf", ".5e+2x", "abc" };
	for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
		char *end;
		errno = 0;
		double d = strtod(in[i], &end);
		printf("strtod(\"%s\"): %.17g, rest \"%s\", errno %s\n", in[i], d, end, ename(errno));
	}
	errno = 0;
	long l = strtol("99999999999999999999", NULL, 10);
	printf("strtol: overflow %s, errno %s; %ld %ld %d\n", l == LONG_MAX ? "LONG_MAX" : "?",
	       ename(errno), strtol("-0x1f", NULL, 0), strtol("777", NULL, 8), atoi("  -12x"));
}

static void strings(void)
{
	char buf[64], tok[] = "a,b,,c";
	volatile size_t cut = 8;   /* truncation the compiler does not see */
	int n;

	strcpy(buf, "bare");
	strcat(buf, "-metal");
	printf("s: %s %u %d %s %s %s\n", buf, (unsigned)strlen(buf), strncmp(buf, "bark", 3) == 0,
	       strchr(buf, 'm'), strrchr(buf, 'a'), strstr(buf, "et"));
	printf("s: tokens");
	for (char *t = strtok(tok, ","); t; t = strtok(NULL, ","))
		printf(" [%s]", t);
	n = snprintf(buf, cut, "%d-%s", 123456, "long");
	printf("\ns: snprintf returned %d, kept \"%s\"\n", n, buf);
	n = sprintf(buf, "%05.1f|%x|%s", 9.96, 255u, "");
	printf("s: sprintf returned %d, \"%s\"\n", n, buf);
}

/* What only the bare-metal runtime gives: no files, a bounded heap, terminals
 * (picolibc, the RISC-V images' C library, defines __NEWLIB__ too). */
static void image_only(void)
{
#ifdef __NEWLIB__
	errno = 0;
	FILE *f = fopen("data.txt", "r");
	printf("image: fopen %s, errno %s\n", f ? "opened" : "NULL", ename(errno));
	errno = 0;
	void *p = malloc(64u << 20);
	printf("image: malloc(64 MiB) %s, errno %s\n", p ? "ok" : "NULL", ename(errno));
	errno = 0;
	p = sbrk(1 << 30);
	printf("image: sbrk(1 GiB) %s, errno %s\n", p == (void *)-1 ? "-1" : "ok", ename(errno));
	int t1 = isatty(1);
	errno = 0;
	int t5 = isatty(5), e5 = errno;
	errno = 0;
	long off = (long)lseek(1, 0, SEEK_SET);
	printf("image: isatty(1) %d, isatty(5) %d errno %s, lseek(1) %ld errno %s\n", t1, t5,
	       ename(e5), off, ename(errno));
	clock_t c0 = clock(), c1 = clock();
	printf("image: clock() goes forward: %s, getpid %d\n", c1 >= c0 ? "yes" : "no",
	       (int)getpid());
	fflush(stdout);
	fprintf(stderr, "image: stderr\n");
	bm_printf("image: bm_printf\n");
#endif
}

static void bye(void)
{
	printf("\natexit: ran");
}

/* The profile's loop: qsort, sin/cos, and printf's conversions (snprintf) read back. */
static int hot(unsigned loops)
{
	static int a[256];
	char buf[64];
	double acc = 0;

	for (unsigned i = 0; i < loops; i++) {
		for (int j = 0; j < 256; j++)
			a[j] = (int)rnd();
		qsort(a, 256, sizeof a[0], cmp_int);
		for (int j = 0; j < 300; j++)
			acc += sin(j * 0.37 + i) * cos(j * 0.11 - i);
		for (int j = 0; j < 30; j++) {
			snprintf(buf, sizeof buf, "%.12f %e", acc + j, acc * 1e-3);
			acc += strtod(buf, NULL) * 1e-9;
		}
	}
	printf("hot: %u loops, %.6f\n", loops, acc);
	return 0;
}

int main(void)
{
	unsigned loops = (unsigned)bm_param("loops", 0);

	if (loops)
		return hot(loops);
	setvbuf(stdout, NULL, _IOLBF, 0);
	atexit(bye);
	formats();
	heap();
	sorting();
	maths();
	parsing();
	strings();
	image_only();
	printf("end: failures %d", failures);
	return failures ? 1 : 0;
}
