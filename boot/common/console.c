/* SPDX-License-Identifier: BSD-2-Clause */
/* Console output for programs: bm_putchar, bm_puts, bm_write, and the sink bm_printf formats into
 * (printf.c), straight to the UART. Each call holds the UART lock for all its characters
 * (bmrt_console_begin/end), so text from one call is never split by a frame or by another
 * CPU's text. The runtime's own messages are not console text: they go out as LOG frames
 * (log.c). */
#include "bmrt.h"
#include "format.h"
#include "rt_common.h"

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

int bm_write(const void *buf, size_t n)
{
	const char *p = buf;
	int t = bmrt_console_begin();

	for (size_t i = 0; i < n; i++)
		uart_putc(p[i]);
	bmrt_console_end(t);
	return (int)n;
}

static void console_put(struct bmrt_sink *s, const char *p, size_t n)
{
	(void)s;
	for (size_t i = 0; i < n; i++)
		uart_putc(p[i]);
}

struct bmrt_sink bmrt_console_sink = { console_put };
