/* SPDX-License-Identifier: BSD-2-Clause */
/* The NS16550A UART at 0x10000000 (QEMU virt), polled, 8N1 with its FIFOs on. Console
 * text and the profile stream share it: the sampling handlers write nothing, and a
 * drain never runs while the interrupted code writes console text (trap.c), so one hart
 * needs no lock; a transmitter stuck for SPIN_MAX polls is treated as gone. */
#include "rt.h"

#define UART 0x10000000u
#define THR 0
#define IER 1
#define FCR 2
#define LCR 3
#define LSR 5
#define LSR_THRE (1u << 5)
#define LSR_TEMT (1u << 6)
#define SPIN_MAX 10000000u

static int uart_dead;

void uart_init(void)
{
	mmio_write8(UART + IER, 0);
	mmio_write8(UART + LCR, 3);
	mmio_write8(UART + FCR, 7);
}

static int wait_set(uint8_t bits)
{
	if (uart_dead)
		return -1;
	for (unsigned i = 0; i < SPIN_MAX; i++)
		if ((mmio_read8(UART + LSR) & bits) == bits)
			return 0;
	uart_dead = 1;
	return -1;
}

void uart_putc(char c)
{
	if (!wait_set(LSR_THRE))
		mmio_write8(UART + THR, (uint8_t)c);
}

void uart_drain(void) { wait_set(LSR_TEMT); }

static int uart_write(void *ctx, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	(void)ctx;
	while (len--) {
		if (wait_set(LSR_THRE))
			return -1;
		mmio_write8(UART + THR, *p++);
	}
	return 0;
}

const struct bmprof_out bmrt_serial_out = { uart_write, 0 };

int bmrt_console_begin(void)
{
	bmrt_out_busy++;
	return 1;
}

/* A drain that an interrupt left for later (it came during console text) runs here. */
void bmrt_console_end(int token)
{
	(void)token;
	if (--bmrt_out_busy || bmrt_irq_depth)
		return;
	bmrt_out_busy++;
	bmprof_rv_poll();
	bmrt_out_busy--;
}
