/* SPDX-License-Identifier: BSD-2-Clause */
/* efi_main: the UEFI application's entry. gnu-efi's crt0 relocates the image and calls it
 * with the SysV ABI (so it is not EFIAPI). It finds where the firmware loaded the image, starts sampling (the architecture's
 * bmrt_uefi_start), runs main() and ends the run with its return value (bm_exit: flush,
 * END frame, power off). The application never returns to the firmware. */
#include "bmrt.h"
#include "bmrt_uefi.h"
#include "uefi_rt.h"
#include "../../common/rt_common.h"

int main(void);

EFI_SYSTEM_TABLE *bmrt_efi_st;
EFI_HANDLE bmrt_efi_image;

void *bm_efi_system_table(void) { return bmrt_efi_st; }
void *bm_efi_image_handle(void) { return bmrt_efi_image; }

_Noreturn void bmrt_efi_shutdown(void)
{
	if (bmrt_efi_st && bmrt_efi_st->RuntimeServices)
		bmrt_efi_st->RuntimeServices->ResetSystem(EfiResetShutdown, EFI_SUCCESS, 0, NULL);
	for (;;)
		__asm__ volatile("" : : : "memory");
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	EFI_GUID lip = LOADED_IMAGE_PROTOCOL;
	EFI_LOADED_IMAGE *li = NULL;
	uint64_t base;

	bmrt_efi_st = st;
	bmrt_efi_image = image;
	uart_init();
	if (st->BootServices->HandleProtocol(image, &lip, (void **)&li) != EFI_SUCCESS || !li) {
		bmrt_log(BMRT_ERR, "the firmware has no EFI_LOADED_IMAGE_PROTOCOL for this image");
		bmrt_efi_shutdown();
	}
	/* the firmware's five-minute watchdog would reset a long run */
	st->BootServices->SetWatchdogTimer(0, 0, 0, NULL);
	base = (uint64_t)(uintptr_t)li->ImageBase;
	bmrt_log(BMRT_INFO, "UEFI image loaded at 0x%llx (link base 0x%llx)",
		 (unsigned long long)base, BMRT_UEFI_LINK_BASE);
	bmrt_uefi_start(base - BMRT_UEFI_LINK_BASE);
	bm_exit(main());
}
