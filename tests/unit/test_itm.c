/* SPDX-License-Identifier: BSD-2-Clause */
/* The ITM transport (transport/target/itm.c) against the PPB register model, with the
 * register writes and SWO bytes spelled out from the Armv7-M ARM (C1.7, Appendix D4); and
 * the host's SWO/ITM decoder (host/swo/itm.c): a stream sent through the modelled ITM, or
 * wrapped into ITM packets here among other ports' packets, timestamps, overflow and
 * synchronization packets, decodes to the same bytes and frames; malformed captures are
 * counted and resynchronized. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ppb_model.c"
#include "../../transport/target/itm.c"
#include "swo/itm.h"
#include "host/reader.h"
#include "wire.h"

#define DEMCR 0xE000EDFCu
#define TRCENA (1u << 24)
#define LAR 0xE0000FB0u
#define TCR 0xE0000E80u
#define TPR 0xE0000E40u
#define TER0 0xE0000E00u
#define STIM(n) (0xE0000000u + 4u * (n))

/* ---- target: the enable sequence ---- */

static void test_enable_sequence(void **s)
{
	struct bmprof_itm t = { .port = 5 };
	(void)s;
	pm_reset(&pm_m3);
	assert_int_equal(bmprof_itm_enable(&t, 0, 0), 0);
	const struct pm_write want[] = {
		{ DEMCR, TRCENA, 4 },
		{ LAR, 0xC5ACCE55u, 4 },
		{ TCR, 0x00010005u, 4 },      /* ITMENA | SYNCENA | TraceBusID 1 */
		{ TPR, 0, 4 },
		{ TER0, 1u << 5, 4 },
	};
	pm_expect(want, 5);
	assert_int_equal(pm.itm_tcr, 0x00010005u);
	assert_int_equal(pm.itm_ter[0], 1u << 5);
}

static void test_enable_timestamps_unprivileged_high_port(void **s)
{
	struct bmprof_itm t = { .port = 70 };
	(void)s;
	pm_reset(&pm_m3);
	assert_int_equal(bmprof_itm_enable(&t, 1, 1), 0);
	const struct pm_write want[] = {
		{ DEMCR, TRCENA, 4 },
		{ LAR, 0xC5ACCE55u, 4 },
		{ TCR, 0x00010007u, 4 },      /* | TSENA */
		{ TPR, 0xFFFFFFFFu, 4 },
		{ TER0 + 8, 1u << 6, 4 },     /* port 70: TER2 bit 6 */
	};
	pm_expect(want, 5);
}

/* A debugger set the ITM up: its TCR stays, only the port is added. */
static void test_enable_keeps_debugger_setup(void **s)
{
	struct bmprof_itm t = { .port = 1 };
	(void)s;
	pm_reset(&pm_m3);
	pm.demcr = TRCENA;
	pm.itm_locked = 0;
	pm.itm_tcr = 0x000B000Bu;
	pm.itm_ter[0] = 1;
	assert_int_equal(bmprof_itm_enable(&t, 0, 0), 0);
	const struct pm_write want[] = {
		{ DEMCR, TRCENA, 4 },
		{ LAR, 0xC5ACCE55u, 4 },
		{ TER0, 3, 4 },
	};
	pm_expect(want, 3);
	assert_int_equal(pm.itm_tcr, 0x000B000Bu);
}

static void test_enable_no_itm(void **s)
{
	struct bmprof_itm t = { .port = 0 };
	(void)s;
	pm_reset(&pm_qemu);
	assert_int_equal(bmprof_itm_enable(&t, 0, 0), -1);
	t.port = 256;
	pm_reset(&pm_m3);
	assert_int_equal(bmprof_itm_enable(&t, 0, 0), -1);
	assert_int_equal(pm.nlog, 0);
}

/* ---- target: writes ---- */

static void test_write_words_then_tail(void **s)
{
	struct bmprof_itm t = { .port = 3 };
	const uint8_t data[11] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
	(void)s;
	pm_reset(&pm_m3);
	assert_int_equal(bmprof_itm_enable(&t, 0, 0), 0);
	pm_log_clear();
	pm.busy = 2;                      /* the first word waits two polls */
	unsigned reads = pm.reads;
	assert_int_equal(bmprof_itm_write(&t, data, sizeof data), 0);
	const struct pm_write want[] = {
		{ STIM(3), 0x04030201u, 4 },
		{ STIM(3), 0x08070605u, 4 },
		{ STIM(3), 0x0A09, 2 },
		{ STIM(3), 0x0B, 1 },
	};
	pm_expect(want, 4);
	/* TCR, TER, then 3 polls for the first word and one for each later store */
	assert_int_equal(pm.reads - reads, 2 + 3 + 1 + 1 + 1);
	const uint8_t swo[] = { 0x1B, 1, 2, 3, 4, 0x1B, 5, 6, 7, 8, 0x1A, 9, 10, 0x19, 11 };
	assert_int_equal(pm.nswo, sizeof swo);
	assert_memory_equal(pm.swo, swo, sizeof swo);
}

static void test_write_fifo_full_and_disabled(void **s)
{
	struct bmprof_itm t = { .port = 0, .spin_limit = 10 };
	const uint8_t data[4] = { 0 };
	(void)s;
	pm_reset(&pm_m3);
	assert_int_equal(bmprof_itm_enable(&t, 0, 0), 0);
	pm.busy = 10;
	assert_int_equal(bmprof_itm_write(&t, data, 4), -1);
	assert_int_equal(t.timeouts, 1);
	assert_int_equal(pm.nswo, 0);
	pm.busy = 9;
	assert_int_equal(bmprof_itm_write(&t, data, 4), 0);
	assert_int_equal(pm.nswo, 5);
	pm.itm_ter[0] = 0;                /* the debugger turned the port off */
	pm_log_clear();
	assert_int_equal(bmprof_itm_write(&t, data, 4), -1);
	assert_int_equal(t.refused, 1);
	assert_int_equal(pm.nlog, 0);
}

static int sink_calls;
static int sink(void *ctx, const void *buf, size_t len)
{
	(void)buf;
	(void)len;
	sink_calls++;
	return *(int *)ctx;
}

static void test_tee(void **s)
{
	int ok = 0, bad = -1;
	struct bmprof_out a = { sink, &ok }, b = { sink, &bad };
	struct bmprof_tee both = { &a, &b }, none = { &b, &b };
	(void)s;
	sink_calls = 0;
	assert_int_equal(bmprof_tee_write(&both, "x", 1), 0);
	assert_int_equal(bmprof_tee_write(&none, "x", 1), -1);
	assert_int_equal(sink_calls, 4);
}

/* ---- host decoder ---- */

struct bytes {
	uint8_t *p;
	size_t n, cap;
};

static void put(struct bytes *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
		assert_non_null(b->p);
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void put1(struct bytes *b, uint8_t c)
{
	put(b, &c, 1);
}

static void collect(void *ctx, const uint8_t *d, size_t n)
{
	put(ctx, d, n);
}

/* Decode in pushes of `chunk` bytes (0: all at once). */
static struct itm_stats decode(const struct bytes *in, unsigned port, size_t chunk,
			       struct bytes *out)
{
	struct itm_decoder *d = malloc(sizeof *d);
	struct itm_stats st;

	assert_non_null(d);
	itm_init(d, port, collect, out);
	for (size_t i = 0; i < in->n;) {
		size_t k = chunk && in->n - i > chunk ? chunk : in->n - i;
		itm_push(d, in->p + i, k);
		i += k;
	}
	itm_finish(d);
	st = d->st;
	free(d);
	return st;
}

/* Stimulus packet of n (1, 2, 4) bytes for port (0..31, page set separately). */
static void stim(struct bytes *b, unsigned port, const uint8_t *p, unsigned n)
{
	put1(b, (uint8_t)((port & 31) << 3 | (n == 4 ? 3 : n)));
	put(b, p, n);
}

static const uint8_t sync_pkt[] = { 0, 0, 0, 0, 0, 0x80 };

/* A deterministic mix: the stream on port `port` in 4/2/1-byte packets, with packets of
 * other ports, hardware packets, timestamps, overflow and sync packets between. */
static void wrap(struct bytes *out, const uint8_t *s, size_t n, unsigned port, uint32_t seed)
{
	uint32_t x = seed;
	put(out, sync_pkt, sizeof sync_pkt);
	for (size_t i = 0; i < n;) {
		x = x * 1103515245u + 12345u;
		unsigned r = x >> 16 & 15;
		const uint8_t junk[4] = { 0xB5, 'B', 'M', 0x80 };
		switch (r) {
		case 0: stim(out, (port + 1) & 31, junk, 4); break;
		case 1: put1(out, 0x70); break;                                 /* overflow */
		case 2: put1(out, 0xC0); put1(out, 0x85); put1(out, 0x01); break;  /* LTS1 */
		case 3: put1(out, 0x30); break;                                 /* LTS2 */
		case 4: put1(out, 0x94); put1(out, 0x81); put1(out, 0x7F); break;  /* GTS1 */
		case 5: put1(out, 0xB4); put1(out, 0x80); put1(out, 0x80); put1(out, 0x01); break;
		case 6: put1(out, 0x0E); put1(out, 0x12); put1(out, 0x34); break;  /* DWT, 2 bytes */
		case 7: put(out, sync_pkt, sizeof sync_pkt); break;
		case 8: put1(out, 0x8C); put1(out, 0x01); break;                /* extension, SH=1 */
		default: {
			unsigned k = r < 11 ? 1 : r < 13 ? 2 : 4;
			if (k > n - i)
				k = n - i >= 4 ? 4 : n - i >= 2 ? 2 : 1;
			stim(out, port, s + i, k);
			i += k;
		}
		}
	}
}

static void test_decode_interleaved(void **s)
{
	uint8_t stream[1000];
	struct bytes cap = { 0 };
	(void)s;
	for (unsigned i = 0; i < sizeof stream; i++)
		stream[i] = (uint8_t)(i * 7 + (i >> 3));
	wrap(&cap, stream, sizeof stream, 9, 1);
	size_t chunks[] = { 0, 1, 2, 3, 5, 64 };
	for (unsigned c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
		struct bytes out = { 0 };
		struct itm_stats st = decode(&cap, 9, chunks[c], &out);
		assert_int_equal(out.n, sizeof stream);
		assert_memory_equal(out.p, stream, sizeof stream);
		assert_int_equal(st.errors, 0);
		assert_int_equal(st.skipped, 0);
		assert_int_equal(st.truncated, 0);
		assert_true(st.overflows > 0 && st.syncs > 1 && st.hw_packets > 0);
		assert_true(st.local_ts > 0 && st.global_ts > 0 && st.extensions > 0);
		assert_int_equal(st.port_bytes[10], st.other_bytes);
		free(out.p);
	}
	free(cap.p);
}

/* Ports 32..255 through the stimulus port page extension packet. */
static void test_decode_port_page(void **s)
{
	struct bytes cap = { 0 }, out = { 0 };
	const uint8_t a[2] = { 'h', 'i' }, b[1] = { '!' };
	(void)s;
	put1(&cap, 0x18);                 /* page 1: ports 32..63 */
	stim(&cap, 37 & 31, a, 2);        /* port 37 */
	put1(&cap, 0x08);                 /* page 0 */
	stim(&cap, 5, b, 1);              /* port 5 */
	struct itm_stats st = decode(&cap, 37, 0, &out);
	assert_int_equal(out.n, 2);
	assert_memory_equal(out.p, "hi", 2);
	assert_int_equal(st.port_bytes[5], 1);
	assert_int_equal(st.extensions, 2);
	free(cap.p);
	free(out.p);
}

static void test_decode_errors_resync(void **s)
{
	struct bytes cap = { 0 }, out = { 0 };
	const uint8_t w[4] = { 'a', 'b', 'c', 'd' };
	(void)s;
	stim(&cap, 0, w, 4);
	put1(&cap, 0x80);                 /* reserved header */
	put1(&cap, 0x00); put1(&cap, 0x00); /* a zero run that is no sync */
	stim(&cap, 0, w, 2);              /* ... ended by a good header: taken */
	put1(&cap, 0x94);                 /* GTS1 continuing past 4 bytes */
	for (int i = 0; i < 4; i++)
		put1(&cap, 0x80);
	put(&cap, sync_pkt, sizeof sync_pkt);
	stim(&cap, 0, w + 2, 2);
	stim(&cap, 0, w, 4);
	cap.n -= 2;                       /* cut inside the last packet */
	for (size_t chunk = 0; chunk < 4; chunk++) {
		out.n = 0;
		struct itm_stats st = decode(&cap, 0, chunk, &out);
		assert_int_equal(out.n, 8);
		assert_memory_equal(out.p, "abcdabcd", 8);
		assert_int_equal(st.errors, 3);
		/* 0x80; two zeros; GTS1 header + 4 continuation bytes; the truncated packet's 3 */
		assert_int_equal(st.skipped, 1 + 2 + 5 + 3);
		assert_int_equal(st.truncated, 1);
		assert_int_equal(st.syncs, 1);
	}
	free(cap.p);
	free(out.p);
}

/* A long zero run that is no synchronization packet: every zero is counted as skipped. */
static void test_decode_long_zero_run(void **s)
{
	struct bytes cap = { 0 }, out = { 0 };
	const uint8_t w[1] = { 'z' };
	(void)s;
	for (int i = 0; i < 1000; i++)
		put1(&cap, 0);
	stim(&cap, 0, w, 1);
	struct itm_stats st = decode(&cap, 0, 3, &out);
	assert_int_equal(st.errors, 1);
	assert_int_equal(st.skipped, 1000);
	assert_int_equal(out.n, 1);
	free(cap.p);
	free(out.p);
}

/* Garbage never grows memory or crashes, and every byte is accounted as input. */
static void test_decode_garbage(void **s)
{
	struct bytes cap = { 0 }, out = { 0 };
	uint32_t x = 12345;
	(void)s;
	for (int i = 0; i < 100000; i++) {
		x = x * 1664525u + 1013904223u;
		put1(&cap, (uint8_t)(x >> 24));
	}
	struct itm_stats a = decode(&cap, 0, 0, &out);
	size_t n0 = out.n;
	out.n = 0;
	struct itm_stats b = decode(&cap, 0, 7, &out);
	assert_int_equal(out.n, n0);
	assert_int_equal(a.bytes, cap.n);
	assert_memory_equal(&a, &b, sizeof a);
	assert_true(a.errors > 0);
	free(cap.p);
	free(out.p);
}

/* ---- the whole path: frames through the modelled ITM, decoded, read ---- */

struct frames {
	struct bytes b;
	unsigned n;
};

static void on_frame(void *ctx, uint8_t type, const uint8_t *payload, uint16_t len)
{
	struct frames *f = ctx;
	put1(&f->b, type);
	put(&f->b, &len, 2);
	put(&f->b, payload, len);
	f->n++;
}

static int to_bytes(void *ctx, const void *buf, size_t len)
{
	put(ctx, buf, len);
	return 0;
}

static void emit_all(const struct bmprof_out *o)
{
	static const uint8_t id[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static uint8_t big[3000];
	struct bmprof_hello h = { .arch = 2, .ncpus = 1, .timebase_hz = 1000000,
				  .vendor = "ARM", .build_id = id, .build_id_len = 8 };
	struct bmprof_end e = { .exit_code = 7 };

	for (unsigned i = 0; i < sizeof big; i++)
		big[i] = (uint8_t)(i * 13);
	assert_int_equal(bmprof_emit_hello(o, &h), 0);
	assert_int_equal(bmprof_emit_phase(o, 1, 99, "phase one"), 0);
	assert_int_equal(bmprof_emit_frame(o, 0x7E, big, sizeof big), 0);  /* three writes */
	assert_int_equal(bmprof_emit_end(o, &e), 0);
}

static void read_frames(const struct bytes *in, struct frames *f)
{
	struct reader r;
	assert_int_equal(reader_init(&r, on_frame, NULL, f), 0);
	reader_push(&r, in->p, in->n);
	reader_finish(&r);
	assert_int_equal(r.st.frames_bad_crc, 0);
	assert_int_equal(r.st.bytes_skipped, 0);
	reader_free(&r);
}

static void test_frames_through_itm(void **s)
{
	struct bmprof_itm t = { .port = 2 };
	struct bmprof_out itm = { bmprof_itm_write, &t };
	struct bytes direct = { 0 }, swo = { 0 }, dec = { 0 };
	struct bmprof_out raw = { to_bytes, &direct };
	struct frames a = { 0 }, b = { 0 };
	(void)s;
	emit_all(&raw);
	pm_reset(&pm_m3);
	assert_int_equal(bmprof_itm_enable(&t, 0, 0), 0);
	emit_all(&itm);
	put(&swo, pm.swo, pm.nswo);
	struct itm_stats st = decode(&swo, 2, 3, &dec);
	assert_int_equal(st.errors, 0);
	assert_int_equal(dec.n, direct.n);
	assert_memory_equal(dec.p, direct.p, direct.n);
	read_frames(&direct, &a);
	read_frames(&dec, &b);
	assert_int_equal(a.n, 4);
	assert_int_equal(b.n, 4);
	assert_int_equal(a.b.n, b.b.n);
	assert_memory_equal(a.b.p, b.b.p, a.b.n);
	free(direct.p);
	free(swo.p);
	free(dec.p);
	free(a.b.p);
	free(b.b.p);
}

/* A stream recorded from a real run (the reader fuzzer's seed from an x86-64 QEMU run),
 * wrapped among other packets, decodes to the same bytes. */
static void test_recorded_stream_wrapped(void **s)
{
	FILE *f = fopen("tests/fuzz/corpus/fuzz_reader/qemu-shares", "rb");
	struct bytes raw = { 0 }, cap = { 0 }, out = { 0 };
	uint8_t buf[4096];
	size_t n;
	(void)s;
	if (!f)
		skip();
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		put(&raw, buf, n);
	fclose(f);
	assert_true(raw.n > 1);
	for (unsigned port = 0; port < 32; port += 31) {
		cap.n = out.n = 0;
		wrap(&cap, raw.p + 1, raw.n - 1, port, port + 7);
		struct itm_stats st = decode(&cap, port, 13, &out);
		assert_int_equal(st.errors, 0);
		assert_int_equal(out.n, raw.n - 1);
		assert_memory_equal(out.p, raw.p + 1, raw.n - 1);
	}
	free(raw.p);
	free(cap.p);
	free(out.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_enable_sequence),
		cmocka_unit_test(test_enable_timestamps_unprivileged_high_port),
		cmocka_unit_test(test_enable_keeps_debugger_setup),
		cmocka_unit_test(test_enable_no_itm),
		cmocka_unit_test(test_write_words_then_tail),
		cmocka_unit_test(test_write_fifo_full_and_disabled),
		cmocka_unit_test(test_tee),
		cmocka_unit_test(test_decode_interleaved),
		cmocka_unit_test(test_decode_port_page),
		cmocka_unit_test(test_decode_errors_resync),
		cmocka_unit_test(test_decode_long_zero_run),
		cmocka_unit_test(test_decode_garbage),
		cmocka_unit_test(test_frames_through_itm),
		cmocka_unit_test(test_recorded_stream_wrapped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
