/* SPDX-License-Identifier: BSD-2-Clause */
/* PCI configuration space, whichever way the architecture reaches it (the ops its pci.c
 * gives): find a device by vendor and device ID, size and place a BAR. */
#include "rt_common.h"

#define PCI_ID 0x00
#define PCI_COMMAND 0x04
#define PCI_BAR0 0x10
#define BAR_64BIT 0x4u

#define RD(d, off) (d)->ops->read32((d)->bus, (d)->dev, (d)->fn, (off))
#define WR(d, off, v) (d)->ops->write32((d)->bus, (d)->dev, (d)->fn, (off), (v))

int bmrt_pci_find(const struct bmrt_pci_ops *ops, uint16_t vendor, uint16_t device,
		  struct bmrt_pci_dev *d)
{
	for (unsigned bus = 0; bus < ops->buses; bus++)
		for (unsigned dev = 0; dev < 32; dev++)
			for (unsigned fn = 0; fn < 8; fn++) {
				uint32_t id = ops->read32(bus, dev, fn, PCI_ID);

				if ((id & 0xFFFF) == 0xFFFF) {
					if (fn == 0)
						break;
					continue;
				}
				if ((id & 0xFFFF) == vendor && id >> 16 == device) {
					*d = (struct bmrt_pci_dev){ ops, (uint8_t)bus, (uint8_t)dev,
								    (uint8_t)fn };
					return 0;
				}
				/* single-function device: header type bit 7 clear */
				if (fn == 0 && !(ops->read32(bus, dev, 0, 0x0C) >> 23 & 1))
					break;
			}
	return -1;
}

uint64_t bmrt_pci_bar(const struct bmrt_pci_dev *d, unsigned bar, uint64_t *size)
{
	unsigned off = PCI_BAR0 + 4 * bar;
	uint32_t lo = RD(d, off), hi = 0, slo, shi = 0xFFFFFFFFu;
	int is64 = (lo & 0x6) == BAR_64BIT;
	uint32_t cmd = RD(d, PCI_COMMAND);

	if (is64)
		hi = RD(d, off + 4);
	/* sizing: decoding off while the BAR reads back its size mask */
	WR(d, PCI_COMMAND, cmd & ~3u);
	WR(d, off, 0xFFFFFFFFu);
	slo = RD(d, off);
	WR(d, off, lo);
	if (is64) {
		WR(d, off + 4, 0xFFFFFFFFu);
		shi = RD(d, off + 4);
		WR(d, off + 4, hi);
	}
	WR(d, PCI_COMMAND, cmd);
	*size = ~((uint64_t)shi << 32 | (slo & ~0xFull)) + 1;
	return ((uint64_t)hi << 32 | lo) & ~0xFull;
}

void bmrt_pci_set_bar(const struct bmrt_pci_dev *d, unsigned bar, uint64_t addr)
{
	unsigned off = PCI_BAR0 + 4 * bar;
	uint32_t lo = RD(d, off);

	WR(d, off, (uint32_t)addr);
	if ((lo & 0x6) == BAR_64BIT)
		WR(d, off + 4, (uint32_t)(addr >> 32));
}

void bmrt_pci_enable_memory(const struct bmrt_pci_dev *d)
{
	uint32_t cmd = RD(d, PCI_COMMAND);

	WR(d, PCI_COMMAND, (cmd & 0xFFFF) | 2u);
}
