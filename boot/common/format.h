/* SPDX-License-Identifier: BSD-2-Clause */
/* The runtime's printf engine. bm_printf (printf.c) formats console text with it and
 * bmrt_log (log.c) the runtime's own messages. It is integer code only: taking a double
 * out of a va_list needs the FP/SIMD registers, so that one step is the caller's
 * float_arg, compiled with floating point allowed; the double is then converted from its
 * bits (fmt_double.c), exactly, with integer arithmetic. Freestanding: also compiled for
 * the host, where tests/unit/test_format.c checks it against the C library's printf.
 *
 * Conversions: d i u o x X p c s %, and with a float_arg f F e E g G. Flags - + space #
 * 0, a width and a precision (digits or *), length hh h l ll z j t (L: as ll for
 * integers). The output is glibc's for each of these. %n, %a, %A and L with a floating
 * conversion (long double) print the directive as written, consuming its argument; any
 * other conversion character prints the directive as written and consumes nothing. */
#ifndef BMRT_FORMAT_H
#define BMRT_FORMAT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* Where formatted text goes, a piece at a time. */
struct bmrt_sink {
	void (*put)(struct bmrt_sink *s, const char *p, size_t n);
};

enum bmrt_len { BMRT_LEN_INT, BMRT_LEN_HH, BMRT_LEN_H, BMRT_LEN_L, BMRT_LEN_LL, BMRT_LEN_Z,
		BMRT_LEN_J, BMRT_LEN_T, BMRT_LEN_BIG_L };

struct bmrt_spec {
	unsigned char left, plus, space, alt, zero;   /* flags - + space # 0 */
	unsigned char len;                            /* enum bmrt_len */
	int width;
	int prec;                                     /* -1: none given */
};

/* Takes the next floating-point argument out of *ap: a double (returned as its IEEE-754
 * bits), or with is_long a long double (consumed; the return value is not used). */
typedef uint64_t (*bmrt_float_arg)(va_list *ap, int is_long);

/* Formats fmt with the arguments in *ap into s; returns the characters written. Without
 * float_arg (NULL) the floating conversions print as written and consume nothing. */
int bmrt_vformat(struct bmrt_sink *s, const char *fmt, va_list *ap, bmrt_float_arg float_arg);

/* fmt_double.c: the double whose IEEE-754 bits are bits, as conversion conv (one of f F e
 * E g G) with sp's flags, width and precision; returns the characters written. Its digits
 * are exact (rounded to nearest, ties to even, as glibc does in its default rounding mode). */
int bmrt_format_double(struct bmrt_sink *s, const struct bmrt_spec *sp, char conv,
		       uint64_t bits);

/* n copies of c (nothing if n <= 0). */
void bmrt_sink_pad(struct bmrt_sink *s, char c, long n);

#endif
