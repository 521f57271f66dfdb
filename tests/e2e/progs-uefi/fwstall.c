/* SPDX-License-Identifier: BSD-2-Clause */
/* Half its time in its own loop (work_a, about 100M instructions), half in the firmware's
 * Stall service (100 ms of busy waiting), so about half the samples have firmware PCs,
 * outside the image. Prints where the firmware's Stall code is, for the test to check the
 * firmware samples' PCs against. */
#include <efi.h>
#include <bmrt.h>
#include <bmrt_uefi.h>

__attribute__((noinline)) uint64_t work_a(uint64_t seed)
{
	uint64_t x = seed;

	for (uint64_t i = 0; i < 25000000ull; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

int main(void)
{
	EFI_SYSTEM_TABLE *st = bm_efi_system_table();
	uint64_t x = work_a(1);

	st->BootServices->Stall(100000);
	bm_printf("fwstall: %llx, Stall at %p\n", (unsigned long long)x,
		  (void *)st->BootServices->Stall);
	return 7;
}
