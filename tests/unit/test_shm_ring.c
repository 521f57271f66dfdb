/* SPDX-License-Identifier: BSD-2-Clause */
/* The shared-memory ring protocol: the target's producer (transport/target/ring.c) and the
 * host's consumer (host/run/shm.c) in one process. Wrap-around, exact fit, records larger than
 * the free space or the ring, frames split over several writes, sequence gaps that agree
 * with the producer's counters, final mode, a consumer thread held until the final flush
 * (--shm-consume-at-end), and a producer thread against the consumer thread with every
 * byte checked. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "bmprof_ring.h"
#include "run/shm.h"
#include "wire.h"

struct sink {
	uint8_t *p;
	size_t n, cap;
	size_t pushes;
};

static void on_push(void *ctx, const void *buf, size_t n)
{
	struct sink *s = ctx;

	if (s->n + n > s->cap) {
		s->cap = (s->n + n) * 2;
		s->p = realloc(s->p, s->cap);
		assert_non_null(s->p);
	}
	memcpy(s->p + s->n, buf, n);
	s->n += n;
	s->pushes++;
}

/* A frame as bmprof_emit_frame builds it, for comparison. */
static size_t make_frame(uint8_t *f, uint8_t type, const uint8_t *payload, uint16_t len)
{
	f[0] = BMPROF_MAGIC0;
	f[1] = BMPROF_MAGIC1;
	f[2] = BMPROF_MAGIC2;
	f[3] = BMPROF_MAGIC3;
	f[4] = type;
	f[5] = 0;
	bmprof_put16(f + 6, len);
	memcpy(f + 8, payload, len);
	bmprof_put32(f + 8 + len, bmprof_crc32(0, f + 4, 4 + len));
	return 12u + len;
}

static void fill(uint8_t *p, size_t n, unsigned k)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(k * 31 + i * 7);
}

struct rig {
	uint64_t *mem;
	size_t size;
	struct bmprof_rings rings;
	struct shm_consumer *con;
	struct sink sink;
};

static struct rig *rig_new(size_t size, unsigned nrings)
{
	struct rig *r = calloc(1, sizeof *r);

	assert_non_null(r);
	r->mem = calloc(1, size);
	r->size = size;
	r->con = malloc(sizeof *r->con);
	assert_non_null(r->mem);
	assert_non_null(r->con);
	((uint32_t *)r->mem)[BMPROF_RING_H_ATTACHED / 4] = 1;
	assert_int_equal(bmprof_ring_init(&r->rings, r->mem, size, nrings), 0);
	shm_consumer_init(r->con, r->mem, size, on_push, &r->sink);
	return r;
}

static void rig_free(struct rig *r)
{
	free(r->sink.p);
	free(r->con);
	free(r->mem);
	free(r);
}

static int emit(struct rig *r, unsigned ring, unsigned k, uint16_t len)
{
	uint8_t p[65535];

	fill(p, len, k);
	return bmprof_emit_frame(bmprof_ring_out(&r->rings, ring), BMPROF_FRAME_SAMPLES, p, len);
}

static void expect_frame(struct rig *r, size_t *at, unsigned k, uint16_t len)
{
	uint8_t p[65535], f[65547];
	size_t n;

	fill(p, len, k);
	n = make_frame(f, BMPROF_FRAME_SAMPLES, p, len);
	assert_true(*at + n <= r->sink.n);
	assert_memory_equal(r->sink.p + *at, f, n);
	*at += n;
}

static void test_layout(void **state)
{
	struct bmprof_rings rings;
	uint64_t *mem = calloc(1, 1 << 20);
	const uint8_t *b = (const uint8_t *)mem;

	(void)state;
	assert_int_equal(bmprof_ring_init(&rings, mem, 1 << 20, 3), 0);
	assert_int_equal(bmprof_get32(b + BMPROF_RING_H_MAGIC), BMPROF_RING_MAGIC);
	assert_int_equal(bmprof_get16(b + BMPROF_RING_H_VERSION), BMPROF_RING_VERSION);
	assert_int_equal(bmprof_get16(b + BMPROF_RING_H_NRINGS), 3);
	/* header page, then 3 rings of the largest power of two that fits: 256 KiB */
	assert_int_equal(bmprof_get32(b + BMPROF_RING_H_DATA_OFF), 4096);
	assert_int_equal(bmprof_get32(b + BMPROF_RING_H_DATA_SIZE), 256 << 10);
	assert_int_equal(bmprof_get32(b + BMPROF_RING_H_TOTAL), 4096 + 3 * (256 << 10));
	assert_null(bmprof_ring_out(&rings, 3));
	/* too small, too many, misaligned */
	assert_int_equal(bmprof_ring_init(&rings, mem, 8191, 1), -1);
	assert_int_equal(bmprof_ring_init(&rings, mem, 1 << 20, 0), -1);
	assert_int_equal(bmprof_ring_init(&rings, mem, 1 << 20, BMPROF_RING_MAX + 1), -1);
	assert_int_equal(bmprof_ring_init(&rings, (uint8_t *)mem + 4, 1 << 19, 1), -1);
	free(mem);
}

/* 4 KiB ring: many frames of odd sizes, consumed as they come, wrap it many times. */
static void test_wrap_around(void **state)
{
	struct rig *r = rig_new(8192, 1);
	size_t at = 0;

	(void)state;
	for (unsigned k = 0; k < 500; k++) {
		uint16_t len = (uint16_t)(k * 37 % 1500);
		assert_int_equal(emit(r, 0, k, len), 0);
		assert_int_equal(shm_consumer_poll(r->con), 1);
		expect_frame(r, &at, k, len);
	}
	assert_int_equal(at, r->sink.n);
	struct shm_totals t;
	shm_consumer_totals(r->con, &t);
	assert_int_equal(t.records, 500);
	assert_int_equal(t.lost_records, 0);
	assert_int_equal(t.dropped_records, 0);
	assert_true(t.agree);
	rig_free(r);
}

/* A record that fills the ring exactly fits; then nothing more does until it is read. */
static void test_exact_fit(void **state)
{
	struct rig *r = rig_new(8192, 1);
	uint16_t len = 4096 - BMPROF_RING_REC_HDR - 12;
	size_t at = 0;

	(void)state;
	assert_int_equal(emit(r, 0, 1, 100), 0);   /* move the head off 0: the record wraps */
	assert_int_equal(shm_consumer_poll(r->con), 1);
	assert_int_equal(emit(r, 0, 2, len), 0);
	assert_int_not_equal(emit(r, 0, 3, 0), 0);
	assert_int_equal(shm_consumer_poll(r->con), 1);
	assert_int_equal(emit(r, 0, 4, 0), 0);
	assert_int_equal(shm_consumer_poll(r->con), 1);
	expect_frame(r, &at, 1, 100);
	expect_frame(r, &at, 2, len);
	expect_frame(r, &at, 4, 0);
	struct shm_totals t;
	shm_consumer_totals(r->con, &t);
	assert_int_equal(t.ring[0].gaps, 1);
	assert_int_equal(t.dropped_records, 1);
	assert_int_equal(t.dropped_bytes, 12);
	assert_true(t.agree);
	rig_free(r);
}

/* Larger than the free space: dropped and counted, the next one fits; larger than the ring:
 * always dropped; frames over 1024 bytes (three writes) make one record. */
static void test_too_large(void **state)
{
	struct rig *r = rig_new(8192, 1);
	size_t at = 0;

	(void)state;
	assert_int_equal(emit(r, 0, 0, 3000), 0);
	assert_int_not_equal(emit(r, 0, 1, 2000), 0);
	assert_int_equal(emit(r, 0, 2, 500), 0);
	assert_int_not_equal(emit(r, 0, 3, 5000), 0);
	assert_int_equal(shm_consumer_poll(r->con), 2);
	assert_int_not_equal(emit(r, 0, 4, 5000), 0);
	assert_int_equal(emit(r, 0, 5, 10), 0);
	assert_int_equal(shm_consumer_poll(r->con), 1);
	assert_int_equal(emit(r, 0, 6, 10), 0);         /* written, then never read... */
	expect_frame(r, &at, 0, 3000);
	expect_frame(r, &at, 2, 500);
	expect_frame(r, &at, 5, 10);
	assert_int_equal(r->sink.pushes, 3);
	struct shm_totals t;
	shm_consumer_totals(r->con, &t);
	assert_int_equal(t.ring[0].seq, 7);
	assert_int_equal(t.ring[0].gaps, 3);           /* 1, 3, 4 */
	assert_int_equal(t.dropped_records, 3);
	assert_int_equal(t.dropped_bytes, 2012 + 5012 + 5012);
	assert_int_equal(t.lost_records, 3 + 1);       /* ...so 6 counts as lost here */
	assert_false(t.agree);
	shm_consumer_stop(r->con);                     /* takes 6 */
	shm_consumer_totals(r->con, &t);
	assert_int_equal(t.lost_records, 3);
	assert_true(t.agree);
	rig_free(r);
}

/* Drops after the last record read are found by the producer's record count. */
static void test_trailing_drops(void **state)
{
	struct rig *r = rig_new(16384, 2);
	struct shm_totals t;

	(void)state;
	assert_int_equal(emit(r, 1, 0, 4000), 0);
	assert_int_not_equal(emit(r, 1, 1, 4000), 0);
	assert_int_not_equal(emit(r, 1, 2, 4000), 0);
	assert_int_equal(emit(r, 0, 9, 4), 0);
	assert_int_equal(shm_consumer_poll(r->con), 2);
	shm_consumer_totals(r->con, &t);
	assert_int_equal(t.nrings, 2);
	assert_int_equal(t.ring[1].gaps, 0);
	assert_int_equal(t.ring[1].dropped_records, 2);
	assert_int_equal(t.lost_records, 2);
	assert_int_equal(t.ring[0].records, 1);
	assert_true(t.agree);
	rig_free(r);
}

/* The other rings wait until ring 0 (HELLO) has delivered its first record. */
static void test_ring0_first(void **state)
{
	struct rig *r = rig_new(16384, 2);
	size_t at = 0;

	(void)state;
	assert_int_equal(emit(r, 1, 1, 40), 0);
	assert_int_equal(shm_consumer_poll(r->con), 0);
	assert_int_equal(emit(r, 0, 0, 30), 0);
	assert_int_equal(shm_consumer_poll(r->con), 2);
	expect_frame(r, &at, 0, 30);
	expect_frame(r, &at, 1, 40);
	rig_free(r);
}

/* Final mode waits only while the host is attached, and gives up when the tail stops. */
static void test_final_mode_bounded(void **state)
{
	struct rig *r = rig_new(8192, 1);
	struct shm_totals t;

	(void)state;
	bmprof_ring_set_final(&r->rings, 1000);
	assert_int_equal(emit(r, 0, 0, 3000), 0);
	assert_int_not_equal(emit(r, 0, 1, 3000), 0);   /* nobody consumes: bounded wait */
	((uint32_t *)r->mem)[BMPROF_RING_H_ATTACHED / 4] = 0;
	assert_int_not_equal(emit(r, 0, 2, 3000), 0);   /* detached: no wait */
	shm_consumer_stop(r->con);
	shm_consumer_totals(r->con, &t);
	assert_true(t.final);
	assert_int_equal(t.dropped_records, 2);
	assert_true(t.agree);
	rig_free(r);
}

/* Bytes that are not a frame are refused. */
static void test_not_a_frame(void **state)
{
	struct rig *r = rig_new(8192, 1);

	(void)state;
	assert_int_not_equal(bmprof_ring_out(&r->rings, 0)->write(r->rings.out[0].ctx,
								 "hello, world", 12), 0);
	assert_int_equal(shm_consumer_poll(r->con), 0);
	rig_free(r);
}

/* A corrupt record header: the ring is abandoned, nothing bogus is pushed. */
static void test_corrupt_header(void **state)
{
	struct rig *r = rig_new(8192, 1);
	struct shm_totals t;
	uint8_t *data = (uint8_t *)r->mem + 4096;

	(void)state;
	assert_int_equal(emit(r, 0, 0, 20), 0);
	bmprof_put32(data + 4, 100000);
	assert_int_equal(shm_consumer_poll(r->con), 0);
	shm_consumer_totals(r->con, &t);
	assert_true(t.corrupt);
	assert_int_equal(r->sink.n, 0);
	rig_free(r);
}

/* A held consumer thread reads nothing before the producers' final flush, so the ring
 * overruns however fast the host is; from the final flush on it reads everything, and
 * the drops agree with the sequence numbers. */
static void test_hold_until_final(void **state)
{
	struct rig *r = rig_new(8192, 1);
	struct shm_totals t;
	unsigned k = 0, refused = 0, sent = 0;

	(void)state;
	r->con->hold = 1;
	assert_int_equal(shm_consumer_start(r->con), 0);
	while (refused < 3) {
		if (emit(r, 0, k++, 500))
			refused++;
		else
			sent++;
	}
	assert_int_equal(r->con->st[0].records, 0);
	bmprof_ring_set_final(&r->rings, 4000000000ull);
	for (unsigned i = 0; i < 40; i++, k++)
		assert_int_equal(emit(r, 0, k, 500), 0);   /* the held consumer reads now */
	shm_consumer_stop(r->con);
	shm_consumer_totals(r->con, &t);
	assert_true(t.final);
	assert_int_equal(t.records, sent + 40);
	assert_int_equal(t.dropped_records, refused);
	assert_int_equal(t.lost_records, refused);
	assert_true(t.agree);
	rig_free(r);
}

/* ---- producer thread against consumer thread ---- */

#define STRESS_FRAMES 200000u

struct checker {
	uint64_t next;           /* the lowest k the next frame may carry */
	uint64_t frames, bad;
	uint8_t part[65547];
	size_t have;
};

static void check_push(void *ctx, const void *buf, size_t n)
{
	struct checker *c = ctx;
	const uint8_t *f = buf;
	uint8_t p[2048], want[2100];
	uint16_t len;
	uint32_t k;

	/* one record is one frame here */
	len = bmprof_get16(f + 6);
	if (n != 12u + len || len < 4) {
		c->bad++;
		return;
	}
	k = bmprof_get32(f + 8);
	fill(p, len, k);
	bmprof_put32(p, k);
	make_frame(want, BMPROF_FRAME_SAMPLES, p, len);
	if (k < c->next || len != 4 + k % 2000 || memcmp(want, f, n))
		c->bad++;
	c->next = (uint64_t)k + 1;
	c->frames++;
}

static void test_threads_every_byte(void **state)
{
	size_t size = 64 << 10;
	uint64_t *mem = calloc(1, size);
	struct bmprof_rings rings;
	struct shm_consumer *con = malloc(sizeof *con);
	struct checker chk = { 0 };
	struct shm_totals t;
	uint64_t failed = 0;

	(void)state;
	((uint32_t *)mem)[BMPROF_RING_H_ATTACHED / 4] = 1;
	assert_int_equal(bmprof_ring_init(&rings, mem, size, 1), 0);
	shm_consumer_init(con, mem, size, check_push, &chk);
	assert_int_equal(shm_consumer_start(con), 0);
	for (uint32_t k = 0; k < STRESS_FRAMES; k++) {
		uint8_t p[2048];
		uint16_t len = (uint16_t)(4 + k % 2000);

		fill(p, len, k);
		bmprof_put32(p, k);
		if (bmprof_emit_frame(bmprof_ring_out(&rings, 0), BMPROF_FRAME_SAMPLES, p, len))
			failed++;
	}
	shm_consumer_stop(con);
	shm_consumer_totals(con, &t);
	assert_int_equal(chk.bad, 0);
	assert_int_equal(chk.frames + failed, STRESS_FRAMES);
	assert_int_equal(t.records, chk.frames);
	assert_int_equal(t.dropped_records, failed);
	assert_int_equal(t.lost_records, failed);
	assert_true(t.agree);
	free(con);
	free(mem);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_wrap_around),
		cmocka_unit_test(test_exact_fit),
		cmocka_unit_test(test_too_large),
		cmocka_unit_test(test_trailing_drops),
		cmocka_unit_test(test_ring0_first),
		cmocka_unit_test(test_final_mode_bounded),
		cmocka_unit_test(test_not_a_frame),
		cmocka_unit_test(test_corrupt_header),
		cmocka_unit_test(test_hold_until_final),
		cmocka_unit_test(test_threads_every_byte),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
