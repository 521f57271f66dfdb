/* SPDX-License-Identifier: BSD-2-Clause */
/* The number of harts the device tree QEMU passes in a1 lists: the nodes cpu@N directly
 * under /cpus. Reads only inside the blob's own totalsize; 1 without a valid blob. */
#include "rt.h"

#define FDT_MAGIC 0xd00dfeedu
#define FDT_BEGIN_NODE 1
#define FDT_END_NODE 2
#define FDT_PROP 3
#define FDT_NOP 4
#define FDT_END 9
#define FDT_MAX_SIZE (1u << 20)

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int starts(const char *s, const char *with)
{
	while (*with)
		if (*s++ != *with++)
			return 0;
	return 1;
}

unsigned bmrt_fdt_harts(const void *blob)
{
	const uint8_t *b = blob;
	uint32_t size, off, end;
	unsigned depth = 0, n = 0, in_cpus = 0;

	if (!b || be32(b) != FDT_MAGIC || (size = be32(b + 4)) > FDT_MAX_SIZE)
		return 1;
	off = be32(b + 8);
	end = off + be32(b + 36);
	if (end > size || off > end)
		return 1;
	while (off + 4 <= end) {
		uint32_t tok = be32(b + off);
		off += 4;
		if (tok == FDT_BEGIN_NODE) {
			const char *name = (const char *)b + off;
			uint32_t len = 0;
			while (off + len < end && name[len])
				len++;
			depth++;
			if (depth == 2)
				in_cpus = !len ? 0 : starts(name, "cpus") && (name[4] == 0 || name[4] == '@');
			else if (depth == 3 && in_cpus && starts(name, "cpu@"))
				n++;
			off += (len + 4) & ~3u;
		} else if (tok == FDT_END_NODE) {
			if (!depth)
				break;
			depth--;
		} else if (tok == FDT_PROP) {
			if (off + 8 > end)
				break;
			off += 8 + ((be32(b + off) + 3) & ~3u);
		} else if (tok != FDT_NOP) {
			break;
		}
	}
	return n ? n : 1;
}
