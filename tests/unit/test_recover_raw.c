/* SPDX-License-Identifier: BSD-2-Clause */
/* Raw samples recovered from target memory (host/run/recover_raw.c) against the real target
 * core compiled for the host: a CPU in raw mode records samples into a small raw ring,
 * drains it now and then (and sometimes not, so the ring fills and drops), and the "machine
 * is stopped" at every RAW_SAMPLES frame while it is written (the frame arrived, or not)
 * and between samples. What arrived plus what was recovered must be each raw sample that
 * was not dropped, exactly once, with its registers, and raw taken = raw delivered + raw
 * lost. Then hostile ring states: refused with a clear error, or flagged with the records
 * counted lost, never read outside the memory image. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bmprof.h"
#include "bmprof_desc.h"
#include "profile.h"
#include "run/recover.h"
#include "wire.h"
#include "core_fixture.h"

#define RING 8
#define NREGS 17
#define SAMPLES 300

/* ---- a memory image of host regions at their own addresses ---- */

struct image {
	struct { uint64_t addr; size_t len; const void *p; } r[6];
	unsigned n;
};

static void image_add(struct image *m, const void *p, size_t len)
{
	assert_true(m->n < 6);
	m->r[m->n].addr = (uint64_t)(uintptr_t)p;
	m->r[m->n].len = len;
	m->r[m->n++].p = p;
}

static int image_read(void *ctx, uint64_t addr, void *buf, size_t len, char *err, size_t n)
{
	struct image *m = ctx;

	for (unsigned i = 0; i < m->n; i++)
		if (addr >= m->r[i].addr && addr - m->r[i].addr <= m->r[i].len &&
		    len <= m->r[i].len - (addr - m->r[i].addr)) {
			memcpy(buf, (const uint8_t *)m->r[i].p + (addr - m->r[i].addr), len);
			return 0;
		}
	snprintf(err, n, "0x%llx: not in the image", (unsigned long long)addr);
	return -1;
}

static int emit_to_profile(void *ctx, uint8_t type, const uint8_t *payload, uint16_t len)
{
	return profile_apply_frame(ctx, type, payload, len);
}

/* ---- a CPU in raw mode ---- */

struct rig {
	struct cpu *k;
	void *rmem;
	size_t rlen;
	struct bmprof_desc d;     /* a copy naming only this CPU */
	uint8_t *stream;
	size_t len, cap;
	int snap_at, arrived, raw_seen, snapped;
	unsigned recorded;
	char problem[200];        /* the reader's flag on the CPU, at the last recovery */
};

static void rig_new(struct rig *g, uint32_t ring)
{
	size_t n = bmprof_raw_mem_size(ring);

	memset(g, 0, sizeof *g);
	g->snap_at = -1;
	g->rlen = n;
	g->k = cpu_new_seeded(0, 7);
	g->rmem = aligned_alloc(64, (n + 63) & ~(size_t)63);
	assert_non_null(g->rmem);
	assert_int_equal(bmprof_raw_init(&g->k->c, g->rmem, n, ring, BMPROF_ARCH_X86_64, NREGS), 0);
	memcpy(&g->d, &bmprof_descriptor, sizeof g->d);
	g->d.self = (uintptr_t)&g->d;
	memset((void *)g->d.cpu, 0, sizeof g->d.cpu);
	g->d.cpu[0] = (uintptr_t)&g->k->c;
	g->d.ncpus = 1;
}

static void rig_free(struct rig *g)
{
	free(g->stream);
	free(g->rmem);
	cpu_free(g->k);
}

/* Sample i: pc 0x100000 + 4 i, r[0] = i, r[3] = 3 i + 1, a data address on odd ones. */
static void record(struct rig *g)
{
	unsigned i = g->recorded++;
	struct bmprof_raw s = { .pc = 0x100000 + 4 * (uint64_t)i, .valid = 1u << 0 | 1u << 3,
				.event = (uint16_t)(i & 1) };

	s.r[0] = i;
	s.r[3] = 3 * (uint64_t)i + 1;
	if (i & 1) {
		s.flags = BMPROF_RAWF_DATA_ADDR;
		s.data_addr = 0x800000 + 8 * (uint64_t)i;
	}
	bmprof_record(&g->k->c, s.pc, s.event);
	bmprof_record_raw(&g->k->c, &s);
}

static void keep(struct rig *g, const void *buf, size_t len)
{
	if (g->len + len > g->cap) {
		g->cap = (g->len + len) * 2;
		g->stream = realloc(g->stream, g->cap);
		assert_non_null(g->stream);
	}
	memcpy(g->stream + g->len, buf, len);
	g->len += len;
}

static void apply_stream(struct profile *p, const uint8_t *b, size_t len)
{
	size_t o = 0;

	while (o + 12 <= len) {
		uint16_t n = bmprof_get16(b + o + 6);
		assert_int_equal(profile_apply_frame(p, b[o + 4], b + o + 8, n), 0);
		o += 12u + n;
	}
	assert_int_equal(o, len);
}

/* Recovered from the image as it is now, on top of what arrived. 0, or -1 with err. */
static int recover_now(struct rig *g, struct profile *p, struct recover_result *res, char *err,
		       size_t n)
{
	struct image m = { .n = 0 };
	struct recover_mem mem = { image_read, &m };
	struct recover r;
	int rc;

	image_add(&m, &g->d, sizeof g->d);
	image_add(&m, &g->k->c, sizeof g->k->c);
	image_add(&m, g->k->mem, bmprof_cpu_mem_size(1024, 256));
	image_add(&m, g->rmem, g->rlen);
	profile_init(p);
	apply_stream(p, g->stream, g->len);
	rc = recover_read(&r, &mem, (uintptr_t)&g->d, err, n);
	if (!rc)
		rc = recover_read_entries(&r, &mem, err, n);
	if (!rc)
		assert_int_equal(recover_frames(&r, p, emit_to_profile, p, res), 0);
	snprintf(g->problem, sizeof g->problem, "%s", !rc && r.ncpu ? r.cpu[0].problem : "");
	assert_true(r.bytes <= RECOVER_MAX_TOTAL);
	recover_free(&r);
	return rc;
}

/* Every raw sample the host holds is one that was recorded, with its registers, each once
 * (pcs strictly increasing: arrived frames, then recovered ones, in recording order). */
static void check_records(const struct profile *p)
{
	uint64_t last = 0;

	for (size_t j = 0; j < p->nraw; j++) {
		const struct profile_raw *x = &p->raw[j];
		uint64_t i = (x->regs.pc - 0x100000) / 4;

		assert_true(x->regs.pc >= 0x100000 && x->regs.pc % 4 == 0);
		assert_true(j == 0 || x->regs.pc > last);
		last = x->regs.pc;
		assert_int_equal(x->regs.valid, 1u << 0 | 1u << 3);
		assert_int_equal(x->regs.r[0], i);
		assert_int_equal(x->regs.r[3], 3 * i + 1);
		assert_int_equal(x->event, i & 1);
		assert_int_equal(x->regs.arch, BMPROF_ARCH_X86_64);
		assert_int_equal(x->regs.n, NREGS);
		if (i & 1) {
			assert_true(x->flags & BMPROF_RAWF_DATA_ADDR);
			assert_int_equal(x->data_addr, 0x800000 + 8 * i);
		}
	}
}

static void snapshot(struct rig *g, int sending)
{
	struct profile p;
	struct recover_result res;
	char err[256];
	const uint64_t *t;

	assert_int_equal(recover_now(g, &p, &res, err, sizeof err), 0);
	t = p.cpus[0].totals;
	assert_int_equal(res.inexact, 0);
	assert_int_equal(res.raw_cpus, 1);
	assert_int_equal(res.raw_unread, 0);
	assert_int_equal(res.raw_arrived, sending && g->arrived);
	assert_int_equal(t[BMPROF_TOTAL_RAW_TAKEN], g->recorded);
	assert_int_equal(t[BMPROF_TOTAL_RAW_TAKEN], t[BMPROF_TOTAL_RAW_DELIVERED] +
			 t[BMPROF_TOTAL_RAW_LOST_FULL] + t[BMPROF_TOTAL_RAW_LOST_TRANSPORT]);
	assert_int_equal(t[BMPROF_TOTAL_RAW_LOST_FULL], g->k->c.raw.lost_full);
	assert_int_equal(t[BMPROF_TOTAL_RAW_LOST_TRANSPORT], 0);
	assert_int_equal(p.cpus[0].raw_received, t[BMPROF_TOTAL_RAW_DELIVERED]);
	assert_int_equal(p.nraw, t[BMPROF_TOTAL_RAW_DELIVERED]);
	assert_int_equal(p.cpus[0].raw_seq_gaps, 0);
	assert_int_equal(p.cpus[0].raw_next_seq, t[BMPROF_TOTAL_RAW_FRAMES]);
	assert_int_equal(t[BMPROF_TOTAL_TAKEN], t[BMPROF_TOTAL_DELIVERED] +
			 t[BMPROF_TOTAL_LOST_FULL] + t[BMPROF_TOTAL_LOST_TRANSPORT]);
	check_records(&p);
	profile_free(&p);
	g->snapped = 1;
}

static int rig_write(void *ctx, const void *buf, size_t len)
{
	struct rig *g = ctx;
	const uint8_t *f = buf;

	if (f[4] == BMPROF_FRAME_RAW_SAMPLES && g->raw_seen++ == g->snap_at && !g->snapped) {
		assert_true(g->k->c.raw.sending > 0);
		if (g->arrived)
			keep(g, buf, len);
		snapshot(g, 1);
		if (!g->arrived)
			keep(g, buf, len);
	} else {
		keep(g, buf, len);
	}
	return 0;
}

/* Records SAMPLES raw samples, draining every 5 except from 100 to 140 (the ring fills and
 * drops); stops at RAW_SAMPLES frame snap_at or before sample stop_at. Returns the
 * RAW_SAMPLES frames of a run that did not stop. */
static int run(int snap_at, int arrived, long stop_at)
{
	struct rig g;
	struct bmprof_out out = { rig_write, &g };
	int frames;

	rig_new(&g, RING);
	g.snap_at = snap_at;
	g.arrived = arrived;
	for (long i = 0; i < SAMPLES && !g.snapped; i++) {
		if (i == stop_at)
			snapshot(&g, 0);
		record(&g);
		if (i % 5 == 4 && (i < 100 || i > 140) && bmprof_drain_pending(&g.k->c))
			bmprof_drain(&g.k->c, &out);
	}
	if (!g.snapped)
		bmprof_flush(&g.k->c, &out);
	assert_true(snap_at >= 0 || stop_at >= 0 || g.k->c.raw.lost_full > 0);
	frames = g.raw_seen;
	rig_free(&g);
	return frames;
}

static void test_stop_at_every_raw_frame(void **state)
{
	(void)state;
	int total = run(-1, 0, -1);

	assert_true(total > 20);
	for (int k = 0; k < total; k++) {
		run(k, 1, -1);
		run(k, 0, -1);
	}
}

static void test_stop_between_samples(void **state)
{
	(void)state;
	for (long i = 0; i < SAMPLES; i += 7)
		run(-1, 0, i);
}

/* ---- hostile ring states ---- */

/* 20 raw samples held in a ring of 32. */
static void held(struct rig *g)
{
	rig_new(g, 32);
	for (int i = 0; i < 20; i++)
		record(g);
}

#define FIELD_SET(g, f, off, size) ((g)->d.field[f] = (uint32_t)(off) | (uint32_t)(size) << 16)

static void expect_error(struct rig *g, const char *needle)
{
	struct profile p;
	struct recover_result res;
	char err[256] = "";

	assert_int_equal(recover_now(g, &p, &res, err, sizeof err), -1);
	if (!strstr(err, needle))
		fail_msg("error \"%s\" does not say \"%s\"", err, needle);
	profile_free(&p);
	rig_free(g);
}

/* Read, flagged, no raw sample believed: those the ring should hold are counted lost. */
static void expect_flagged(struct rig *g, const char *needle, uint64_t unread)
{
	struct profile p;
	struct recover_result res;
	char err[256];
	const uint64_t *t;

	assert_int_equal(recover_now(g, &p, &res, err, sizeof err), 0);
	t = p.cpus[0].totals;
	assert_int_equal(res.inexact, 1);
	assert_int_equal(p.nraw, 0);
	assert_int_equal(res.raw_unread, unread);
	assert_int_equal(t[BMPROF_TOTAL_RAW_TAKEN], 20);
	assert_int_equal(t[BMPROF_TOTAL_RAW_TAKEN], t[BMPROF_TOTAL_RAW_DELIVERED] +
			 t[BMPROF_TOTAL_RAW_LOST_FULL] + t[BMPROF_TOTAL_RAW_LOST_TRANSPORT]);
	if (!strstr(g->problem, needle))
		fail_msg("flag \"%s\" does not say \"%s\"", g->problem, needle);
	profile_free(&p);
	rig_free(g);
}

static void test_hostile_ring(void **state)
{
	(void)state;
	struct rig g;
	struct profile p;
	struct recover_result res;
	char err[256];

	/* as it is: all 20 recovered */
	held(&g);
	assert_int_equal(recover_now(&g, &p, &res, err, sizeof err), 0);
	assert_int_equal(res.raw_samples, 20);
	assert_int_equal(p.nraw, 20);
	check_records(&p);
	profile_free(&p);
	rig_free(&g);

	held(&g);
	g.k->c.raw.cap = RECOVER_MAX_RAW + 1;
	expect_error(&g, "more than bmprof reads back");
	held(&g);
	g.k->c.raw.slot = (void *)0x40;
	expect_error(&g, "not in the image");
	held(&g);
	FIELD_SET(&g, BMPROF_DF_RAWREC_R, 300, 8);
	expect_error(&g, "outside its");
	held(&g);
	FIELD_SET(&g, BMPROF_DF_RAWREC, sizeof(struct bmprof_raw), 2);
	expect_error(&g, "size of 2 bytes");
	held(&g);
	FIELD_SET(&g, BMPROF_DF_RAWREC, 1u << 15, 1);
	expect_error(&g, "more than bmprof reads back");
	held(&g);
	g.d.field[BMPROF_DF_RAW_HEAD] = 0;
	expect_error(&g, "no field raw.head");

	held(&g);
	g.k->c.raw.head = g.k->c.raw.tail + 33;      /* more records than slots */
	expect_flagged(&g, "does not add up", 20);
	held(&g);
	g.k->c.raw.delivered = 3;                    /* more counted than taken */
	expect_flagged(&g, "does not add up", 17);
	held(&g);
	g.k->c.raw.sending = 21;
	expect_flagged(&g, "does not add up", 20);
	held(&g);
	g.k->c.raw.nregs = 0;
	expect_flagged(&g, "registers", 20);
	held(&g);
	g.k->c.raw.arch = 9;
	expect_flagged(&g, "architecture", 20);
	held(&g);
	g.k->c.raw.slot = NULL;
	expect_flagged(&g, "address 0", 20);

	/* a version-2 image: its raw ring is not looked at */
	held(&g);
	g.d.version = 2;
	assert_int_equal(recover_now(&g, &p, &res, err, sizeof err), 0);
	assert_int_equal(res.raw_cpus, 0);
	assert_int_equal(p.nraw, 0);
	profile_free(&p);
	rig_free(&g);
}

/* Random damage to the ring's state and records: an error or a result, never a crash or a
 * read outside the image; a CPU not flagged keeps raw taken = delivered + lost. */
static void test_random_damage(void **state)
{
	(void)state;
	uint64_t x = 0x9E3779B97F4A7C15ull;

	for (int i = 0; i < 3000; i++) {
		struct rig g;
		struct profile p;
		struct recover_result res;
		char err[256];
		uint8_t *target;
		size_t len;

		held(&g);
		if (i & 1) {
			target = (uint8_t *)&g.k->c.raw;
			len = sizeof g.k->c.raw;
		} else {
			target = g.rmem;
			len = bmprof_raw_mem_size(32);
		}
		for (int j = 0; j < 1 + i % 3; j++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			target[x % len] ^= (uint8_t)(1u << (x >> 32) % 8);
		}
		if (recover_now(&g, &p, &res, err, sizeof err) == 0 && !res.inexact) {
			const uint64_t *t = p.cpus[0].totals;
			assert_int_equal(t[BMPROF_TOTAL_RAW_TAKEN], t[BMPROF_TOTAL_RAW_DELIVERED] +
					 t[BMPROF_TOTAL_RAW_LOST_FULL] +
					 t[BMPROF_TOTAL_RAW_LOST_TRANSPORT]);
			assert_int_equal(p.cpus[0].raw_received, t[BMPROF_TOTAL_RAW_DELIVERED]);
		}
		profile_free(&p);
		rig_free(&g);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stop_at_every_raw_frame),
		cmocka_unit_test(test_stop_between_samples),
		cmocka_unit_test(test_hostile_ring),
		cmocka_unit_test(test_random_damage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
