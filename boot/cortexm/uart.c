/* SPDX-License-Identifier: BSD-2-Clause */
/* The CMSDK APB UART0, polled, 115200 8N1. Console text and the profile stream share it
 * (one CPU): a frame is one uart write, from program context or from the interrupt-exit
 * drain, and the drain waits while console output or a runtime message is being written
 * (bmrt_console_busy), so a frame never lands inside another. */
#include "rt.h"

#define DATA 0x00
#define STATE 0x04
#define CTRL 0x08
#define BAUDDIV 0x10
#define STATE_TX_FULL (1u << 0)
#define CTRL_TX_EN (1u << 0)
#define BAUD 115200u

static volatile unsigned busy;

void uart_init(void)
{
	mmio_write32(BMRT_CM_UART + BAUDDIV, BMRT_CM_UART_PCLK / BAUD);
	mmio_write32(BMRT_CM_UART + CTRL, CTRL_TX_EN);
}

void uart_putc(char c)
{
	while (mmio_read32(BMRT_CM_UART + STATE) & STATE_TX_FULL)
		;
	mmio_write32(BMRT_CM_UART + DATA, (uint8_t)c);
}

void uart_drain(void)
{
	while (mmio_read32(BMRT_CM_UART + STATE) & STATE_TX_FULL)
		;
}

int bmrt_console_begin(void)
{
	busy++;
	return 0;
}

void bmrt_console_end(int token)
{
	(void)token;
	busy--;
}

int bmrt_console_busy(void) { return busy != 0; }

static int uart_write(void *ctx, const void *buf, size_t len)
{
	const char *p = buf;

	(void)ctx;
	for (size_t i = 0; i < len; i++)
		uart_putc(p[i]);
	return 0;
}

const struct bmprof_out bmrt_serial_out = { uart_write, 0 };
