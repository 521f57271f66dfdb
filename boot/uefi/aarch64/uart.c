/* SPDX-License-Identifier: BSD-2-Clause */
/* The PL011 (boot/aarch64/pl011.c), which the firmware's console also uses (it set the
 * UART up).
 *
 * A frame goes out whole at TPL_NOTIFY: no firmware event code runs in the middle of one,
 * so firmware text never splits a frame. The sampling interrupts still arrive meanwhile;
 * they write nothing. Console calls (boot/uefi/common/console.c) are kept apart from the
 * drain by irq.c. Once the run ends (bmrt_ending) IRQs stay masked and the TPL is left
 * alone. */
#include "uefi_a64.h"

void uart_init(void) {}

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
	int old = raise_tpl(), r;

	(void)ctx;
	r = pl011_send(buf, len);
	restore_tpl(old);
	return r;
}

const struct bmprof_out bmrt_serial_out = { uart_write, 0 };
