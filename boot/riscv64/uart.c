/* SPDX-License-Identifier: BSD-2-Clause */
/* The NS16550A UART at 0x10000000 (QEMU virt), polled, 8N1 with its FIFOs on. Console
 * text and the profile stream share it, from every hart: a ticket lock keeps the writers
 * apart, held for one write (one whole frame) or one console call; a hart never waits for
 * itself (it finds the lock its own: an exception in the middle of console output, the
 * final flush after one), and the interrupt-exit drain never runs while the interrupted
 * code writes console text (trap.c), which bmrt_console_end() makes up for. A transmitter
 * stuck for SPIN_MAX polls is treated as gone. */
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
	int taken = uart_lock(), r = 0;

	(void)ctx;
	while (len--) {
		if (wait_set(LSR_THRE)) {
			r = -1;
			break;
		}
		mmio_write8(UART + THR, *p++);
	}
	uart_unlock(taken);
	return r;
}

const struct bmprof_out bmrt_serial_out = { uart_write, 0 };

int bmrt_console_begin(void)
{
	bmrt_cpus[bmrt_cpu()].out_busy++;
	return uart_lock();
}

/* A drain that an interrupt left for later (it came during console text) runs here, and
 * a hart told to stop meanwhile parks here. */
void bmrt_console_end(int taken)
{
	struct bmrt_cpu *c = &bmrt_cpus[bmrt_cpu()];

	uart_unlock(taken);
	if (--c->out_busy || c->irq_depth)
		return;
	c->out_busy++;
	bmprof_rv_poll();
	c->out_busy--;
	if (c->stopped)
		bmrt_park();
}
