/* SPDX-License-Identifier: BSD-2-Clause */
/* Host side of the wire: an incremental reader that splits a byte stream into frames and
 * console text. Bytes are pushed in as they arrive (from a pipe, a serial device, a file);
 * complete frames whose CRC checks are handed to on_frame, everything else that is not a
 * frame is handed to on_text. Memory is bounded whatever the input says: a buffer of twice
 * BMPROF_FRAME_HDR + BMPROF_WIRE_MAX_PAYLOAD + BMPROF_FRAME_CRC bytes and 8 KiB of CRC
 * checkpoints. Time is linear in the input whatever it holds: checking a candidate frame
 * costs the same whatever length its header claims (see reader.c).
 *
 * Resynchronization: a candidate frame starts at the magic. If its CRC fails, the reader
 * counts it, drops the first magic byte and scans again from the next byte, so a frame
 * that starts inside a corrupted one is still found. Bytes dropped this way are counted
 * as skipped, not shown as text: every byte within the extent the failed header claimed
 * that does not belong to a later good frame is skipped. A good frame ends skipping.
 *
 * Text is passed on as soon as it is pushed; only a possible magic prefix (1 to 3 bytes
 * of B5 'B' 'M') at the end of the pushed bytes is held back until the next push shows
 * whether it starts a frame. After a complete magic the bytes are held until the frame
 * its header describes is complete (at most 65547 bytes), so a magic inside console text
 * delays the text after it, and that text is then skipped as the bytes of a bad frame.
 * The reader is chunking-independent: any split of the same bytes into pushes gives the
 * same callbacks with the same bytes (text may arrive in different pieces).
 */
#ifndef BMPROF_READER_H
#define BMPROF_READER_H

#include <stddef.h>
#include <stdint.h>
#include "wire.h"

struct reader_stats {
	uint64_t frames_ok;
	uint64_t frames_bad_crc;
	uint64_t frames_unknown;   /* counted by the consumer via reader_count_unknown() */
	uint64_t bytes_skipped;    /* bytes dropped while resynchronizing */
	uint64_t text_bytes;       /* console text passed to on_text */
	int truncated;             /* reader_finish() found a partial frame */
};

struct reader {
	void (*on_frame)(void *ctx, uint8_t type, const uint8_t *payload, uint16_t len);
	void (*on_text)(void *ctx, const char *text, size_t len);  /* may be NULL */
	void *ctx;
	struct reader_stats st;
	/* private */
	uint8_t *buf;
	size_t start, have;       /* the undecided bytes: have of them at buf + start */
	size_t skip;              /* bytes from buf[start] on that belong to a failed frame */
	const uint8_t *raw;       /* the frame being delivered to on_frame */
	size_t raw_len;
	uint32_t *ck;             /* ring: CRC of the stream up to each 64-byte boundary */
	uint64_t pos;             /* stream offset of buf[start] */
	uint64_t in;              /* bytes pushed so far (pos + have) */
	uint32_t run;             /* CRC of the stream's first in bytes */
	uint32_t org;             /* CRC of the stream's first pos bytes */
};

/* Returns 0, or -1 if out of memory. */
int reader_init(struct reader *r, void (*on_frame)(void *, uint8_t, const uint8_t *, uint16_t),
		void (*on_text)(void *, const char *, size_t), void *ctx);
void reader_push(struct reader *r, const void *data, size_t len);
/* End of input: a partial frame left in the buffer is counted as truncated, and its
 * bytes as skipped. */
void reader_finish(struct reader *r);
void reader_count_unknown(struct reader *r);
/* Inside on_frame only: the whole frame as received (magic to CRC), for storing it
 * verbatim. Returns NULL outside on_frame. */
const uint8_t *reader_raw_frame(const struct reader *r, size_t *len);
void reader_free(struct reader *r);

#endif
