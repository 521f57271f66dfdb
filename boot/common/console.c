/* Console output for programs: bm_putchar, bm_puts, bm_printf, straight to the UART.
 * Each call holds the UART lock for all its characters (bmrt_console_begin/end), so text
 * from one call is never split by a frame or by another CPU's text. */
#include <stdarg.h>
#include "bmrt.h"
#include "rt_common.h"

struct spec {
	int left;       /* '-' */
	int zero;       /* '0' */
	int alt;        /* '#': 0x before %x, 0X before %X */
	int width;
	int prec;       /* -1: none */
	int len;        /* 0 int, 1 long, 2 long long, 3 size_t, -1 short, -2 char */
};

int bm_putchar(int c)
{
	int t = bmrt_console_begin();

	uart_putc((char)c);
	bmrt_console_end(t);
	return (unsigned char)c;
}

int bm_puts(const char *s)
{
	int t = bmrt_console_begin();

	while (*s)
		uart_putc(*s++);
	uart_putc('\n');
	bmrt_console_end(t);
	return 0;
}

static int pad(int n, char c)
{
	for (int i = 0; i < n; i++)
		uart_putc(c);
	return n > 0 ? n : 0;
}

/* Emit [prefix][body], padded to the width. */
static int field(const struct spec *sp, const char *prefix, const char *body, int n)
{
	int plen = 0, out = 0, fill;

	while (prefix[plen])
		plen++;
	fill = sp->width - plen - n;
	if (!sp->left && !sp->zero)
		out += pad(fill, ' ');
	for (int i = 0; i < plen; i++)
		uart_putc(prefix[i]);
	if (!sp->left && sp->zero)
		out += pad(fill, '0');
	for (int i = 0; i < n; i++)
		uart_putc(body[i]);
	if (sp->left)
		out += pad(fill, ' ');
	return out + plen + n;
}

static int number(const struct spec *sp, unsigned long long v, int neg, unsigned base,
		  int upper, const char *prefix)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24], body[24];
	int n = 0;

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	for (int i = 0; i < n; i++)
		body[i] = tmp[n - 1 - i];
	return field(sp, neg ? "-" : prefix, body, n);
}

static unsigned long long arg_unsigned(const struct spec *sp, va_list *ap)
{
	switch (sp->len) {
	case 1: return va_arg(*ap, unsigned long);
	case 2: return va_arg(*ap, unsigned long long);
	case 3: return va_arg(*ap, size_t);
	case -1: return (unsigned short)va_arg(*ap, unsigned int);
	case -2: return (unsigned char)va_arg(*ap, unsigned int);
	default: return va_arg(*ap, unsigned int);
	}
}

static long long arg_signed(const struct spec *sp, va_list *ap)
{
	switch (sp->len) {
	case 1: return va_arg(*ap, long);
	case 2: return va_arg(*ap, long long);
	case 3: return (long long)va_arg(*ap, size_t);
	case -1: return (short)va_arg(*ap, int);
	case -2: return (signed char)va_arg(*ap, int);
	default: return va_arg(*ap, int);
	}
}

static const char *parse_spec(const char *f, struct spec *sp, va_list *ap)
{
	*sp = (struct spec){ .prec = -1 };
	for (;; f++) {
		if (*f == '-')
			sp->left = 1;
		else if (*f == '0')
			sp->zero = 1;
		else if (*f == '#')
			sp->alt = 1;
		else
			break;
	}
	if (*f == '*') {
		sp->width = va_arg(*ap, int);
		if (sp->width < 0) {
			sp->left = 1;
			sp->width = -sp->width;
		}
		f++;
	}
	while (*f >= '0' && *f <= '9')
		sp->width = sp->width * 10 + (*f++ - '0');
	if (*f == '.') {
		sp->prec = 0;
		if (*++f == '*') {
			sp->prec = va_arg(*ap, int);
			f++;
		}
		while (*f >= '0' && *f <= '9')
			sp->prec = sp->prec * 10 + (*f++ - '0');
	}
	for (; *f == 'l' || *f == 'z' || *f == 'h'; f++)
		sp->len = *f == 'z' ? 3 : *f == 'l' ? sp->len + 1 : sp->len - 1;
	return f;
}

static int conversion(char c, struct spec *sp, va_list *ap)
{
	const char *s;
	long long v;
	int n = 0;

	switch (c) {
	case 'd':
	case 'i':
		v = arg_signed(sp, ap);
		return number(sp, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v,
			      v < 0, 10, 0, "");
	case 'u':
		return number(sp, arg_unsigned(sp, ap), 0, 10, 0, "");
	case 'x':
	case 'X':
		return number(sp, arg_unsigned(sp, ap), 0, 16, c == 'X',
			      !sp->alt ? "" : c == 'X' ? "0X" : "0x");
	case 'p':
		return number(sp, (uintptr_t)va_arg(*ap, void *), 0, 16, 0, "0x");
	case 'c': {
		char ch = (char)va_arg(*ap, int);
		sp->zero = 0;
		return field(sp, "", &ch, 1);
	}
	case 's':
		s = va_arg(*ap, const char *);
		if (!s)
			s = "(null)";
		while (s[n] && (sp->prec < 0 || n < sp->prec))
			n++;
		sp->zero = 0;
		return field(sp, "", s, n);
	case '%':
		uart_putc('%');
		return 1;
	default:
		uart_putc('%');
		if (c)
			uart_putc(c);
		return c ? 2 : 1;
	}
}

int bm_vprintf(const char *fmt, va_list ap)
{
	struct spec sp;
	va_list aq;
	int out = 0, t = bmrt_console_begin();

	va_copy(aq, ap);
	while (*fmt) {
		if (*fmt != '%') {
			uart_putc(*fmt++);
			out++;
			continue;
		}
		fmt = parse_spec(fmt + 1, &sp, &aq);
		out += conversion(*fmt, &sp, &aq);
		if (*fmt)
			fmt++;
	}
	va_end(aq);
	bmrt_console_end(t);
	return out;
}

int bm_printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = bm_vprintf(fmt, ap);
	va_end(ap);
	return n;
}
