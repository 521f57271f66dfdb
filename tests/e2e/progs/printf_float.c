/* SPDX-License-Identifier: BSD-2-Clause */
/* bm_printf's floating-point conversions inside an image. tests/e2e/test_printf_float.sh
 * compiles this same file for the host with bm_printf as the C library's printf and
 * compares the two outputs line by line: every value below in every conversion, flags,
 * widths and precisions from the format and from arguments, more double arguments than
 * there are argument registers (the rest come on the stack), doubles between integers and
 * strings, through a program's own variadic function and bm_vprintf, and on another CPU
 * when there is one. Lines starting "as-written:" differ on purpose (the host prints what
 * glibc prints; the image prints the directive as written) and the test checks those
 * against literal text. */
#include <bmrt.h>

static const double values[] = {
	0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 1.5, 2.5, -3.75, 9.995, 0.125, 0.375, 1e-5, 1e-4,
	123456.789, 999999.5, 1e15, 1e16, 1e21, 1e22, 1e23, 3.141592653589793,
	2.718281828459045, 1e-300, 4.9406564584124654e-324, 2.2250738585072014e-308,
	2.2250738585072009e-308, 1.7976931348623157e308, 0.30000000000000004,
	9007199254740993.0, 6.02214076e23, -1.602176634e-19,
};

static void conversions(double v)
{
	bm_printf("%f|%e|%g|%F|%E|%G\n", v, v, v, v, v, v);
	bm_printf("%.0f|%.0e|%.0g|%.1f|%.3e|%.17g|%.20e\n", v, v, v, v, v, v, v);
	bm_printf("%+f|% e|%#g|%#.0f|%#.0e|%+#G\n", v, v, v, v, v, v);
	bm_printf("[%14.4f]|[%-14.3e]|[%014.5g]|[%+014.2f]|[% -12g]|[%*.*f]\n", v, v, v, v, v,
		  12, 3, v);
}

static int my_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int my_printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = bm_vprintf(fmt, ap);
	va_end(ap);
	return n;
}

static void on_cpu(void *arg)
{
	(void)arg;
	bm_printf("cpu: %.3f %e %g\n", 2.5, 1.0 / 3, 6.0221e23);
}

int main(void)
{
	volatile double zero = 0.0;
	double inf = 1.0 / zero, nan = __builtin_nan("");   /* 0/0's sign differs by CPU */
	int n;

	for (unsigned i = 0; i < sizeof values / sizeof values[0]; i++)
		conversions(values[i]);
	bm_printf("%f %e %g %F %E %G|%5f|%-6e|%+g|% G|%08f|%+F\n", inf, -inf, nan, inf, -inf,
		  -nan, inf, -inf, inf, nan, -inf, nan);
	bm_printf("%.60f\n%.1074f\n%.40e\n", 0.1, 4.9406564584124654e-324, 1e300);
	bm_printf("%d %f %s %e %ld %g %c %f %f %f %f %f %f %f %f %u %f\n", 1, 1.5, "x", 2.5, 3L,
		  0.25, 'y', 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9u, 10.5);
	n = my_printf("vprintf: %.2f %s %e %d\n", 2.675, "between", -0.0, 12);
	bm_printf("returned %d\n", n);
	if (bm_ncpus() > 1) {
		bm_run_on(1, on_cpu, 0);
		bm_wait(1);
	} else {
		on_cpu(0);
	}
	bm_printf("as-written: %Lf|%a|%d\n", 1.5L, 1.0, 7);
	return 0;
}
