/* SPDX-License-Identifier: BSD-2-Clause */
/* For the stream harnesses: mutations almost never leave a frame's CRC right, so most
 * inputs would test only the reader's rejection paths. fix_crcs() walks buf[0..n) frame by
 * frame (a magic and a header whose frame fits the rest; otherwise one byte on) and writes
 * each frame's correct CRC, letting the fuzzer reach the decoders behind the reader. */
#ifndef FUZZ_FIXCRC_H
#define FUZZ_FIXCRC_H

#include <stddef.h>
#include <stdint.h>
#include <zlib.h>
#include "wire.h"

static inline void fix_crcs(uint8_t *buf, size_t n)
{
	size_t o = 0;

	while (o + BMPROF_FRAME_HDR + BMPROF_FRAME_CRC <= n) {
		size_t body = 4 + (size_t)bmprof_get16(buf + o + 6);

		if (buf[o] != BMPROF_MAGIC0 || buf[o + 1] != BMPROF_MAGIC1 ||
		    buf[o + 2] != BMPROF_MAGIC2 || buf[o + 3] != BMPROF_MAGIC3 ||
		    o + 4 + body + BMPROF_FRAME_CRC > n) {
			o++;
			continue;
		}
		bmprof_put32(buf + o + 4 + body, (uint32_t)crc32(0, buf + o + 4, (uInt)body));
		o += 4 + body + BMPROF_FRAME_CRC;
	}
}

#endif
