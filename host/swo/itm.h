/* SPDX-License-Identifier: BSD-2-Clause */
/* A decoder of the ITM/DWT packet protocol as it arrives over SWO (Armv7-M ARM, Appendix
 * D4; Armv8-M the same): it hands the payload bytes of one stimulus port's
 * instrumentation packets to out(), in order, and counts everything else.
 *
 * Packets (first byte, the header):
 *   00 .. 00 80       synchronization: at least five zero bytes, then 0x80
 *   70                overflow: the ITM's FIFO dropped packets
 *   xxxxx0ss (ss!=0)  instrumentation, port xxxxx (bits 7:3), 1/2/4 payload bytes for ss
 *                     1/2/3; the port's page comes from extension packets (ports 32..255)
 *   xxxxx1ss (ss!=0)  hardware source (DWT: event counters, exception trace, PC samples,
 *                     data trace), skipped
 *   11tt0000          local timestamp 1, then 1..4 bytes (bit 7: more follow), skipped
 *   0ttt0000          local timestamp 2 (ttt 1..6), no payload
 *   94, B4            global timestamp 1 (1..4 bytes) and 2 (1..6 bytes), skipped
 *   cxxx1s00          extension, then bytes while bit 7 (c) is set; with s = 0 it sets the
 *                     stimulus port page (bits 6:4) for the instrumentation packets after it
 * Anything else is an error: a reserved header, a zero run that does not end in 0x80, a
 * continuation longer than its packet allows. The decoder counts it and takes the next
 * byte as a header (after a zero run, the byte that ended it), so it falls back into step at the next packet boundary
 * it meets (at the latest the next synchronization packet); what it delivers in between
 * is what the frame CRCs of the stream then reject. Memory is constant and time linear
 * whatever the input; any split of the input into pushes gives the same output and counts.
 * A capture must be of SWO with the TPIU formatter bypassed (the usual SWO setting). */
#ifndef BMPROF_SWO_ITM_H
#define BMPROF_SWO_ITM_H

#include <stddef.h>
#include <stdint.h>

#define ITM_PORTS 256

struct itm_stats {
	uint64_t bytes;          /* input bytes */
	uint64_t delivered;      /* payload bytes of the chosen port handed to out() */
	uint64_t other_bytes;    /* payload bytes of other ports */
	uint64_t port_bytes[ITM_PORTS];   /* payload bytes per port */
	uint64_t hw_packets;     /* DWT hardware-source packets */
	uint64_t syncs, overflows, local_ts, global_ts, extensions;
	uint64_t errors;         /* malformed or reserved packets */
	uint64_t skipped;        /* bytes of those */
	int truncated;           /* the input ended inside a packet */
};

struct itm_decoder {
	unsigned port;           /* the stimulus port whose bytes go to out() */
	void (*out)(void *ctx, const uint8_t *data, size_t len);
	void *ctx;
	struct itm_stats st;
	/* private */
	uint8_t state, hdr, need, have, page;
	uint8_t payload[4];
	uint64_t zeros;          /* of the zero run being read */
	uint8_t buf[4096];
	size_t nbuf;
};

void itm_init(struct itm_decoder *d, unsigned port,
	      void (*out)(void *ctx, const uint8_t *data, size_t len), void *ctx);
void itm_push(struct itm_decoder *d, const void *data, size_t len);
/* End of input: a packet left unfinished is counted as truncated (its bytes skipped). */
void itm_finish(struct itm_decoder *d);

#endif
