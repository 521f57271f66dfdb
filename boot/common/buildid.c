/* SPDX-License-Identifier: BSD-2-Clause */
/* The image's GNU build-id, from the note the linker script keeps in a loaded section:
 * { u32 namesz, u32 descsz, u32 type, name padded to 4, desc }. */
#include "bmprof.h"
#include "rt_common.h"

#define NT_GNU_BUILD_ID 3
#define BUILD_ID_MAX 64

extern const uint8_t __build_id_start[], __build_id_end[];

static uint32_t get32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

uint8_t bmrt_build_id(const uint8_t **id)
{
	const uint8_t *p = __build_id_start;
	size_t have = (size_t)(__build_id_end - __build_id_start);
	uint32_t namesz, descsz, off;

	*id = 0;
	if (have < 16)
		return 0;
	namesz = get32(p);
	descsz = get32(p + 4);
	off = 12 + ((namesz + 3) & ~3u);
	if (get32(p + 8) != NT_GNU_BUILD_ID || descsz > BUILD_ID_MAX || off + descsz > have)
		return 0;
	*id = p + off;
	return (uint8_t)descsz;
}
