/* The PL011 UART at 0x09000000 (QEMU virt), 115200 8N1 with its FIFOs on, polled.
 * Console text and the profile stream share it.
 *
 * A frame's bytes are never split by console text, by construction rather than by masking
 * interrupts for the length of a frame: frames are written only by a drain or the final
 * flush, which the core and bmprof_a64_irq_exit() serialize per CPU; the sampling
 * handlers write nothing; console text is written only by the program, which cannot run
 * while an interrupt-exit drain holds the CPU; and the fatal exception path stops
 * sampling first. */
#include "rt.h"

#define PL011 0x09000000u
#define DR 0x000
#define FR 0x018
#define IBRD 0x024
#define FBRD 0x028
#define LCR_H 0x02C
#define CR 0x030
#define IMSC 0x038
#define ICR 0x044
#define FR_BUSY (1u << 3)
#define FR_TXFF (1u << 5)
#define LCR_WLEN8 (3u << 5)
#define LCR_FEN (1u << 4)
#define CR_UARTEN (1u << 0)
#define CR_TXE (1u << 8)
#define CR_RXE (1u << 9)
#define SPIN_MAX 10000000u   /* a transmitter this stuck is treated as gone */

static int uart_dead;
static char last_char = '\n';   /* of console text, not of frames */

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

/* QEMU virt clocks the PL011 at 24 MHz: divisor 24e6 / (16 * 115200) = 13 + 1/64. */
void uart_init(void)
{
	mmio_write32(PL011 + CR, 0);
	wait_clear(FR_BUSY);
	mmio_write32(PL011 + IMSC, 0);
	mmio_write32(PL011 + ICR, 0x7FF);
	mmio_write32(PL011 + IBRD, 13);
	mmio_write32(PL011 + FBRD, 1);
	mmio_write32(PL011 + LCR_H, LCR_WLEN8 | LCR_FEN);
	mmio_write32(PL011 + CR, CR_UARTEN | CR_TXE | CR_RXE);
}

void uart_putc(char c)
{
	last_char = c;
	if (wait_clear(FR_TXFF) == 0)
		mmio_write32(PL011 + DR, (uint8_t)c);
}

int uart_at_line_start(void) { return last_char == '\n'; }

/* Waits until the last byte has left the shift register. */
void uart_drain(void) { wait_clear(FR_BUSY); }

static int uart_write(void *ctx, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	(void)ctx;
	while (len--) {
		if (wait_clear(FR_TXFF))
			return -1;
		mmio_write32(PL011 + DR, *p++);
	}
	return 0;
}

const struct bmprof_out bmrt_out = { uart_write, 0 };
