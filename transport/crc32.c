/* SPDX-License-Identifier: BSD-2-Clause */
/* CRC-32 (IEEE 802.3) with a 16-entry nibble table: small enough for any target,
 * fast enough for the host. Freestanding. */
#include "wire.h"

static const uint32_t nibble[16] = {
	0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4,
	0x4db26158, 0x5005713c, 0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
	0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

uint32_t bmprof_crc32(uint32_t crc, const void *p, unsigned long n)
{
	const uint8_t *b = p;
	crc = ~crc;
	while (n--) {
		crc ^= *b++;
		crc = (crc >> 4) ^ nibble[crc & 15];
		crc = (crc >> 4) ^ nibble[crc & 15];
	}
	return ~crc;
}
