/* SPDX-License-Identifier: BSD-2-Clause */
/* The PL011 UART at 0x09000000 (QEMU virt), 115200 8N1 with its FIFOs on, polled.
 * Console text and the profile stream share it, from every CPU.
 *
 * One lock, never taken by the sampling handlers (they write nothing), keeps the writers
 * apart: uart_write() holds it for one write, which is one whole frame (bmprof's frames
 * are at most 1036 bytes and go out in one write), and console output (console.c) holds
 * it for one bm_printf, bm_puts or bm_putchar. A CPU never waits for itself: a CPU that
 * finds the lock its own (an exception in the middle of console output, the final flush
 * after one) writes on, and the interrupt-exit drain never runs while the interrupted
 * code holds it (irq.c). It is a ticket lock (first come, first served, so a CPU that
 * drains often cannot starve another's console), its ticket taken with an exclusive
 * load/store pair (the MMU is on whenever the UART is used); a waiter sleeps in WFE until
 * a holder lets go with SEV. */
#include "rt.h"

#define PL011 0x09000000u
#define IBRD 0x024
#define FBRD 0x028
#define LCR_H 0x02C
#define CR 0x030
#define IMSC 0x038
#define ICR 0x044
#define LCR_WLEN8 (3u << 5)
#define LCR_FEN (1u << 4)
#define CR_UARTEN (1u << 0)
#define CR_TXE (1u << 8)
#define CR_RXE (1u << 9)

/* QEMU virt clocks the PL011 at 24 MHz: divisor 24e6 / (16 * 115200) = 13 + 1/64. */
void uart_init(void)
{
	mmio_write32(PL011 + CR, 0);
	uart_drain();
	mmio_write32(PL011 + IMSC, 0);
	mmio_write32(PL011 + ICR, 0x7FF);
	mmio_write32(PL011 + IBRD, 13);
	mmio_write32(PL011 + FBRD, 1);
	mmio_write32(PL011 + LCR_H, LCR_WLEN8 | LCR_FEN);
	mmio_write32(PL011 + CR, CR_UARTEN | CR_TXE | CR_RXE);
}

static int uart_write(void *ctx, const void *buf, size_t len)
{
	int taken = uart_lock(), r;

	(void)ctx;
	r = pl011_send(buf, len);
	uart_unlock(taken);
	return r;
}

const struct bmprof_out bmrt_serial_out = { uart_write, 0 };
