/* SPDX-License-Identifier: BSD-2-Clause */
/* Transmitting on the PL011 at 0x09000000 (QEMU virt), polled: what the plain runtime
 * (uart.c: set-up and the lock) and the UEFI runtime (the firmware set it up; its
 * uart.c: the TPL) share. A transmitter stuck for SPIN_MAX polls is treated as gone. */
#include "rt.h"

#define PL011 0x09000000u
#define DR 0x000
#define FR 0x018
#define FR_BUSY (1u << 3)
#define FR_TXFF (1u << 5)
#define SPIN_MAX 10000000u

static int uart_dead;

static int wait_clear(uint32_t bits)
{
	if (uart_dead)
		return -1;
	for (unsigned i = 0; i < SPIN_MAX; i++)
		if (!(mmio_read32(PL011 + FR) & bits))
			return 0;
	uart_dead = 1;
	return -1;
}

void uart_putc(char c)
{
	if (wait_clear(FR_TXFF) == 0)
		mmio_write32(PL011 + DR, (uint8_t)c);
}

/* Waits until the last byte has left the shift register. */
void uart_drain(void) { wait_clear(FR_BUSY); }

int pl011_send(const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len--) {
		if (wait_clear(FR_TXFF))
			return -1;
		mmio_write32(PL011 + DR, *p++);
	}
	return 0;
}
