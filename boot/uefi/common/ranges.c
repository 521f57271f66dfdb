/* SPDX-License-Identifier: BSD-2-Clause */
/* Where the call-stack unwind may read under UEFI: instructions only in the application's
 * own image, frame records only in the memory-map region that holds the stack it runs on
 * (the firmware allocated it; UEFI maps memory one to one). A chain that runs on into the
 * firmware's frames is followed while they stay in that region and look like frame
 * records; the firmware is usually built without frame pointers, so it ends there. */
#include "bmrt.h"
#include "uefi_rt.h"
#include "../../common/rt_common.h"

static uint8_t map[32768] __attribute__((aligned(8)));

void bmrt_uefi_ranges(struct bmprof_range *code, struct bmprof_range *stack)
{
	EFI_GUID lip = LOADED_IMAGE_PROTOCOL;
	EFI_LOADED_IMAGE *li = NULL;
	UINTN size = sizeof map, key, dsize;
	UINT32 dver;
	uint64_t sp = (uint64_t)(uintptr_t)__builtin_frame_address(0);

	*code = (struct bmprof_range){ 0, 0 };
	*stack = (struct bmprof_range){ 0, 0 };
	if (bmrt_efi_st->BootServices->HandleProtocol(bmrt_efi_image, &lip, (void **)&li) ==
	    EFI_SUCCESS && li)
		*code = (struct bmprof_range){ (uintptr_t)li->ImageBase,
					       (uintptr_t)li->ImageBase + li->ImageSize };
	if (bmrt_efi_st->BootServices->GetMemoryMap(&size, (EFI_MEMORY_DESCRIPTOR *)map, &key,
						    &dsize, &dver) != EFI_SUCCESS ||
	    dsize < sizeof(EFI_MEMORY_DESCRIPTOR)) {
		bmrt_log(BMRT_WARN, "no memory map from the firmware: call stacks are not recorded");
		return;
	}
	for (UINTN off = 0; off + dsize <= size; off += dsize) {
		const EFI_MEMORY_DESCRIPTOR *d = (const EFI_MEMORY_DESCRIPTOR *)(map + off);
		uint64_t lo = d->PhysicalStart, hi = lo + d->NumberOfPages * 4096;
		if (sp >= lo && sp < hi) {
			*stack = (struct bmprof_range){ lo, hi };
			return;
		}
	}
	bmrt_log(BMRT_WARN, "the stack at 0x%llx is in no memory-map region: call stacks are "
		 "not recorded", (unsigned long long)sp);
}
