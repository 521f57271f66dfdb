/* SPDX-License-Identifier: BSD-2-Clause */
/* The incremental frame reader: text and frames separated exactly, any chunking gives the
 * same result, resynchronization after garbage, dropped and inserted bytes, truncation at
 * the end, the length bound, magic bytes inside console text. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "host/reader.h"

/* ---- a growable byte buffer and a recorder of reader callbacks ---- */

struct bytes {
	uint8_t *p;
	size_t n, cap;
};

static void put(struct bytes *b, const void *p, size_t n)
{
	if (!n)
		return;
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
		assert_non_null(b->p);
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void puts_(struct bytes *b, const char *s)
{
	put(b, s, strlen(s));
}

/* A frame built here, independently of the target emitter. */
static void frame(struct bytes *b, uint8_t type, const void *payload, uint16_t len)
{
	uint8_t hdr[8] = { 0xB5, 'B', 'M', 'P', type, 0 }, crc[4];

	bmprof_put16(hdr + 6, len);
	bmprof_put32(crc, bmprof_crc32(bmprof_crc32(0, hdr + 4, 4), payload, len));
	put(b, hdr, 8);
	put(b, payload, len);
	put(b, crc, 4);
}

struct rec {
	struct reader r;
	struct bytes text;
	struct bytes frames;     /* each frame as type, len (u16 LE), payload */
	unsigned nframes;
	size_t text_calls;
	int raw_ok;              /* reader_raw_frame() matched every delivered frame */
};

static void on_frame(void *ctx, uint8_t type, const uint8_t *payload, uint16_t len)
{
	struct rec *c = ctx;
	uint8_t h[3] = { type };
	const uint8_t *raw;
	size_t rawlen;

	bmprof_put16(h + 1, len);
	put(&c->frames, h, 3);
	put(&c->frames, payload, len);
	c->nframes++;
	raw = reader_raw_frame(&c->r, &rawlen);
	if (!raw || rawlen != len + 12u || raw[4] != type || raw + 8 != payload)
		c->raw_ok = 0;
}

static void on_text(void *ctx, const char *text, size_t len)
{
	struct rec *c = ctx;

	assert_true(len > 0);
	put(&c->text, text, len);
	c->text_calls++;
}

static void rec_init(struct rec *c)
{
	memset(c, 0, sizeof(*c));
	c->raw_ok = 1;
	assert_int_equal(reader_init(&c->r, on_frame, on_text, c), 0);
}

static void rec_free(struct rec *c)
{
	reader_free(&c->r);
	free(c->text.p);
	free(c->frames.p);
}

/* Push s in chunks of the given sizes (cycled), then finish. */
static void feed(struct rec *c, const struct bytes *s, const size_t *chunks, size_t nchunks)
{
	size_t off = 0, i = 0;

	while (off < s->n) {
		size_t k = chunks[i++ % nchunks];

		if (k > s->n - off)
			k = s->n - off;
		reader_push(&c->r, s->p + off, k);
		off += k;
	}
	reader_finish(&c->r);
}

static void feed_all(struct rec *c, const struct bytes *s)
{
	size_t all = s->n ? s->n : 1;

	feed(c, s, &all, 1);
}

static void assert_same(const struct rec *a, const struct rec *b)
{
	assert_int_equal(a->text.n, b->text.n);
	assert_memory_equal(a->text.p, b->text.p, a->text.n);
	assert_int_equal(a->nframes, b->nframes);
	assert_int_equal(a->frames.n, b->frames.n);
	assert_memory_equal(a->frames.p, b->frames.p, a->frames.n);
	assert_memory_equal(&a->r.st, &b->r.st, sizeof(a->r.st));
}

static uint8_t payload_a[] = { 1, 2, 3, 0xB5, 'B', 'M', 'P', 9 };   /* a magic inside */
static uint8_t payload_b[300];

static void setup_payloads(void)
{
	for (size_t i = 0; i < sizeof(payload_b); i++)
		payload_b[i] = (uint8_t)(i * 7 + 1);
}

/* ---- tests ---- */

static void test_text_and_frames_separated(void **state)
{
	struct bytes s = { 0 }, want_frames = { 0 };
	struct rec c;
	const char *want_text = "boot ok\nmid\xC2\xB5s: 12\xB5 \xB5" "B \xB5" "BM!\ntail";

	setup_payloads();
	puts_(&s, "boot ok\n");
	frame(&s, 1, payload_a, sizeof(payload_a));
	puts_(&s, "mid\xC2\xB5s: 12\xB5 \xB5" "B \xB5" "BM!\n");   /* B5 bytes that are not a magic */
	frame(&s, 3, payload_b, sizeof(payload_b));
	frame(&s, 0x77, NULL, 0);
	puts_(&s, "tail");

	rec_init(&c);
	feed_all(&c, &s);
	assert_int_equal(c.text.n, strlen(want_text));
	assert_memory_equal(c.text.p, want_text, c.text.n);
	assert_int_equal(c.nframes, 3);
	{
		uint8_t h[3] = { 1 };

		bmprof_put16(h + 1, sizeof(payload_a));
		put(&want_frames, h, 3);
		put(&want_frames, payload_a, sizeof(payload_a));
		h[0] = 3;
		bmprof_put16(h + 1, sizeof(payload_b));
		put(&want_frames, h, 3);
		put(&want_frames, payload_b, sizeof(payload_b));
		h[0] = 0x77;
		bmprof_put16(h + 1, 0);
		put(&want_frames, h, 3);
	}
	assert_int_equal(c.frames.n, want_frames.n);
	assert_memory_equal(c.frames.p, want_frames.p, want_frames.n);
	assert_int_equal(c.r.st.frames_ok, 3);
	assert_int_equal(c.r.st.frames_bad_crc, 0);
	assert_int_equal(c.r.st.bytes_skipped, 0);
	assert_int_equal(c.r.st.text_bytes, strlen(want_text));
	assert_int_equal(c.r.st.truncated, 0);
	assert_true(c.raw_ok);
	rec_free(&c);
	free(s.p);
	free(want_frames.p);
}

/* A stream with every kind of trouble in it. */
static void messy_stream(struct bytes *s)
{
	struct bytes bad = { 0 };
	uint8_t junk[64];

	setup_payloads();
	puts_(s, "hello \xB5\xB5" "B\n");
	frame(s, 1, payload_a, sizeof(payload_a));
	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (uint8_t)(i * 37 + 0xB0);
	put(s, junk, sizeof(junk));
	frame(&bad, 3, payload_b, sizeof(payload_b));
	bad.p[100] ^= 0x10;
	put(s, bad.p, bad.n);
	frame(s, 2, payload_b, 17);
	puts_(s, "x\xB5" "BMP\x01\x00\x02\x00zz1234after fake");   /* a fake magic in text */
	frame(s, 4, payload_b, 200);
	s->n -= 50;                                           /* dropped bytes */
	frame(s, 5, payload_a, 3);
	frame(s, 6, payload_b, 250);                          /* cut short at the end */
	s->n -= 9;
	free(bad.p);
}

static void test_chunking_independent(void **state)
{
	static const size_t one = 1, two = 2, three[] = { 3, 1, 7 }, odd[] = { 13, 1, 64, 2, 5 };
	static const size_t big[] = { 4096 };
	const size_t *plans[] = { &one, &two, three, odd, big };
	const size_t nplan[] = { 1, 1, 3, 5, 1 };
	struct bytes s = { 0 };
	struct rec whole;

	messy_stream(&s);
	rec_init(&whole);
	feed_all(&whole, &s);
	/* sanity: the messy stream exercises every path */
	assert_true(whole.nframes >= 3);
	assert_true(whole.r.st.frames_bad_crc >= 2);
	assert_int_equal(whole.r.st.truncated, 1);
	assert_true(whole.r.st.text_bytes > 0);
	for (size_t p = 0; p < sizeof(plans) / sizeof(plans[0]); p++) {
		struct rec c;

		rec_init(&c);
		feed(&c, &s, plans[p], nplan[p]);
		assert_same(&whole, &c);
		assert_true(c.raw_ok);
		rec_free(&c);
	}
	/* pseudo-random chunk sizes */
	for (unsigned seed = 1; seed <= 20; seed++) {
		size_t sizes[32];
		struct rec c;
		uint32_t x = seed * 2654435761u;

		for (size_t i = 0; i < 32; i++) {
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			sizes[i] = 1 + x % 97;
		}
		rec_init(&c);
		feed(&c, &s, sizes, 32);
		assert_same(&whole, &c);
		rec_free(&c);
	}
	rec_free(&whole);
	free(s.p);
}

/* Text is passed on at once; only a possible magic prefix at the end waits. */
static void test_text_is_prompt(void **state)
{
	struct rec c;

	rec_init(&c);
	reader_push(&c.r, "abc", 3);
	assert_int_equal(c.text.n, 3);
	reader_push(&c.r, "d\xB5", 2);
	assert_int_equal(c.text.n, 4);                 /* B5 held */
	reader_push(&c.r, "x", 1);
	assert_int_equal(c.text.n, 6);
	assert_memory_equal(c.text.p, "abcd\xB5x", 6);
	reader_push(&c.r, "\xB5" "B", 2);
	reader_push(&c.r, "M", 1);
	assert_int_equal(c.text.n, 6);
	reader_push(&c.r, "N", 1);                       /* not a magic after all */
	assert_int_equal(c.text.n, 10);
	assert_memory_equal(c.text.p + 6, "\xB5" "BMN", 4);
	reader_push(&c.r, "end\xB5", 4);
	reader_finish(&c.r);                            /* a lone prefix at the end is text */
	assert_int_equal(c.text.n, 14);
	assert_memory_equal(c.text.p + 10, "end\xB5", 4);
	assert_int_equal(c.r.st.truncated, 0);
	assert_int_equal(c.r.st.bytes_skipped, 0);
	rec_free(&c);
}

static void test_resync_after_garbage(void **state)
{
	struct bytes s = { 0 };
	uint8_t junk[1000];
	struct rec c;

	setup_payloads();
	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (uint8_t)((i * 131) ^ (i >> 3));
	for (size_t i = 0; i + 1 < sizeof(junk); i += 50) {    /* many B5s, some with 'B' */
		junk[i] = 0xB5;
		junk[i + 1] = 'B';
	}
	put(&s, junk, sizeof(junk));
	frame(&s, 2, payload_b, 40);
	rec_init(&c);
	feed_all(&c, &s);
	assert_int_equal(c.nframes, 1);
	assert_int_equal(c.frames.p[0], 2);
	assert_memory_equal(c.frames.p + 3, payload_b, 40);
	assert_int_equal(c.text.n, sizeof(junk));       /* no magic in it: all of it is text */
	assert_memory_equal(c.text.p, junk, sizeof(junk));
	rec_free(&c);
	free(s.p);
}

/* The bytes of a frame that fails its CRC are skipped, not shown as text; text after it
 * shows again. */
static void test_bad_frame_skipped(void **state)
{
	struct bytes s = { 0 }, bad = { 0 };
	struct rec c;

	setup_payloads();
	frame(&bad, 3, payload_b, 64);
	bad.p[20] ^= 1;
	puts_(&s, "x");
	put(&s, bad.p, bad.n);
	puts_(&s, "y");
	frame(&s, 1, payload_a, 4);
	rec_init(&c);
	feed_all(&c, &s);
	assert_int_equal(c.text.n, 2);
	assert_memory_equal(c.text.p, "xy", 2);
	assert_int_equal(c.nframes, 1);
	assert_int_equal(c.r.st.frames_bad_crc, 1);
	assert_int_equal(c.r.st.bytes_skipped, bad.n);
	rec_free(&c);
	free(s.p);
	free(bad.p);
}

static void test_dropped_bytes(void **state)
{
	setup_payloads();
	for (size_t drop = 1; drop < 40; drop += 3) {
		struct bytes s = { 0 }, a = { 0 };
		struct rec c;

		frame(&a, 3, payload_b, 120);
		memmove(a.p + 30, a.p + 30 + drop, a.n - 30 - drop);   /* lose drop bytes */
		a.n -= drop;
		put(&s, a.p, a.n);
		frame(&s, 4, payload_a, 5);
		frame(&s, 5, payload_a, 6);
		rec_init(&c);
		feed_all(&c, &s);
		assert_int_equal(c.nframes, 2);
		assert_int_equal(c.frames.p[0], 4);
		assert_int_equal(c.frames.p[3 + 5], 5);
		/* when the stream ends before the extent A claims (132 bytes), A is counted as
		 * truncated at the end instead of failing its CRC; the frames inside are found
		 * either way */
		if (s.n >= 132) {
			assert_int_equal(c.r.st.frames_bad_crc, 1);
			assert_int_equal(c.r.st.truncated, 0);
		} else {
			assert_int_equal(c.r.st.frames_bad_crc, 0);
			assert_int_equal(c.r.st.truncated, 1);
		}
		assert_int_equal(c.text.n, 0);
		rec_free(&c);
		free(s.p);
		free(a.p);
	}
}

static void test_inserted_bytes(void **state)
{
	setup_payloads();
	for (size_t ins = 1; ins < 40; ins += 3) {
		struct bytes s = { 0 }, a = { 0 }, b = { 0 };
		struct rec c;
		uint8_t extra[40];

		memset(extra, 0x5A, sizeof(extra));
		frame(&a, 3, payload_b, 120);
		put(&b, a.p, 30);
		put(&b, extra, ins);
		put(&b, a.p + 30, a.n - 30);
		put(&s, b.p, b.n);
		frame(&s, 4, payload_a, 5);
		frame(&s, 5, payload_a, 6);
		rec_init(&c);
		feed_all(&c, &s);
		assert_int_equal(c.nframes, 2);
		assert_int_equal(c.frames.p[0], 4);
		assert_int_equal(c.frames.p[3 + 5], 5);
		assert_int_equal(c.r.st.frames_bad_crc, 1);
		/* the claimed extent is skipped; what sticks out past it (ins bytes) is text */
		assert_int_equal(c.r.st.bytes_skipped, a.n);
		assert_int_equal(c.text.n, ins);
		rec_free(&c);
		free(s.p);
		free(a.p);
		free(b.p);
	}
}

static void test_truncated_final_frame(void **state)
{
	struct bytes s = { 0 }, last = { 0 };
	struct rec c;

	setup_payloads();
	puts_(&s, "t");
	frame(&s, 1, payload_a, 8);
	frame(&last, 3, payload_b, 100);
	put(&s, last.p, 57);
	rec_init(&c);
	feed_all(&c, &s);
	assert_int_equal(c.nframes, 1);
	assert_int_equal(c.text.n, 1);
	assert_int_equal(c.r.st.truncated, 1);
	assert_int_equal(c.r.st.bytes_skipped, 57);
	rec_free(&c);

	/* cut inside the header: still a truncated frame, not text */
	rec_init(&c);
	reader_push(&c.r, last.p, 6);
	reader_finish(&c.r);
	assert_int_equal(c.text.n, 0);
	assert_int_equal(c.r.st.truncated, 1);
	assert_int_equal(c.r.st.bytes_skipped, 6);
	rec_free(&c);
	free(s.p);
	free(last.p);
}

/* A good frame inside the extent a broken header claims, with the stream ending before
 * that extent does, is still found at the end. */
static void test_frame_inside_truncated_candidate(void **state)
{
	struct bytes s = { 0 };
	uint8_t hdr[8] = { 0xB5, 'B', 'M', 'P', 3, 0, 0xFF, 0xFF };
	struct rec c;

	setup_payloads();
	put(&s, hdr, 8);
	frame(&s, 5, payload_a, 8);
	rec_init(&c);
	reader_push(&c.r, s.p, s.n);
	assert_int_equal(c.nframes, 0);                /* waiting for 65547 bytes */
	reader_finish(&c.r);
	assert_int_equal(c.nframes, 1);
	assert_int_equal(c.frames.p[0], 5);
	assert_int_equal(c.r.st.truncated, 1);
	assert_int_equal(c.r.st.bytes_skipped, 8);
	assert_int_equal(c.text.n, 0);
	rec_free(&c);
	free(s.p);
}

/* The length field is 16 bits: the largest frame round-trips in any chunking, and a
 * header claiming it holds at most that many bytes back. */
static void test_length_bound(void **state)
{
	static const size_t chunks[] = { 1000, 1, 77 };
	uint8_t *big = malloc(BMPROF_WIRE_MAX_PAYLOAD);
	struct bytes s = { 0 };
	struct rec c;

	assert_non_null(big);
	for (size_t i = 0; i < BMPROF_WIRE_MAX_PAYLOAD; i++)
		big[i] = (uint8_t)(i ^ (i >> 8));
	big[1000] = 0xB5;
	frame(&s, 3, big, BMPROF_WIRE_MAX_PAYLOAD);
	puts_(&s, "after");
	for (int plan = 0; plan < 2; plan++) {
		rec_init(&c);
		if (plan)
			feed(&c, &s, chunks, 3);
		else
			feed_all(&c, &s);
		assert_int_equal(c.nframes, 1);
		assert_int_equal(c.frames.n, 3 + BMPROF_WIRE_MAX_PAYLOAD);
		assert_memory_equal(c.frames.p + 3, big, BMPROF_WIRE_MAX_PAYLOAD);
		assert_int_equal(c.text.n, 5);
		rec_free(&c);
	}
	/* a bad header claiming the maximum: text after its extent flows again */
	s.n = 0;
	frame(&s, 3, big, BMPROF_WIRE_MAX_PAYLOAD);
	s.p[s.n - 1] ^= 0xFF;
	puts_(&s, "live");
	rec_init(&c);
	reader_push(&c.r, s.p, s.n - 5);
	assert_int_equal(c.text.n, 0);                 /* waiting for the last CRC byte */
	assert_int_equal(c.r.st.frames_bad_crc, 0);
	reader_push(&c.r, s.p + s.n - 5, 5);           /* no reader_finish() needed */
	assert_int_equal(c.text.n, 4);
	assert_memory_equal(c.text.p, "live", 4);
	assert_int_equal(c.r.st.frames_bad_crc, 1);
	assert_int_equal(c.r.st.bytes_skipped, s.n - 4);
	rec_free(&c);
	free(s.p);
	free(big);
}

/* B5 'B' 'M' 'P' inside console text (UTF-8 "µBMP" has it): the claimed extent is lost as
 * a bad frame, the text around it and the frames after it are not. */
static void test_fake_magic_in_text(void **state)
{
	static const char fake[] = "\xB5" "BMP\x01\x00\x04\x00" "wxyz1234";   /* 16 bytes */
	struct bytes s = { 0 };
	struct rec c;

	setup_payloads();
	puts_(&s, "abc\xC2");
	put(&s, fake, 16);
	puts_(&s, "more text\n");
	frame(&s, 2, payload_a, 8);
	rec_init(&c);
	feed_all(&c, &s);
	assert_int_equal(c.text.n, 14);
	assert_memory_equal(c.text.p, "abc\xC2more text\n", 14);
	assert_int_equal(c.nframes, 1);
	assert_int_equal(c.r.st.frames_bad_crc, 1);
	assert_int_equal(c.r.st.bytes_skipped, 16);
	rec_free(&c);
	free(s.p);
}

/* Frames of every length near the reader's 64-byte CRC checkpoints, at every offset, in
 * one push larger than the reader's buffer and in small chunks: each one checks. */
static void test_long_stream_every_offset(void **state)
{
	static const uint16_t lens[] = { 0, 1, 51, 52, 53, 55, 56, 57, 63, 64, 65, 115, 116,
					 117, 300, 4000 };
	static const size_t chunks[] = { 1, 64, 63, 4096, 65, 200000 };
	uint8_t *payload = malloc(4000);
	struct bytes s = { 0 };
	unsigned nframes = 0;
	size_t ntext = 0;
	struct rec whole, c;

	assert_non_null(payload);
	for (size_t i = 0; i < 4000; i++)
		payload[i] = (uint8_t)(i * 131 + 7);
	for (unsigned pad = 0; pad < 130; pad++) {
		for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
			for (unsigned j = 0; j < pad % 67; j++)
				put(&s, "t", 1);
			ntext += pad % 67;
			frame(&s, (uint8_t)(k + 1), payload, lens[k]);
			nframes++;
		}
	}
	assert_true(s.n > 4 * (BMPROF_FRAME_HDR + BMPROF_WIRE_MAX_PAYLOAD));
	rec_init(&whole);
	feed_all(&whole, &s);
	assert_int_equal(whole.nframes, nframes);
	assert_int_equal(whole.r.st.frames_bad_crc, 0);
	assert_int_equal(whole.r.st.bytes_skipped, 0);
	assert_int_equal(whole.text.n, ntext);
	assert_true(whole.raw_ok);
	rec_init(&c);
	feed(&c, &s, chunks, sizeof(chunks) / sizeof(chunks[0]));
	assert_same(&whole, &c);
	rec_free(&c);
	rec_free(&whole);
	free(s.p);
	free(payload);
}

/* Garbage made of fake headers that each claim the largest frame: every complete candidate
 * is a bad frame, every byte is skipped, and the frames after it are found. Each candidate
 * costs the same whatever the length it claims, so this megabyte takes a fraction of a
 * second. */
static void test_fake_header_garbage(void **state)
{
	static const uint8_t fake[8] = { 0xB5, 'B', 'M', 'P', 1, 0, 0xFF, 0xFF };
	static const size_t chunks[] = { 4096, 1, 7 };
	const size_t n = (size_t)1 << 20, tail = 2 * (12 + 8) + 4;
	const size_t claim = BMPROF_FRAME_HDR + BMPROF_WIRE_MAX_PAYLOAD + BMPROF_FRAME_CRC;
	struct bytes s = { 0 };
	uint64_t bad = 0;
	struct rec c;

	setup_payloads();
	for (size_t i = 0; i < n; i += 8)
		put(&s, fake, 8);
	frame(&s, 2, payload_a, 8);
	puts_(&s, "text");
	frame(&s, 3, payload_a, 8);
	assert_int_equal(s.n, n + tail);
	/* the candidates whose claimed extent fits the stream fail their CRC; the others
	 * are cut short by the end of input */
	for (size_t i = 0; i < n; i += 8)
		bad += i + claim <= s.n;
	for (int plan = 0; plan < 2; plan++) {
		rec_init(&c);
		if (plan)
			feed(&c, &s, chunks, 3);
		else
			feed_all(&c, &s);
		assert_int_equal(c.nframes, 2);
		assert_int_equal(c.r.st.frames_bad_crc, bad);
		assert_int_equal(c.r.st.truncated, 1);
		assert_int_equal(c.r.st.bytes_skipped, n);
		assert_int_equal(c.text.n, 4);
		rec_free(&c);
	}
	free(s.p);
}

static void count_frame(void *ctx, uint8_t type, const uint8_t *payload, uint16_t len)
{
	(*(unsigned *)ctx)++;
}

static void test_no_text_callback(void **state)
{
	struct bytes s = { 0 };
	struct reader r;
	unsigned n = 0;
	size_t rawlen = 1;

	setup_payloads();
	puts_(&s, "text");
	frame(&s, 1, payload_a, 3);
	puts_(&s, "more");
	assert_int_equal(reader_init(&r, count_frame, NULL, &n), 0);
	reader_push(&r, s.p, s.n);
	reader_finish(&r);
	assert_int_equal(n, 1);
	assert_int_equal(r.st.text_bytes, 8);
	assert_null(reader_raw_frame(&r, &rawlen));
	assert_int_equal(rawlen, 0);
	reader_free(&r);
	free(s.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_and_frames_separated),
		cmocka_unit_test(test_chunking_independent),
		cmocka_unit_test(test_text_is_prompt),
		cmocka_unit_test(test_resync_after_garbage),
		cmocka_unit_test(test_bad_frame_skipped),
		cmocka_unit_test(test_dropped_bytes),
		cmocka_unit_test(test_inserted_bytes),
		cmocka_unit_test(test_truncated_final_frame),
		cmocka_unit_test(test_frame_inside_truncated_candidate),
		cmocka_unit_test(test_length_bound),
		cmocka_unit_test(test_fake_magic_in_text),
		cmocka_unit_test(test_no_text_callback),
		cmocka_unit_test(test_long_stream_every_offset),
		cmocka_unit_test(test_fake_header_garbage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
