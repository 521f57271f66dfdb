/* SPDX-License-Identifier: BSD-2-Clause */
/* The printf engine: directives parsed, integers, characters and strings formatted here,
 * floating-point conversions handed to fmt_double.c. See format.h. */
#include "format.h"

void bmrt_sink_pad(struct bmrt_sink *s, char c, long n)
{
	char buf[16];

	for (unsigned i = 0; i < sizeof buf; i++)
		buf[i] = c;
	while (n > 0) {
		size_t k = n < (long)sizeof buf ? (size_t)n : sizeof buf;
		s->put(s, buf, k);
		n -= (long)k;
	}
}

static size_t length(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

/* [prefix][zeros][body], padded to the width; zero_pad: the '0' flag may apply. */
static int field(struct bmrt_sink *s, const struct bmrt_spec *sp, const char *prefix,
		 long zeros, const char *body, size_t n, int zero_pad)
{
	size_t plen = length(prefix);
	long len = (long)plen + zeros + (long)n, fill = sp->width - len;

	if (sp->left || !(zero_pad && sp->zero)) {
		if (!sp->left)
			bmrt_sink_pad(s, ' ', fill);
	} else {
		zeros += fill > 0 ? fill : 0;
	}
	s->put(s, prefix, plen);
	bmrt_sink_pad(s, '0', zeros);
	s->put(s, body, n);
	if (sp->left)
		bmrt_sink_pad(s, ' ', fill);
	return (int)(len > sp->width ? len : sp->width);
}

/* An integer: v its magnitude, sign its sign character (0: none). */
static int integer(struct bmrt_sink *s, const struct bmrt_spec *sp, unsigned long long v,
		   char sign, unsigned base, int upper, const char *prefix)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char buf[24], pre[4] = { 0 };
	int n = 0;
	long zeros;

	for (; v; v /= base)
		buf[sizeof buf - 1 - n++] = digits[v % base];
	if (!n && sp->prec != 0)
		buf[sizeof buf - 1 - n++] = '0';
	zeros = sp->prec > n ? sp->prec - n : 0;
	/* %#o: the first digit is a 0 */
	if (base == 8 && sp->alt && !zeros && (!n || buf[sizeof buf - n] != '0'))
		zeros = 1;
	if (sign)
		pre[0] = sign;
	else if (prefix)
		for (int i = 0; prefix[i] && i < 3; i++)
			pre[i] = prefix[i];
	return field(s, sp, pre, zeros, buf + sizeof buf - n, (size_t)n, sp->prec < 0);
}

static unsigned long long arg_unsigned(const struct bmrt_spec *sp, va_list *ap)
{
	switch (sp->len) {
	case BMRT_LEN_HH: return (unsigned char)va_arg(*ap, unsigned int);
	case BMRT_LEN_H: return (unsigned short)va_arg(*ap, unsigned int);
	case BMRT_LEN_L: return va_arg(*ap, unsigned long);
	case BMRT_LEN_LL: case BMRT_LEN_BIG_L: return va_arg(*ap, unsigned long long);
	case BMRT_LEN_Z: return va_arg(*ap, size_t);
	case BMRT_LEN_J: return va_arg(*ap, uintmax_t);
	case BMRT_LEN_T: return (unsigned long long)va_arg(*ap, ptrdiff_t);
	default: return va_arg(*ap, unsigned int);
	}
}

static long long arg_signed(const struct bmrt_spec *sp, va_list *ap)
{
	switch (sp->len) {
	case BMRT_LEN_HH: return (signed char)va_arg(*ap, int);
	case BMRT_LEN_H: return (short)va_arg(*ap, int);
	case BMRT_LEN_L: return va_arg(*ap, long);
	case BMRT_LEN_LL: case BMRT_LEN_BIG_L: return va_arg(*ap, long long);
	case BMRT_LEN_Z: return (long long)va_arg(*ap, size_t);
	case BMRT_LEN_J: return va_arg(*ap, intmax_t);
	case BMRT_LEN_T: return va_arg(*ap, ptrdiff_t);
	default: return va_arg(*ap, int);
	}
}

static const char *number(const char *f, int *out)
{
	int v = 0;

	for (; *f >= '0' && *f <= '9'; f++)
		v = v > 214748363 ? 2147483647 : v * 10 + (*f - '0');
	*out = v;
	return f;
}

/* Flags, width, precision and length after a '%'; returns the conversion character's
 * position. */
static const char *parse_spec(const char *f, struct bmrt_spec *sp, va_list *ap)
{
	*sp = (struct bmrt_spec){ .prec = -1 };
	for (;; f++) {
		if (*f == '-')
			sp->left = 1;
		else if (*f == '+')
			sp->plus = 1;
		else if (*f == ' ')
			sp->space = 1;
		else if (*f == '#')
			sp->alt = 1;
		else if (*f == '0')
			sp->zero = 1;
		else
			break;
	}
	if (*f == '*') {
		sp->width = va_arg(*ap, int);
		if (sp->width < 0) {
			sp->left = 1;
			sp->width = sp->width < -2147483647 ? 2147483647 : -sp->width;
		}
		f++;
	} else {
		f = number(f, &sp->width);
	}
	if (*f == '.') {
		if (*++f == '*') {
			sp->prec = va_arg(*ap, int);
			if (sp->prec < 0)
				sp->prec = -1;
			f++;
		} else {
			f = number(f, &sp->prec);
		}
	}
	switch (*f) {
	case 'h': sp->len = f[1] == 'h' ? BMRT_LEN_HH : BMRT_LEN_H; break;
	case 'l': sp->len = f[1] == 'l' ? BMRT_LEN_LL : BMRT_LEN_L; break;
	case 'z': sp->len = BMRT_LEN_Z; break;
	case 'j': sp->len = BMRT_LEN_J; break;
	case 't': sp->len = BMRT_LEN_T; break;
	case 'L': sp->len = BMRT_LEN_BIG_L; break;
	default: return f;
	}
	return f + 1 + (sp->len == BMRT_LEN_HH || sp->len == BMRT_LEN_LL);
}

static int is_float_conv(char c)
{
	return c == 'f' || c == 'F' || c == 'e' || c == 'E' || c == 'g' || c == 'G';
}

/* One directive, from its '%' at start to its conversion character at *c. */
static int conversion(struct bmrt_sink *s, const char *start, const char *c,
		      struct bmrt_spec *sp, va_list *ap, bmrt_float_arg float_arg)
{
	long long v;
	const char *str;
	size_t n = 0;
	char ch;

	switch (*c) {
	case 'd':
	case 'i':
		v = arg_signed(sp, ap);
		return integer(s, sp, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v,
			       v < 0 ? '-' : sp->plus ? '+' : sp->space ? ' ' : 0, 10, 0, 0);
	case 'u':
		return integer(s, sp, arg_unsigned(sp, ap), 0, 10, 0, 0);
	case 'o':
		return integer(s, sp, arg_unsigned(sp, ap), 0, 8, 0, 0);
	case 'x':
	case 'X': {
		unsigned long long u = arg_unsigned(sp, ap);
		return integer(s, sp, u, 0, 16, *c == 'X',
			       !sp->alt || !u ? 0 : *c == 'X' ? "0X" : "0x");
	}
	case 'p':
		sp->len = BMRT_LEN_L;
		sp->alt = 0;
		return integer(s, sp, (uintptr_t)va_arg(*ap, void *), 0, 16, 0, "0x");
	case 'c':
		ch = (char)va_arg(*ap, int);
		return field(s, sp, "", 0, &ch, 1, 0);
	case 's':
		str = va_arg(*ap, const char *);
		if (!str)
			str = "(null)";
		while (str[n] && (sp->prec < 0 || n < (size_t)sp->prec))
			n++;
		return field(s, sp, "", 0, str, n, 0);
	case '%':
		s->put(s, "%", 1);
		return 1;
	}
	if (is_float_conv(*c) && float_arg && sp->len != BMRT_LEN_BIG_L)
		return bmrt_format_double(s, sp, *c, float_arg(ap, 0));
	if ((is_float_conv(*c) || *c == 'a' || *c == 'A') && float_arg)
		float_arg(ap, sp->len == BMRT_LEN_BIG_L);
	else if (*c == 'n')
		(void)va_arg(*ap, void *);
	n = (size_t)(c - start) + (*c != 0);
	s->put(s, start, n);
	return (int)n;
}

int bmrt_vformat(struct bmrt_sink *s, const char *fmt, va_list *ap, bmrt_float_arg float_arg)
{
	struct bmrt_spec sp;
	int out = 0;

	while (*fmt) {
		const char *start = fmt, *c;

		while (*fmt && *fmt != '%')
			fmt++;
		if (fmt != start) {
			s->put(s, start, (size_t)(fmt - start));
			out += (int)(fmt - start);
			continue;
		}
		c = parse_spec(fmt + 1, &sp, ap);
		out += conversion(s, start, c, &sp, ap, float_arg);
		fmt = *c ? c + 1 : c;
	}
	return out;
}
