/* SPDX-License-Identifier: BSD-2-Clause */
/* The 16550 UART at COM1 (0x3F8), 115200 8N1, FIFOs on, polled. Console text and the
 * profile stream of every CPU share it.
 *
 * A frame's bytes are never split by console text or by another CPU's frame: every
 * writer holds the UART lock (uartlock.c) for a whole frame or a whole console call. The
 * drains write from interrupt exit or poll through the sampler's out_begin/out_end
 * (which take the lock), the final flush holds it for all of its frames, and the timer
 * and PMU handlers themselves write nothing. */
#include "rt.h"

#define COM1 0x3F8
#define THR 0
#define IER 1
#define FCR 2
#define LCR 3
#define MCR 4
#define LSR 5
#define LSR_THRE 0x20
#define FIFO_DEPTH 16
#define SPIN_MAX 10000000u   /* a transmitter this stuck is treated as gone */

static int uart_dead;
/* Set while main runs in ring 3 (user.c): takes the character, and returns 1, when the
 * caller is ring 3. */
int (*bmrt_uart_divert)(char c);

void uart_init(void)
{
	outb(COM1 + IER, 0x00);
	outb(COM1 + LCR, 0x80);        /* DLAB: divisor 1 = 115200 baud */
	outb(COM1 + THR, 0x01);
	outb(COM1 + IER, 0x00);
	outb(COM1 + LCR, 0x03);        /* 8N1 */
	outb(COM1 + FCR, 0xC7);        /* FIFO on, both cleared */
	outb(COM1 + MCR, 0x03);        /* DTR, RTS */
}

/* Waits until the transmit FIFO is empty; 0 when it is, -1 if it never empties. */
static int wait_thre(void)
{
	if (uart_dead)
		return -1;
	for (unsigned i = 0; i < SPIN_MAX; i++)
		if (inb(COM1 + LSR) & LSR_THRE)
			return 0;
	uart_dead = 1;
	return -1;
}

static void put(char c)
{
	if (wait_thre() == 0)
		outb(COM1 + THR, (uint8_t)c);
}

void uart_putc(char c)
{
	if (bmrt_uart_divert && bmrt_uart_divert(c))
		return;
	put(c);
}

void bmrt_uart_user_text(const char *s, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		put(s[i]);
}

/* An empty FIFO takes FIFO_DEPTH bytes at once: one status read per 16 bytes. */
static int uart_write(void *ctx, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	(void)ctx;
	while (len) {
		size_t n = len < FIFO_DEPTH ? len : FIFO_DEPTH;
		if (wait_thre())
			return -1;
		len -= n;
		while (n--)
			outb(COM1 + THR, *p++);
	}
	return 0;
}

const struct bmprof_out bmrt_serial_out = { uart_write, 0 };
