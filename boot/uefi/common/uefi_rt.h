/* SPDX-License-Identifier: BSD-2-Clause */
/* Internals of the UEFI runtimes: efi_main's glue (boot/uefi/common/) and what each
 * architecture (boot/uefi/<arch>/) gives it. The plain runtimes' rt_common.h describes the
 * parts of boot/common/ compiled in as well. */
#ifndef BMRT_UEFI_RT_H
#define BMRT_UEFI_RT_H

#include <efi.h>
#include <stdint.h>
#include "bmprof.h"

/* The link-time address of the image's first byte: gnu-efi's linker scripts (and
 * linker/uefi-*.ld) link at 0, and the make rule checks that ImageBase is 0 in the ELF. */
#define BMRT_UEFI_LINK_BASE 0ull

/* main.c */
extern EFI_SYSTEM_TABLE *bmrt_efi_st;
extern EFI_HANDLE bmrt_efi_image;
/* Power off through ResetSystem(EfiResetShutdown), or halt. */
_Noreturn void bmrt_efi_shutdown(void);

/* console.c: the UART belongs to the application while it runs. A console call marks it
 * busy; bmrt_uefi_out_begin (the sampler's out_begin) then leaves the drain for a later
 * tick, so a frame never lands inside a console call's text. */
int bmrt_uefi_out_begin(void);
void bmrt_uefi_out_end(void);

/* Each architecture: read the configuration, set up sampling (the firmware's own timer
 * interrupt, hooked, takes the samples), send HELLO and start sampling. load_bias is the
 * image's run-time minus link-time address. Returns with interrupts enabled. */
void bmrt_uefi_start(uint64_t load_bias);

/* ranges.c: the image's code and the stack region it runs on, for the unwind (a range
 * left empty when the firmware does not tell) */
void bmrt_uefi_ranges(struct bmprof_range *code, struct bmprof_range *stack);

/* shm.c: transport=shm: find the ivshmem device through EFI_PCI_IO_PROTOCOL and switch the
 * stream to its rings (or say why not and stay on the serial port). Before HELLO. */
void bmrt_shm_start(unsigned ncpus);

#endif
