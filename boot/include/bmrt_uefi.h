/* SPDX-License-Identifier: BSD-2-Clause */
/* For programs built with make image BOOT=uefi: the firmware's tables, to call boot and
 * runtime services directly (include <efi.h>: programs are built with gnu-efi's headers,
 * on x86-64 with GNU_EFI_USE_MS_ABI, which makes the services ms_abi function pointers).
 * Time a program spends in firmware code is sampled like its own, at the firmware's
 * addresses. */
#ifndef BMRT_UEFI_H
#define BMRT_UEFI_H

#ifdef __cplusplus
extern "C" {
#endif

void *bm_efi_system_table(void);   /* EFI_SYSTEM_TABLE * */
void *bm_efi_image_handle(void);   /* EFI_HANDLE of this application */

#ifdef __cplusplus
}
#endif

#endif
