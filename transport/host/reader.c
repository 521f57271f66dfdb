/* Incremental frame reader: see reader.h. */
#include "reader.h"

#include <stdlib.h>
#include <string.h>

#define FRAME_MAX (BMPROF_FRAME_HDR + BMPROF_WIRE_MAX_PAYLOAD + BMPROF_FRAME_CRC)

static const uint8_t magic[4] = { BMPROF_MAGIC0, BMPROF_MAGIC1, BMPROF_MAGIC2, BMPROF_MAGIC3 };

int reader_init(struct reader *r, void (*on_frame)(void *, uint8_t, const uint8_t *, uint16_t),
		void (*on_text)(void *, const char *, size_t), void *ctx)
{
	memset(r, 0, sizeof(*r));
	r->on_frame = on_frame;
	r->on_text = on_text;
	r->ctx = ctx;
	r->buf = malloc(FRAME_MAX);
	return r->buf ? 0 : -1;
}

void reader_free(struct reader *r)
{
	free(r->buf);
	r->buf = NULL;
	r->have = 0;
}

void reader_count_unknown(struct reader *r)
{
	r->st.frames_unknown++;
}

const uint8_t *reader_raw_frame(const struct reader *r, size_t *len)
{
	*len = r->raw ? r->raw_len : 0;
	return r->raw;
}

/* Bytes that are not part of a frame: skipped while inside a failed frame, text after. */
static void pass(struct reader *r, const uint8_t *p, size_t n)
{
	size_t s = n < r->skip ? n : r->skip;

	r->skip -= s;
	r->st.bytes_skipped += s;
	p += s;
	n -= s;
	if (!n)
		return;
	r->st.text_bytes += n;
	if (r->on_text)
		r->on_text(r->ctx, (const char *)p, n);
}

/* Offset of the first magic in p[0..n), or of a magic prefix that runs to the end of p;
 * n if there is neither. */
static size_t find_magic(const uint8_t *p, size_t n)
{
	size_t i = 0;

	for (;;) {
		const uint8_t *q = memchr(p + i, BMPROF_MAGIC0, n - i);
		size_t k;

		if (!q)
			return n;
		i = (size_t)(q - p);
		for (k = 1; k < 4 && i + k < n && p[i + k] == magic[k]; k++)
			;
		if (k == 4 || i + k == n)
			return i;
		i++;
	}
}

/* A candidate at p (starting with a full magic) whose frame is complete: deliver it or
 * count it as bad. Returns bytes consumed. */
static size_t take_frame(struct reader *r, const uint8_t *p, size_t total)
{
	uint16_t len = bmprof_get16(p + 6);
	uint32_t crc = bmprof_crc32(0, p + 4, total - 4 - BMPROF_FRAME_CRC);

	if (crc == bmprof_get32(p + total - BMPROF_FRAME_CRC)) {
		r->st.frames_ok++;
		r->skip = 0;
		r->raw = p;
		r->raw_len = total;
		r->on_frame(r->ctx, p[4], p + BMPROF_FRAME_HDR, len);
		r->raw = NULL;
		return total;
	}
	/* Drop the magic byte; the rest of the claimed extent is skipped unless a good frame
	 * starts inside it. */
	r->st.frames_bad_crc++;
	if (r->skip < total)
		r->skip = total;
	r->skip--;
	r->st.bytes_skipped++;
	return 1;
}

/* Consume what can be decided in buf[0..have); at end of input (final) a partial frame
 * is counted as truncated and scanned past. Leaves the undecided tail at buf[0]. */
static void process(struct reader *r, int final)
{
	uint8_t *b = r->buf;
	size_t i = 0, n = r->have;

	while (i < n) {
		size_t m = i + find_magic(b + i, n - i), total;

		if (m > i) {
			pass(r, b + i, m - i);
			i = m;
			continue;
		}
		if (n - i < BMPROF_FRAME_HDR) {
			/* a magic prefix, or a magic with a partial header */
			if (!final)
				break;
			if (n - i < 4) {
				pass(r, b + i, n - i);
				i = n;
				break;
			}
			total = n - i + 1;   /* force the truncated path below */
		} else {
			total = BMPROF_FRAME_HDR + bmprof_get16(b + i + 6) + BMPROF_FRAME_CRC;
		}
		if (n - i < total) {
			if (!final)
				break;
			r->st.truncated = 1;
			if (r->skip < n - i)
				r->skip = n - i;
			r->skip--;
			r->st.bytes_skipped++;
			i++;
			continue;
		}
		i += take_frame(r, b + i, total);
	}
	if (i) {
		memmove(b, b + i, n - i);
		r->have = n - i;
	}
}

void reader_push(struct reader *r, const void *data, size_t len)
{
	const uint8_t *p = data;

	while (len) {
		size_t n = FRAME_MAX - r->have;

		if (n > len)
			n = len;
		memcpy(r->buf + r->have, p, n);
		r->have += n;
		p += n;
		len -= n;
		process(r, 0);
	}
}

void reader_finish(struct reader *r)
{
	process(r, 1);
	r->skip = 0;
}
