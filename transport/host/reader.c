/* SPDX-License-Identifier: BSD-2-Clause */
/* Incremental frame reader: see reader.h. */
#include "reader.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define FRAME_MAX (BMPROF_FRAME_HDR + BMPROF_WIRE_MAX_PAYLOAD + BMPROF_FRAME_CRC)
/* Room for a whole frame behind the undecided bytes, so the buffer is compacted only after
 * a frame's worth of input and each byte is moved a bounded number of times. */
#define BUF_SIZE (2 * FRAME_MAX)
/* Checkpoints every CK_BLOCK stream bytes; the ring holds every one inside the buffer. */
#define CK_BLOCK 64u
#define CK_N (BUF_SIZE / CK_BLOCK + 2)

static const uint8_t magic[4] = { BMPROF_MAGIC0, BMPROF_MAGIC1, BMPROF_MAGIC2, BMPROF_MAGIC3 };

/* CRCs of stream prefixes. Checking a candidate frame directly costs a CRC over up to
 * 64 KiB, and garbage full of fake headers has a candidate every few bytes. Instead the
 * reader keeps the CRC of the stream up to every CK_BLOCK boundary in the buffer and gets
 * a frame's CRC from two prefixes: crc(A B) = crc(A) * x^(8 |B|) + crc(B) over GF(2)
 * modulo the CRC polynomial (the identity zlib's crc32_combine rests on). */

#define CRC_POLY 0xedb88320u   /* reflected: bit 31 holds x^0 */

/* a * b mod CRC_POLY */
static uint32_t gf2_mul(uint32_t a, uint32_t b)
{
	uint32_t p = 0;

	for (; a; a <<= 1) {
		p ^= b & -(a >> 31);
		b = (b >> 1) ^ (CRC_POLY & -(b & 1));
	}
	return p;
}

/* x^(8n) for n = lo + 256 hi, up to a whole frame */
static uint32_t x8n_lo[256], x8n_hi[FRAME_MAX / 256 + 1];
static pthread_once_t x8n_once = PTHREAD_ONCE_INIT;

static void x8n_init(void)
{
	const uint32_t x8 = 0x00800000u;
	uint32_t x2048;

	x8n_lo[0] = x8n_hi[0] = 0x80000000u;
	for (size_t i = 1; i < 256; i++)
		x8n_lo[i] = gf2_mul(x8n_lo[i - 1], x8);
	x2048 = gf2_mul(x8n_lo[255], x8);
	for (size_t i = 1; i < sizeof(x8n_hi) / sizeof(x8n_hi[0]); i++)
		x8n_hi[i] = gf2_mul(x8n_hi[i - 1], x2048);
}

/* Account for bytes appended to the buffer. */
static void track(struct reader *r, const uint8_t *p, size_t n)
{
	while (n) {
		size_t k = CK_BLOCK - (size_t)(r->in % CK_BLOCK);

		if (k > n)
			k = n;
		r->run = (uint32_t)crc32(r->run, p, (uInt)k);
		r->in += k;
		p += k;
		n -= k;
		if (r->in % CK_BLOCK == 0)
			r->ck[r->in / CK_BLOCK % CK_N] = r->run;
	}
}

/* CRC of the stream's first k bytes, for k from pos (buf[start]) to pos + have. */
static uint32_t crc_to(const struct reader *r, uint64_t k)
{
	const uint8_t *p = r->buf + r->start;
	uint64_t b = k - k % CK_BLOCK;

	if (b <= r->pos)
		return (uint32_t)crc32(r->org, p, (uInt)(k - r->pos));
	return (uint32_t)crc32(r->ck[b / CK_BLOCK % CK_N], p + (b - r->pos), (uInt)(k - b));
}

/* CRC of bytes a..b of the undecided ones, b - a < FRAME_MAX; a short run directly. */
static uint32_t crc_of(const struct reader *r, size_t a, size_t b)
{
	size_t n = b - a;
	uint32_t shift;

	if (n <= 4 * CK_BLOCK)
		return (uint32_t)crc32(0, r->buf + r->start + a, (uInt)n);
	shift = gf2_mul(x8n_lo[n % 256], x8n_hi[n / 256]);
	return crc_to(r, r->pos + b) ^ gf2_mul(crc_to(r, r->pos + a), shift);
}

int reader_init(struct reader *r, void (*on_frame)(void *, uint8_t, const uint8_t *, uint16_t),
		void (*on_text)(void *, const char *, size_t), void *ctx)
{
	pthread_once(&x8n_once, x8n_init);
	memset(r, 0, sizeof(*r));
	r->on_frame = on_frame;
	r->on_text = on_text;
	r->ctx = ctx;
	r->buf = malloc(BUF_SIZE);
	r->ck = malloc(CK_N * sizeof(*r->ck));
	if (!r->buf || !r->ck) {
		reader_free(r);
		return -1;
	}
	return 0;
}

void reader_free(struct reader *r)
{
	free(r->buf);
	free(r->ck);
	r->buf = NULL;
	r->ck = NULL;
	r->start = r->have = 0;
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

/* A candidate i bytes into the undecided ones (starting with a full magic) whose frame is
 * complete: deliver it or count it as bad. Returns bytes consumed. */
static size_t take_frame(struct reader *r, size_t i, size_t total)
{
	const uint8_t *p = r->buf + r->start + i;
	uint16_t len = bmprof_get16(p + 6);
	uint32_t crc = crc_of(r, i + 4, i + total - BMPROF_FRAME_CRC);

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

/* Consume what can be decided of the have bytes at buf[start]; at end of input (final) a
 * partial frame is counted as truncated and scanned past. Leaves the undecided tail (less
 * than a frame) at buf[start]. */
static void process(struct reader *r, int final)
{
	const uint8_t *b = r->buf + r->start;
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
		i += take_frame(r, i, total);
	}
	if (i) {
		r->org = crc_to(r, r->pos + i);
		r->pos += i;
		r->start += i;
		r->have = n - i;
	}
}

void reader_push(struct reader *r, const void *data, size_t len)
{
	const uint8_t *p = data;

	while (len) {
		size_t n = BUF_SIZE - r->start - r->have;

		if (n < len && r->start) {
			memmove(r->buf, r->buf + r->start, r->have);
			r->start = 0;
			n = BUF_SIZE - r->have;
		}
		if (n > len)
			n = len;
		memcpy(r->buf + r->start + r->have, p, n);
		track(r, r->buf + r->start + r->have, n);
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
