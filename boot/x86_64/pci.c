/* SPDX-License-Identifier: BSD-2-Clause */
/* PCI configuration space through I/O ports 0xCF8/0xCFC (configuration mechanism #1),
 * and the shared memory of QEMU's ivshmem-plain device for transport=shm. On q35 the
 * BIOS has assigned the BARs before the kernel runs; the BAR must lie below 4 GiB, where
 * the boot identity map reaches (entry.S). */
#include "rt.h"

#define CONFIG_ADDRESS 0xCF8
#define CONFIG_DATA 0xCFC
#define IDENTITY_MAPPED (4ull << 30)

static inline void outl(uint16_t port, uint32_t v)
{
	__asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint32_t inl(uint16_t port)
{
	uint32_t v;
	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static uint32_t cf8(unsigned bus, unsigned dev, unsigned fn, unsigned off)
{
	return 0x80000000u | bus << 16 | dev << 11 | fn << 8 | (off & 0xFC);
}

static uint32_t read32(unsigned bus, unsigned dev, unsigned fn, unsigned off)
{
	outl(CONFIG_ADDRESS, cf8(bus, dev, fn, off));
	return inl(CONFIG_DATA);
}

static void write32(unsigned bus, unsigned dev, unsigned fn, unsigned off, uint32_t v)
{
	outl(CONFIG_ADDRESS, cf8(bus, dev, fn, off));
	outl(CONFIG_DATA, v);
}

static const struct bmrt_pci_ops ops = { 256, read32, write32 };

void bmrt_shm_start(unsigned ncpus)
{
	struct bmrt_pci_dev d;
	uint64_t addr, size;

	if (bmrt_pci_find(&ops, BMRT_IVSHMEM_VENDOR, BMRT_IVSHMEM_DEVICE, &d)) {
		bmrt_stream_shm(0, 0, ncpus, "no ivshmem device (PCI 1af4:1110)");
		return;
	}
	addr = bmrt_pci_bar(&d, BMRT_IVSHMEM_BAR, &size);
	if (!addr) {
		bmrt_stream_shm(0, 0, ncpus, "the ivshmem device's BAR 2 is not assigned");
		return;
	}
	if (addr + size > IDENTITY_MAPPED) {
		bmrt_stream_shm(0, 0, ncpus, "the ivshmem device's BAR 2 lies above 4 GiB, "
				"outside the runtime's identity map");
		return;
	}
	bmrt_pci_enable_memory(&d);
	bmrt_stream_shm((void *)(uintptr_t)addr, size, ncpus, 0);
}
