/* SPDX-License-Identifier: BSD-2-Clause */
/* PCI configuration space through the ECAM of QEMU's virt board, and the shared memory of
 * its ivshmem-plain device for transport=shm. With -kernel there is no firmware, so the
 * BARs are unassigned: the runtime places BAR 2 at the start of the 32-bit PCI memory
 * window, maps it as Normal memory (the host writes it through its caches; on TCG and
 * KVM alike it is RAM), and turns memory decoding on. The runtime maps 32-bit addresses
 * only, so the board must run with highmem=off, which puts the ECAM at 0x3F000000 (with
 * highmem on it lies at 0x4010000000, out of reach); bmprof qemu passes it. */
#include "rt.h"

#define ECAM 0x3F000000ull
#define ECAM_BUSES 16                 /* 16 MiB: 1 MiB per bus */
#define MMIO32_START 0x10000000ull    /* the 32-bit PCI memory window */
#define MMIO32_END 0x3EFF0000ull

static uintptr_t cfg(unsigned bus, unsigned dev, unsigned fn, unsigned off)
{
	return (uintptr_t)(ECAM + ((uint64_t)bus << 20 | dev << 15 | fn << 12 | (off & 0xFFC)));
}

static uint32_t read32(unsigned bus, unsigned dev, unsigned fn, unsigned off)
{
	return mmio_read32(cfg(bus, dev, fn, off));
}

static void write32(unsigned bus, unsigned dev, unsigned fn, unsigned off, uint32_t v)
{
	mmio_write32(cfg(bus, dev, fn, off), v);
}

static const struct bmrt_pci_ops ops = { ECAM_BUSES, read32, write32 };

void bmrt_shm_start(unsigned ncpus)
{
	struct bmrt_pci_dev d;
	uint64_t addr, size;

	/* an ECAM with a host bridge at 00:00.0 (the virt board's 1b36:0008) */
	if ((read32(0, 0, 0, 0) & 0xFFFF) == 0xFFFF ||
	    bmrt_pci_find(&ops, BMRT_IVSHMEM_VENDOR, BMRT_IVSHMEM_DEVICE, &d)) {
		bmrt_stream_shm(0, 0, ncpus, "no ivshmem device (PCI 1af4:1110) in the ECAM at "
				"0x3f000000 (run QEMU's virt board with highmem=off)");
		return;
	}
	addr = bmrt_pci_bar(&d, BMRT_IVSHMEM_BAR, &size);
	if (!addr) {
		addr = (MMIO32_START + size - 1) & ~(size - 1);
		if (addr + size > MMIO32_END) {
			bmrt_stream_shm(0, 0, ncpus, "the ivshmem memory does not fit the 32-bit "
					"PCI window");
			return;
		}
		bmrt_pci_set_bar(&d, BMRT_IVSHMEM_BAR, addr);
	}
	if (addr < MMIO32_START || addr + size > MMIO32_END ||
	    bmrt_mmu_map_normal(addr, size)) {
		bmrt_stream_shm(0, 0, ncpus, "the ivshmem BAR lies outside the 32-bit PCI window");
		return;
	}
	bmrt_pci_enable_memory(&d);
	bmrt_stream_shm((void *)(uintptr_t)addr, size, ncpus, 0);
}
