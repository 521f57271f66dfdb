/* The PL011 at 0x09000000, which the firmware's console also uses (it set the UART up).
 *
 * A frame goes out whole at TPL_NOTIFY: no firmware event code runs in the middle of one,
 * so firmware text never splits a frame. The sampling interrupts still arrive meanwhile;
 * they write nothing. Console calls (boot/uefi/common/console.c) are kept apart from the
 * drain by irq.c. Once the run ends (bmrt_ending) IRQs stay masked and the TPL is left
 * alone. */
#include "uefi_a64.h"

#define PL011 0x09000000u
#define DR 0x000
#define FR 0x018
#define FR_BUSY (1u << 3)
#define FR_TXFF (1u << 5)
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

void uart_init(void) {}

void uart_putc(char c)
{
	last_char = c;
	if (wait_clear(FR_TXFF) == 0)
		mmio_write32(PL011 + DR, (uint8_t)c);
}

int uart_at_line_start(void) { return last_char == '\n'; }

void uart_drain(void) { wait_clear(FR_BUSY); }

/* Returns the TPL to restore, or -1 when the run is ending. */
static int raise_tpl(void)
{
	if (bmrt_ending)
		return -1;
	return (int)bmrt_efi_st->BootServices->RaiseTPL(TPL_NOTIFY);
}

static void restore_tpl(int old)
{
	if (old >= 0 && !bmrt_ending)
		bmrt_efi_st->BootServices->RestoreTPL((EFI_TPL)old);
}

static int uart_write(void *ctx, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	int old = raise_tpl(), r = 0;

	(void)ctx;
	while (len--) {
		if (wait_clear(FR_TXFF)) {
			r = -1;
			break;
		}
		mmio_write32(PL011 + DR, *p++);
	}
	restore_tpl(old);
	return r;
}

const struct bmprof_out bmrt_serial_out = { uart_write, 0 };
