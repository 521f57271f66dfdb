/* SPDX-License-Identifier: BSD-2-Clause */
/* Stream throughput: for STREAM_MS of guest time, send 1012-byte frames of a type the
 * host does not know (it counts and skips them) through the runtime's stream sink, with
 * interrupts masked around each frame so no drain splits it. Prints how many were sent
 * and how many the transport refused (the shared-memory ring refuses when it is full;
 * the serial port waits instead). Used by bench/transport.sh. */
#include <bmrt.h>
#include "bmprof.h"

#ifndef STREAM_MS
#define STREAM_MS 1000
#endif
#define FRAME_TYPE 0x7F
#define PAYLOAD 1000

extern const struct bmprof_out bmrt_out;

int main(void)
{
	static uint8_t p[PAYLOAD];
	uint64_t end = bm_cycles() + bm_cycles_hz() / 1000 * STREAM_MS, sent = 0, refused = 0;

	for (unsigned i = 0; i < PAYLOAD; i++)
		p[i] = (uint8_t)(i * 13);
	while (bm_cycles() < end) {
		int r;

		__asm__ volatile("cli" ::: "memory");
		r = bmprof_emit_frame(&bmrt_out, FRAME_TYPE, p, PAYLOAD);
		__asm__ volatile("sti" ::: "memory");
		if (r)
			refused++;
		else
			sent++;
	}
	bm_printf("stream: sent=%llu refused=%llu ms=%u\n", (unsigned long long)sent,
		  (unsigned long long)refused, STREAM_MS);
	return 0;
}
