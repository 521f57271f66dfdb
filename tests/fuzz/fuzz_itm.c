/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness for the SWO/ITM decoder (host/swo/itm.c) as bmprof record --itm-port
 * uses it: the decoded port's bytes go on into the stream reader. Checked for any input:
 *   - every input byte is counted; delivered == the bytes handed out; the per-port counts
 *     add up to delivered + other ports' bytes; nothing is handed out that was not input;
 *   - chunking does not matter: the capture pushed whole and in the chunk sizes the input
 *     chooses gives the same bytes and the same counts;
 *   - the input's own bytes, wrapped here into instrumentation packets of the chosen port
 *     (sizes the input picks) between other packets, decode back to exactly those bytes
 *     with no error;
 *   - the decoded bytes go through the frame reader without harm.
 *
 * Input: byte 0 the port, byte 1 the chunk size (0: whole), then the capture. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_io.h"
#include "swo/itm.h"
#include "host/reader.h"

struct buf {
	uint8_t *p;
	size_t n, cap;
};

static void put(struct buf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
		CHECK(b->p);
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void collect(void *ctx, const uint8_t *d, size_t n)
{
	CHECK(n > 0);
	put(ctx, d, n);
}

static struct itm_stats decode(const uint8_t *p, size_t n, unsigned port, size_t chunk,
			       struct buf *out)
{
	static struct itm_decoder d;

	itm_init(&d, port, collect, out);
	for (size_t i = 0; i < n;) {
		size_t k = chunk && n - i > chunk ? chunk : n - i;
		itm_push(&d, p + i, k);
		i += k;
	}
	itm_finish(&d);
	return d.st;
}

static void on_frame(void *ctx, uint8_t type, const uint8_t *payload, uint16_t len)
{
	(void)ctx;
	(void)type;
	CHECK(len == 0 || payload);
}

static void put1(struct buf *b, uint8_t c)
{
	put(b, &c, 1);
}

/* The bytes as port's packets (sizes from the bytes themselves), other packets between. */
static void wrap(struct buf *w, const uint8_t *p, size_t n, unsigned port)
{
	static const uint8_t sync[6] = { 0, 0, 0, 0, 0, 0x80 };

	if (port >= 32)
		put1(w, (uint8_t)(0x08 | (port / 32) << 4));
	for (size_t i = 0; i < n;) {
		unsigned k = (p[i] & 3) == 3 ? 4 : (p[i] & 3) == 2 ? 2 : 1;
		if (k > n - i)
			k = 1;
		switch (p[i] >> 5) {
		case 0: put(w, sync, sizeof sync);
			if (port >= 32)
				put1(w, (uint8_t)(0x08 | (port / 32) << 4));
			break;
		case 1: put1(w, 0x70); break;
		case 2: put1(w, 0xD0); put1(w, 0x81); put1(w, 0x02); break;
		case 3: put1(w, 0x0F); put1(w, 1); put1(w, 2); put1(w, 3); put1(w, 4); break;
		default: break;
		}
		put1(w, (uint8_t)((port & 31) << 3 | (k == 4 ? 3 : k)));
		put(w, p + i, k);
		i += k;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf a = { 0 }, b = { 0 }, w = { 0 }, back = { 0 };
	struct itm_stats sa, sb, sw;
	struct reader r;
	unsigned port;
	size_t chunk;

	if (size < 2)
		return 0;
	port = data[0];
	chunk = data[1];
	data += 2;
	size -= 2;

	sa = decode(data, size, port, 0, &a);
	sb = decode(data, size, port, chunk, &b);
	CHECK(sa.bytes == size);
	CHECK(sa.delivered == a.n && a.n <= size);
	uint64_t sum = 0;
	for (unsigned i = 0; i < ITM_PORTS; i++)
		sum += sa.port_bytes[i];
	CHECK(sum == sa.delivered + sa.other_bytes);
	CHECK(memcmp(&sa, &sb, sizeof sa) == 0);
	CHECK(a.n == b.n && (!a.n || memcmp(a.p, b.p, a.n) == 0));

	wrap(&w, data, size, port);
	sw = decode(w.p, w.n, port, chunk, &back);
	CHECK(sw.errors == 0 && !sw.truncated);
	CHECK(back.n == size && (!size || memcmp(back.p, data, size) == 0));

	CHECK(reader_init(&r, on_frame, NULL, NULL) == 0);
	if (a.n)
		reader_push(&r, a.p, a.n);
	reader_finish(&r);
	reader_free(&r);
	free(a.p);
	free(b.p);
	free(w.p);
	free(back.p);
	return 0;
}
