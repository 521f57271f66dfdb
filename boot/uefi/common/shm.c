/* SPDX-License-Identifier: BSD-2-Clause */
/* transport=shm under UEFI: the shared memory of QEMU's ivshmem-plain device, found through
 * the firmware's PCI bus driver instead of raw configuration space (the plain runtimes'
 * boot/<arch>/pci.c). Every PCI function has an EFI_PCI_IO_PROTOCOL; the one whose
 * vendor/device IDs are 1af4:1110 is the device, GetBarAttributes(BAR 2) gives the address
 * and size the firmware assigned (possibly above 4 GiB: the firmware identity-maps the
 * MMIO it assigns), and Attributes(Enable, MEMORY) turns memory decoding on, which the
 * firmware leaves off for a device no driver claimed. The rings then work as in the plain
 * runtimes (boot/common/stream.c). */
#include "bmrt.h"
#include "uefi_rt.h"
#include "../../common/rt_common.h"

#define ACPI_QWORD_DESC 0x8A
#define ACPI_ADDR_MEMORY 0

/* one ACPI QWORD address space descriptor (what GetBarAttributes returns) */
static int bar_range(const uint8_t *d, uint64_t *addr, uint64_t *len)
{
	if (!d || d[0] != ACPI_QWORD_DESC || d[3] != ACPI_ADDR_MEMORY)
		return -1;
	__builtin_memcpy(addr, d + 14, 8);
	__builtin_memcpy(len, d + 38, 8);
	return *len ? 0 : -1;
}

static EFI_PCI_IO *find_ivshmem(void)
{
	EFI_BOOT_SERVICES *bs = bmrt_efi_st->BootServices;
	EFI_GUID guid = EFI_PCI_IO_PROTOCOL_GUID;
	EFI_HANDLE *h = NULL;
	UINTN n = 0;
	EFI_PCI_IO *found = NULL;

	if (bs->LocateHandleBuffer(ByProtocol, &guid, NULL, &n, &h) != EFI_SUCCESS)
		return NULL;
	for (UINTN i = 0; i < n && !found; i++) {
		EFI_PCI_IO *io = NULL;
		UINT32 id = 0xFFFFFFFFu;

		if (bs->HandleProtocol(h[i], &guid, (void **)&io) != EFI_SUCCESS || !io)
			continue;
		if (io->Pci.Read(io, EfiPciIoWidthUint32, 0, 1, &id) == EFI_SUCCESS &&
		    (id & 0xFFFF) == BMRT_IVSHMEM_VENDOR && id >> 16 == BMRT_IVSHMEM_DEVICE)
			found = io;
	}
	bs->FreePool(h);
	return found;
}

/* the same entry the plain runtimes' pci.c gives */
void bmrt_shm_start(unsigned ncpus)
{
	EFI_PCI_IO *io = find_ivshmem();
	void *res = NULL;
	uint64_t addr = 0, size = 0;
	int bad;

	if (!io) {
		bmrt_stream_shm(0, 0, ncpus, "no ivshmem device (PCI 1af4:1110) among the "
				"firmware's EFI_PCI_IO_PROTOCOL handles");
		return;
	}
	if (io->GetBarAttributes(io, BMRT_IVSHMEM_BAR, NULL, &res) != EFI_SUCCESS) {
		bmrt_stream_shm(0, 0, ncpus, "the firmware gives no resources for the ivshmem "
				"device's BAR 2");
		return;
	}
	bad = bar_range(res, &addr, &size);
	bmrt_efi_st->BootServices->FreePool(res);
	if (bad || !addr) {
		bmrt_stream_shm(0, 0, ncpus, "the ivshmem device's BAR 2 is not an assigned "
				"memory range");
		return;
	}
	if (io->Attributes(io, EfiPciIoAttributeOperationEnable, EFI_PCI_IO_ATTRIBUTE_MEMORY,
			   NULL) != EFI_SUCCESS) {
		bmrt_stream_shm(0, 0, ncpus, "the firmware refused to enable memory decoding "
				"on the ivshmem device");
		return;
	}
	bmrt_log(BMRT_INFO, "ivshmem BAR 2 at 0x%llx, %llu bytes", (unsigned long long)addr,
		 (unsigned long long)size);
	bmrt_stream_shm((void *)(uintptr_t)addr, size, ncpus, 0);
}
