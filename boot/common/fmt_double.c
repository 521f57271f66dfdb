/* SPDX-License-Identifier: BSD-2-Clause */
/* %f %e %g of a double, exactly, with integer arithmetic only.
 *
 * A finite double is m * 2^e with m < 2^53. For e >= 0 its value is the integer m << e
 * (at most 1024 bits); for e < 0 it is m * 5^-e / 10^-e, so its decimal digits are those
 * of the integer m * 5^-e (at most 2^53 * 5^1074 < 2^2547: 80 limbs of 32 bits) with the
 * decimal point -e places from the right. The digits (at most 767 of them) are rounded in
 * decimal where the conversion cuts them: to nearest, and on an exact tie to an even last
 * digit, which is what glibc prints in the default rounding mode. The buffers live only
 * in these functions' frames (about 1.2 KiB of stack), never in a caller's. */
#include "format.h"

#define LIMBS 80
#define MAX_DIGITS 800

/* d[0].d[1]d[2]... * 10^exp, digits as characters, no trailing zeros; n == 0 is 0. */
struct decimal {
	int n, exp;
	char d[MAX_DIGITS];
};

struct bignum {
	int n;                /* limbs in use, the top one nonzero */
	uint32_t w[LIMBS];    /* least significant first */
};

static void big_mul(struct bignum *b, uint32_t m)
{
	uint64_t carry = 0;

	for (int i = 0; i < b->n; i++) {
		uint64_t t = (uint64_t)b->w[i] * m + carry;
		b->w[i] = (uint32_t)t;
		carry = t >> 32;
	}
	if (carry && b->n < LIMBS)
		b->w[b->n++] = (uint32_t)carry;
}

/* b /= d; returns the remainder */
static uint32_t big_div(struct bignum *b, uint32_t d)
{
	uint64_t r = 0;

	for (int i = b->n - 1; i >= 0; i--) {
		r = r << 32 | b->w[i];
		b->w[i] = (uint32_t)(r / d);
		r %= d;
	}
	while (b->n && !b->w[b->n - 1])
		b->n--;
	return (uint32_t)r;
}

/* b *= base^k, in steps of base^step (the largest power below 2^32) */
static void big_mul_pow(struct bignum *b, uint32_t base, int step, int k)
{
	for (; k > 0; k -= step) {
		uint32_t p = 1;
		for (int i = 0; i < step && i < k; i++)
			p *= base;
		big_mul(b, p);
	}
}

/* The exact digits of m * 2^e (m > 0). */
static __attribute__((noinline)) void exact_digits(struct decimal *x, uint64_t m, int e)
{
	struct bignum b = { 2, { (uint32_t)m, (uint32_t)(m >> 32) } };
	int end = MAX_DIGITS, total;

	while (e < 0 && !(m & 1)) {
		m >>= 1;
		e++;
	}
	b.w[0] = (uint32_t)m;
	b.w[1] = (uint32_t)(m >> 32);
	if (e >= 0)
		big_mul_pow(&b, 2, 31, e);
	else
		big_mul_pow(&b, 5, 13, -e);
	while (b.n && !b.w[b.n - 1])
		b.n--;
	/* nine digits at a time, from the right */
	while (b.n) {
		uint32_t r = big_div(&b, 1000000000u);
		for (int i = 0; i < 9; i++, r /= 10)
			x->d[--end] = (char)('0' + r % 10);
	}
	while (x->d[end] == '0')
		end++;
	total = MAX_DIGITS - end;
	for (int i = 0; i < total; i++)
		x->d[i] = x->d[end + i];
	x->n = total;
	x->exp = total - 1 + (e < 0 ? e : 0);
	while (x->n && x->d[x->n - 1] == '0')
		x->n--;
}

/* Keep the first k digits (k may be 0 or less: none), rounding to nearest, ties to even. */
static void round_to(struct decimal *x, long k)
{
	int up = 0;

	if (k >= x->n)
		return;
	if (k >= 0) {
		char r = x->d[k];
		int rest = 0, odd = k > 0 && ((x->d[k - 1] - '0') & 1);
		for (int i = k + 1; i < x->n && !rest; i++)
			rest = x->d[i] != '0';
		up = r > '5' || (r == '5' && (rest || odd));
	}
	x->n = k > 0 ? (int)k : 0;
	if (up) {
		int i = x->n - 1;
		while (i >= 0 && x->d[i] == '9')
			x->d[i--] = '0';
		if (i >= 0) {
			x->d[i]++;
		} else {
			x->d[0] = '1';
			x->n = 1;
			x->exp++;
		}
	}
	while (x->n && x->d[x->n - 1] == '0')
		x->n--;
}

/* digits from .. from+count-1 of x, '0' outside the ones it has */
static void put_digits(struct bmrt_sink *s, const struct decimal *x, long from, long count)
{
	char buf[32];
	unsigned k = 0;

	for (long i = from; i < from + count; i++) {
		buf[k++] = i >= 0 && i < x->n ? x->d[i] : '0';
		if (k == sizeof buf) {
			s->put(s, buf, k);
			k = 0;
		}
	}
	if (k)
		s->put(s, buf, k);
}

/* The sign and the padding before a body of len characters (sign included). */
static long before(struct bmrt_sink *s, const struct bmrt_spec *sp, long len, char sign,
		   int finite)
{
	long fill = sp->width - len;

	if (!sp->left && !(sp->zero && finite))
		bmrt_sink_pad(s, ' ', fill);
	if (sign)
		s->put(s, &sign, 1);
	if (!sp->left && sp->zero && finite)
		bmrt_sink_pad(s, '0', fill);
	return fill > 0 ? fill : 0;
}

static int after(struct bmrt_sink *s, const struct bmrt_spec *sp, long len, long fill)
{
	if (sp->left)
		bmrt_sink_pad(s, ' ', fill);
	return (int)(len + fill);
}

/* ddd.ddd with frac digits after the point */
static int put_fixed(struct bmrt_sink *s, const struct bmrt_spec *sp, char sign,
		     const struct decimal *x, long frac, int point)
{
	long whole = x->exp >= 0 ? x->exp + 1L : 1;
	long len = (sign != 0) + whole + point + frac, fill = before(s, sp, len, sign, 1);

	put_digits(s, x, x->exp >= 0 ? 0 : -1, whole);
	if (point)
		s->put(s, ".", 1);
	put_digits(s, x, x->exp + 1L, frac);
	return after(s, sp, len, fill);
}

/* d.ddde+dd with frac digits after the point */
static int put_exp(struct bmrt_sink *s, const struct bmrt_spec *sp, char sign,
		   const struct decimal *x, long frac, int point, int upper)
{
	int e = x->n ? x->exp : 0, a = e < 0 ? -e : e;
	char tail[6] = { upper ? 'E' : 'e', e < 0 ? '-' : '+' };
	int t = 2;
	long len, fill;

	if (a >= 100)
		tail[t++] = (char)('0' + a / 100);
	tail[t++] = (char)('0' + a / 10 % 10);
	tail[t++] = (char)('0' + a % 10);
	len = (sign != 0) + 1 + point + frac + t;
	fill = before(s, sp, len, sign, 1);
	put_digits(s, x, 0, 1);
	if (point)
		s->put(s, ".", 1);
	put_digits(s, x, 1, frac);
	s->put(s, tail, (size_t)t);
	return after(s, sp, len, fill);
}

static int put_special(struct bmrt_sink *s, const struct bmrt_spec *sp, char sign,
		       const char *text)
{
	long fill = before(s, sp, 3 + (sign != 0), sign, 0);

	s->put(s, text, 3);
	return after(s, sp, 3 + (sign != 0), fill);
}

static long at_least_0(long v) { return v > 0 ? v : 0; }

static int fixed_style(long e, long p) { return e < p && e >= -4; }

/* %g: precision p significant digits; %e style if the exponent is below -4 or not below
 * p, else %f style; without '#' no trailing zeros and no bare point. With '#', a value
 * that rounding carries out of %f style (999999.5 as %#g) gets no digits after the
 * point ("1.e+06", not "1.00000e+06"): that is what glibc prints. */
static int put_general(struct bmrt_sink *s, const struct bmrt_spec *sp, char sign,
		       struct decimal *x, int upper)
{
	long p = sp->prec < 0 ? 6 : sp->prec ? sp->prec : 1, frac;
	int e, e0 = x->n ? x->exp : 0;

	round_to(x, p);
	e = x->n ? x->exp : 0;
	if (fixed_style(e, p)) {
		frac = sp->alt ? p - 1 - e : at_least_0(x->n - 1L - e);
		return put_fixed(s, sp, sign, x, frac, frac > 0 || sp->alt);
	}
	frac = !sp->alt ? at_least_0(x->n - 1L) : fixed_style(e0, p) ? 0 : p - 1;
	return put_exp(s, sp, sign, x, frac, frac > 0 || sp->alt, upper);
}

__attribute__((noinline)) int bmrt_format_double(struct bmrt_sink *s,
						  const struct bmrt_spec *sp, char conv,
						  uint64_t bits)
{
	struct decimal x;
	int upper = conv == 'F' || conv == 'E' || conv == 'G';
	int biased = (int)(bits >> 52 & 0x7FF);
	uint64_t m = bits & ((1ull << 52) - 1);
	char sign = bits >> 63 ? '-' : sp->plus ? '+' : sp->space ? ' ' : 0;
	long prec = sp->prec < 0 ? 6 : sp->prec;

	if (biased == 0x7FF)
		return put_special(s, sp, sign, m ? (upper ? "NAN" : "nan") : upper ? "INF" : "inf");
	x.n = 0;
	x.exp = 0;
	if (biased || m)
		exact_digits(&x, biased ? m | 1ull << 52 : m, (biased ? biased : 1) - 1075);
	switch (conv) {
	case 'e':
	case 'E':
		round_to(&x, prec + 1);
		return put_exp(s, sp, sign, &x, prec, prec > 0 || sp->alt, upper);
	case 'g':
	case 'G':
		return put_general(s, sp, sign, &x, upper);
	default:
		round_to(&x, x.exp + prec + 1);
		return put_fixed(s, sp, sign, &x, prec, prec > 0 || sp->alt);
	}
}
