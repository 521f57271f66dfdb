/* SPDX-License-Identifier: BSD-2-Clause */
/* Console text from both sides while sampling: 300 lines through the firmware's ConOut
 * (OVMF writes them to COM1 itself) and 300 through bm_printf, with work between. Built
 * with tiny sample buffers, frames are drained all through the run, between and around
 * the firmware's text, which must corrupt none of them. */
#include <efi.h>
#include <bmrt.h>
#include <bmrt_uefi.h>

__attribute__((noinline)) uint64_t spin(uint64_t n)
{
	uint64_t x = 1;

	for (uint64_t i = 0; i < n; i++) {
		x = x * 6364136223846793005ull + 1;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

int main(void)
{
	EFI_SYSTEM_TABLE *st = bm_efi_system_table();
	uint64_t x = 0;

	for (int i = 0; i < 300; i++) {
		st->ConOut->OutputString(st->ConOut, L"conout: a line the firmware writes\r\n");
		x += spin(20000);
		bm_printf("conout: bm_printf line %d\n", i);
	}
	return (int)(x & 1) * 0;
}
