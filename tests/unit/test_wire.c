/* SPDX-License-Identifier: BSD-2-Clause */
/* Both sides of the wire together: frames built by the target emitter and the target core
 * go through the host reader and the profile model, and every field comes back. CRC-32
 * against zlib, every single-bit error rejected, and the worked SAMPLES example printed in
 * docs/wire-format.md. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <zlib.h>

#include "bmprof.h"
#include "host/reader.h"
#include "profile.h"
#include "../../target/core/core.h"

/* ---- a sink for the target and a reader feeding a profile ---- */

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

static int sink_write(void *ctx, const void *buf, size_t len)
{
	put(ctx, buf, len);
	return 0;
}

struct host {
	struct reader r;
	struct profile p;
	unsigned frames, unknown, malformed;
	uint8_t types[64];        /* types of the first frames delivered */
};

static void host_frame(void *ctx, uint8_t type, const uint8_t *payload, uint16_t len)
{
	struct host *h = ctx;
	int r = profile_apply_frame(&h->p, type, payload, len);

	if (h->frames < sizeof(h->types))
		h->types[h->frames] = type;
	h->frames++;
	if (r == 1)
		h->unknown++;
	if (r < 0)
		h->malformed++;
}

static struct host *host_new(void)
{
	struct host *h = calloc(1, sizeof(*h));

	assert_non_null(h);
	profile_init(&h->p);
	assert_int_equal(reader_init(&h->r, host_frame, NULL, h), 0);
	return h;
}

/* Feed b and settle the samples, as profile_load does. */
static void host_feed(struct host *h, const struct bytes *b)
{
	reader_push(&h->r, b->p, b->n);
	reader_finish(&h->r);
	assert_int_equal(profile_settle(&h->p), 0);
}

static void host_free(struct host *h)
{
	reader_free(&h->r);
	profile_free(&h->p);
	free(h);
}

static const uint8_t build_id[20] = {
	0x1a, 0x2b, 0x3c, 0x4d, 0x5e, 0x6f, 0x70, 0x81, 0x92, 0xa3,
	0xb4, 0xc5, 0xd6, 0xe7, 0xf8, 0x09, 0x10, 0x21, 0x32, 0x43,
};

static void emit_hello(struct bytes *b, const char *vendor)
{
	struct bmprof_out out = { sink_write, b };
	struct bmprof_hello h = {
		.arch = BMPROF_ARCH_AARCH64, .source = BMPROF_SOURCE_PMU, .ncpus = 513,
		.timebase_hz = 62500000, .load_bias = 0xfffffff000000000ull,
		.family = 0x41, .model = 0xd0c, .stepping = 1, .signature = 0x413fd0c1,
		.build_id_len = sizeof(build_id), .build_id = build_id,
		.core_hz = 2400000000ull,
	};

	memcpy(h.vendor, vendor, strnlen(vendor, 16));
	assert_int_equal(bmprof_emit_hello(&out, &h), 0);
}

/* ---- CRC ---- */

static void test_crc32_matches_zlib(void **state)
{
	uint8_t buf[3000];

	assert_int_equal(bmprof_crc32(0, "123456789", 9), 0xCBF43926u);
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 2654435761u >> 13);
	for (size_t n = 0; n <= sizeof(buf); n += 37) {
		uint32_t z = (uint32_t)crc32(0, buf, (uInt)n);

		assert_int_equal(bmprof_crc32(0, buf, n), z);
		/* chained */
		assert_int_equal(bmprof_crc32(bmprof_crc32(0, buf, n / 3), buf + n / 3, n - n / 3), z);
	}
}

/* ---- HELLO, EVENT, END from the target emitter ---- */

static void test_hello_round_trip(void **state)
{
	struct bytes b = { 0 };
	struct host *h = host_new();
	const struct profile_hello *ph = &h->p.hello;

	emit_hello(&b, "ARM");
	host_feed(h, &b);
	assert_int_equal(h->frames, 1);
	assert_true(h->p.have_hello);
	assert_int_equal(ph->version, BMPROF_WIRE_VERSION);
	assert_int_equal(ph->arch, BMPROF_ARCH_AARCH64);
	assert_int_equal(ph->source, BMPROF_SOURCE_PMU);
	assert_int_equal(ph->ncpus, 513);
	assert_int_equal(ph->timebase_hz, 62500000);
	assert_int_equal(ph->load_bias, 0xfffffff000000000ull);
	assert_string_equal(ph->vendor, "ARM");
	assert_int_equal(ph->family, 0x41);
	assert_int_equal(ph->model, 0xd0c);
	assert_int_equal(ph->stepping, 1);
	assert_int_equal(ph->signature, 0x413fd0c1);
	assert_int_equal(ph->build_id_len, sizeof(build_id));
	assert_memory_equal(ph->build_id, build_id, sizeof(build_id));
	assert_int_equal(ph->core_hz, 2400000000ull);
	host_free(h);

	/* a vendor filling all 16 bytes comes back NUL-terminated */
	b.n = 0;
	h = host_new();
	emit_hello(&b, "0123456789abcdef");
	host_feed(h, &b);
	assert_string_equal(h->p.hello.vendor, "0123456789abcdef");
	host_free(h);
	free(b.p);
}

static void test_event_round_trip(void **state)
{
	struct bytes b = { 0 };
	struct bmprof_out out = { sink_write, &b };
	char longname[300];
	struct bmprof_event_desc e1 = {
		.id = 7, .source = BMPROF_SOURCE_PMU, .flags = BMPROF_EVENT_RANDOMIZED,
		.encoding = 0x5300c0, .period = 64000, .jitter = 4000, .name = "INST_RETIRED.ANY",
	};
	struct bmprof_event_desc e2 = { .id = 0xffff, .source = BMPROF_SOURCE_TIMER, .name = "" };
	struct bmprof_event_desc e3 = { .id = 3, .period = 1, .name = longname };
	struct host *h = host_new();
	const struct profile_event *pe;

	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = 0;
	assert_int_equal(bmprof_emit_event(&out, &e1), 0);
	assert_int_equal(bmprof_emit_event(&out, &e2), 0);
	assert_int_equal(bmprof_emit_event(&out, &e3), 0);
	host_feed(h, &b);
	assert_int_equal(h->malformed, 0);
	assert_int_equal(h->p.nevents, 3);
	pe = profile_event(&h->p, 7);
	assert_non_null(pe);
	assert_int_equal(pe->source, BMPROF_SOURCE_PMU);
	assert_int_equal(pe->flags, BMPROF_EVENT_RANDOMIZED);
	assert_int_equal(pe->encoding, 0x5300c0);
	assert_int_equal(pe->period, 64000);
	assert_int_equal(pe->jitter, 4000);
	assert_string_equal(pe->name, "INST_RETIRED.ANY");
	pe = profile_event(&h->p, 0xffff);
	assert_non_null(pe);
	assert_int_equal(pe->source, BMPROF_SOURCE_TIMER);
	assert_string_equal(pe->name, "");
	pe = profile_event(&h->p, 3);
	assert_non_null(pe);
	assert_int_equal(strlen(pe->name), 255);       /* the emitter cuts at 255 */
	assert_null(profile_event(&h->p, 4));
	host_free(h);
	free(b.p);
}

static void test_end_round_trip(void **state)
{
	struct bytes b = { 0 };
	struct bmprof_out out = { sink_write, &b };
	struct bmprof_end e = {
		.exit_code = -3, .reason = BMPROF_END_EXCEPTION, .vector = 14,
		.fault_pc = 0xffffffff81234567ull, .fault_addr = 0xdeadbeef000ull,
	};
	struct host *h = host_new();

	assert_int_equal(bmprof_emit_end(&out, &e), 0);
	host_feed(h, &b);
	assert_true(h->p.have_end);
	assert_int_equal(h->p.end.exit_code, -3);
	assert_int_equal(h->p.end.reason, BMPROF_END_EXCEPTION);
	assert_int_equal(h->p.end.vector, 14);
	assert_int_equal(h->p.end.fault_pc, 0xffffffff81234567ull);
	assert_int_equal(h->p.end.fault_addr, 0xdeadbeef000ull);
	host_free(h);
	free(b.p);
}

/* A raw frame of any type through bmprof_emit_frame, including an empty and a maximal one. */
static void test_emit_frame_round_trip(void **state)
{
	struct bytes b = { 0 };
	struct bmprof_out out = { sink_write, &b };
	uint8_t *big = malloc(BMPROF_WIRE_MAX_PAYLOAD);
	struct host *h = host_new();

	assert_non_null(big);
	for (size_t i = 0; i < BMPROF_WIRE_MAX_PAYLOAD; i++)
		big[i] = (uint8_t)(i * 31);
	assert_int_equal(bmprof_emit_frame(&out, 0x66, NULL, 0), 0);
	assert_int_equal(bmprof_emit_frame(&out, 0x67, big, BMPROF_WIRE_MAX_PAYLOAD), 0);
	host_feed(h, &b);
	assert_int_equal(h->frames, 2);
	assert_int_equal(h->unknown, 2);                /* unknown types: skipped, not fatal */
	assert_int_equal(h->types[0], 0x66);
	assert_int_equal(h->types[1], 0x67);
	assert_int_equal(h->r.st.frames_ok, 2);
	assert_int_equal(b.n, 12 + 12 + BMPROF_WIRE_MAX_PAYLOAD);
	host_free(h);
	free(big);
	free(b.p);
}

/* ---- SAMPLES and TOTALS from the target core ---- */

#define NCPU 2
#define NPC 600
#define NEV 3

static uint64_t pc_of(unsigned i)
{
	/* low and high halves of the address space: deltas of both signs and large size */
	return i % 5 == 0 ? 0xffffffff80000000ull + i * 3 : 0x100000 + i * 4;
}

struct run {
	struct bytes frames;                 /* what the target sent */
	uint32_t truth[NCPU][NPC][NEV];
	uint64_t taken[NCPU];
};

/* Two CPUs sample a skewed pc distribution through small tables, so there are evictions,
 * drains of overflow buffers and a final flush, as in a real run. */
static void target_run(struct run *run, unsigned nsamples)
{
	struct bmprof_out out = { sink_write, &run->frames };
	struct bmprof_cpu cpu[NCPU];
	void *mem[NCPU];
	uint64_t x = 88172645463325252ull;

	memset(run, 0, sizeof(*run));
	for (int c = 0; c < NCPU; c++) {
		size_t sz = bmprof_cpu_mem_size(64, 32);

		mem[c] = aligned_alloc(64, (sz + 63) / 64 * 64);
		assert_non_null(mem[c]);
		assert_int_equal(bmprof_cpu_init(&cpu[c], (uint16_t)c, mem[c], sz, 64, 32, 1), 0);
	}
	for (unsigned s = 0; s < nsamples; s++) {
		unsigned c, i, e;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		c = (unsigned)(x % NCPU);
		i = (unsigned)((x >> 8) % NPC);
		if ((x >> 20) & 1)
			i = i % 16;                  /* hot spots */
		e = (unsigned)((x >> 30) % NEV);
		bmprof_record(&cpu[c], pc_of(i), (uint16_t)e);
		run->truth[c][i][e]++;
		run->taken[c]++;
		if (bmprof_drain_pending(&cpu[c]))
			bmprof_drain(&cpu[c], &out);
	}
	for (int c = 0; c < NCPU; c++) {
		cpu[c].sampled_ticks = 1000000u * (c + 1);
		bmprof_flush(&cpu[c], &out);
		free(mem[c]);
	}
}

/* Offsets of the frames in a buffer that holds only frames. */
static size_t frame_offsets(const struct bytes *b, size_t *off, size_t max)
{
	size_t n = 0, o = 0;

	while (o < b->n && n < max) {
		off[n++] = o;
		o += 12 + bmprof_get16(b->p + o + 6);
	}
	assert_int_equal(o, b->n);
	return n;
}

static uint64_t count_of(const struct profile *p, unsigned cpu, uint64_t pc, unsigned ev)
{
	for (size_t i = 0; i < p->nsamples; i++) {
		const struct profile_sample *s = &p->samples[i];

		if (s->cpu == cpu && s->pc == pc && s->event == ev)
			return s->count;
	}
	return 0;
}

static void test_samples_and_totals_from_core(void **state)
{
	struct run *run = malloc(sizeof(*run));
	struct bytes stream = { 0 };
	size_t off[4096], nf;
	struct host *h = host_new();
	uint64_t total = 0;
	char line[32];

	assert_non_null(run);
	target_run(run, 50000);
	nf = frame_offsets(&run->frames, off, 4096);
	assert_true(nf > 10);
	/* console text between frames, as on a shared UART */
	for (size_t k = 0; k < nf; k++) {
		size_t end = k + 1 < nf ? off[k + 1] : run->frames.n;

		snprintf(line, sizeof(line), "log line %zu\n", k);
		put(&stream, line, strlen(line));
		put(&stream, run->frames.p + off[k], end - off[k]);
	}
	host_feed(h, &stream);
	assert_int_equal(h->malformed, 0);
	assert_int_equal(h->r.st.frames_ok, nf);
	assert_int_equal(h->r.st.frames_bad_crc, 0);
	assert_int_equal(h->p.ncpus_seen, NCPU);
	for (unsigned c = 0; c < NCPU; c++) {
		const struct profile_cpu *pc = &h->p.cpus[c];

		for (unsigned i = 0; i < NPC; i++)
			for (unsigned e = 0; e < NEV; e++)
				assert_int_equal(count_of(&h->p, c, pc_of(i), e), run->truth[c][i][e]);
		assert_true(pc->have_totals);
		assert_int_equal(pc->totals[BMPROF_TOTAL_TAKEN], run->taken[c]);
		assert_int_equal(pc->totals[BMPROF_TOTAL_DELIVERED], run->taken[c]);
		assert_int_equal(pc->totals[BMPROF_TOTAL_LOST_FULL], 0);
		assert_int_equal(pc->totals[BMPROF_TOTAL_LOST_TRANSPORT], 0);
		assert_int_equal(pc->totals[BMPROF_TOTAL_FRAMES], pc->frames);
		assert_true(pc->totals[BMPROF_TOTAL_EVICTIONS] > 0);
		assert_int_equal(pc->ntotals, BMPROF_TOTAL_NFIELDS);
		assert_int_equal(pc->totals[BMPROF_TOTAL_SAMPLED_TICKS], 1000000u * (c + 1));
		assert_int_equal(pc->received, run->taken[c]);
		assert_int_equal(pc->seq_gaps, 0);
		assert_int_equal(profile_cpu_lost_in_transit(pc), 0);
		total += run->taken[c];
	}
	assert_int_equal(h->p.total, total);
	host_free(h);

	/* one SAMPLES frame lost in transit: the host sees the gap and how many samples */
	h = host_new();
	{
		size_t k = 3, end = off[k + 1];
		const uint8_t *f = run->frames.p + off[k];
		uint16_t cpu = bmprof_get16(f + 8);
		struct bytes cut = { 0 };
		struct host *whole = host_new();
		struct bytes one = { 0 };

		assert_int_equal(f[4], BMPROF_FRAME_SAMPLES);
		put(&one, f, end - off[k]);
		host_feed(whole, &one);                 /* what that frame carried */
		put(&cut, run->frames.p, off[k]);
		put(&cut, run->frames.p + end, run->frames.n - end);
		host_feed(h, &cut);
		assert_int_equal(h->p.cpus[cpu].seq_gaps, 1);
		assert_int_equal(h->p.cpus[1 - cpu].seq_gaps, 0);
		assert_int_equal(profile_cpu_lost_in_transit(&h->p.cpus[cpu]), whole->p.total);
		assert_true(whole->p.total > 0);
		host_free(whole);
		free(cut.p);
		free(one.p);
	}
	host_free(h);
	free(stream.p);
	free(run->frames.p);
	free(run);
}

/* Wire 1.2 appended HELLO's core_hz (after the build-id) and TOTALS' sampled_ticks (after
 * the eight fields of 1.1). The fields a 1.1 reader knows keep their offsets, and it
 * ignores what follows; a 1.2 reader takes a 1.1 stream with the new fields 0 (unknown). */
static void test_wire_1_2_compat(void **state)
{
	struct bytes b = { 0 };
	struct host *h = host_new();
	uint8_t p[4 + 8 * BMPROF_TOTAL_NFIELDS];
	struct bmprof_out out = { sink_write, &b };

	/* the new HELLO: fixed part and build-id where they were, core_hz after them */
	emit_hello(&b, "ARM");
	assert_int_equal(bmprof_get16(b.p + 6), BMPROF_HELLO_FIXED + sizeof(build_id) + 8);
	assert_memory_equal(b.p + 8 + BMPROF_HELLO_FIXED, build_id, sizeof(build_id));
	assert_int_equal(bmprof_get64(b.p + 8 + BMPROF_HELLO_FIXED + sizeof(build_id)),
			 2400000000ull);
	/* a 1.1 HELLO (no core_hz) and TOTALS (eight fields) */
	b.n = 0;
	for (unsigned i = 0; i < 60; i++)
		p[i] = 0;
	bmprof_put16(p, BMPROF_WIRE_VERSION);
	p[2] = BMPROF_ARCH_X86_64;
	bmprof_put64(p + 8, 1000000000);
	assert_int_equal(bmprof_emit_frame(&out, BMPROF_FRAME_HELLO, p, BMPROF_HELLO_FIXED), 0);
	bmprof_put16(p, 0);
	bmprof_put16(p + 2, BMPROF_TOTAL_SAMPLED_TICKS);
	for (unsigned i = 0; i < BMPROF_TOTAL_SAMPLED_TICKS; i++)
		bmprof_put64(p + 4 + 8 * i, 7 + i);
	assert_int_equal(bmprof_emit_frame(&out, BMPROF_FRAME_TOTALS, p,
					   (uint16_t)(4 + 8 * BMPROF_TOTAL_SAMPLED_TICKS)), 0);
	host_feed(h, &b);
	assert_int_equal(h->malformed, 0);
	assert_true(h->p.have_hello);
	assert_int_equal(h->p.hello.timebase_hz, 1000000000);
	assert_int_equal(h->p.hello.core_hz, 0);
	assert_int_equal(h->p.cpus[0].ntotals, BMPROF_TOTAL_SAMPLED_TICKS);
	assert_int_equal(h->p.cpus[0].totals[BMPROF_TOTAL_FRAMES], 7 + BMPROF_TOTAL_FRAMES);
	assert_int_equal(h->p.cpus[0].totals[BMPROF_TOTAL_SAMPLED_TICKS], 0);
	host_free(h);
	free(b.p);
}

/* ---- raw samples (version 3) ---- */

/* Target ring -> RAW_SAMPLES frames -> reader -> model: every register of every record
 * comes back in DWARF order, with the data address where the record has one; registers up
 * to 2^64 - 1 and pcs in the high half survive the varints. */
static void test_raw_round_trip(void **state)
{
	struct bmprof_cpu c;
	static struct bmprof_raw ring[8];
	static uint8_t mem[1 << 14] __attribute__((aligned(64)));
	struct bytes b = { 0 };
	struct bmprof_out out = { sink_write, &b };
	struct host *h = host_new();

	(void)state;
	assert_int_equal(bmprof_cpu_init(&c, 2, mem, sizeof mem, 64, 16, 1), 0);
	assert_int_equal(bmprof_raw_init(&c, ring, sizeof ring, 8, BMPROF_ARCH_AARCH64, 32), 0);
	for (unsigned i = 0; i < 6; i++) {
		struct bmprof_raw x = { .pc = 0xffff800000001000ull + 4 * i, .event = (uint16_t)i,
					.valid = i == 5 ? 0 : 0xffffffffu >> i };
		for (unsigned r = 0; r < 32; r++)
			x.r[r] = r == 31 ? UINT64_MAX - i : (uint64_t)r << (2 * r);
		if (i & 1) {
			x.flags = BMPROF_RAWF_DATA_ADDR;
			x.data_addr = 0x4000beef + i;
		}
		bmprof_record_raw(&c, &x);
	}
	bmprof_flush(&c, &out);
	host_feed(h, &b);
	assert_int_equal(h->malformed, 0);
	assert_int_equal(h->unknown, 0);
	assert_int_equal(h->p.nraw, 6);
	for (unsigned i = 0; i < 6; i++) {
		const struct profile_raw *r = &h->p.raw[i];
		uint32_t valid = i == 5 ? 0 : 0xffffffffu >> i;
		assert_int_equal(r->cpu, 2);
		assert_int_equal(r->event, i);
		assert_int_equal(r->regs.arch, BMPROF_ARCH_AARCH64);
		assert_int_equal(r->regs.n, 32);
		assert_int_equal(r->regs.valid, valid);
		assert_int_equal(r->regs.pc, 0xffff800000001000ull + 4 * i);
		assert_int_equal(r->flags, i & 1 ? BMPROF_RAWF_DATA_ADDR : 0);
		assert_int_equal(r->data_addr, i & 1 ? 0x4000beef + i : 0);
		for (unsigned k = 0; k < 32; k++)
			assert_int_equal(r->regs.r[k], !(valid >> k & 1) ? 0 :
					 k == 31 ? UINT64_MAX - i : (uint64_t)k << (2 * k));
	}
	assert_int_equal(h->p.cpus[2].raw_received, 6);
	assert_int_equal(h->p.cpus[2].totals[BMPROF_TOTAL_RAW_TAKEN], 6);
	assert_int_equal(h->p.cpus[2].totals[BMPROF_TOTAL_RAW_DELIVERED], 6);
	assert_int_equal(h->p.cpus[2].ntotals, BMPROF_TOTAL_NFIELDS);
	host_free(h);
	free(b.p);
}

/* Hand-built payloads: a frame is taken whole or not at all. */
static void test_raw_malformed(void **state)
{
	/* cpu 0, n 2, seq 0, x86-64, 16 slots; record 1: event 1, flags 0, valid {rsp}, pc
	 * 0x10, rsp 0x20; record 2 the same with DATA_ADDR 0x30 */
	uint8_t ok[] = { 0, 0, 2, 0, 0, 0, 0, 0, 1, 16, 0, 0,
			 1, 0, 0x80, 0x01, 0x10, 0x20,
			 1, 1, 0x80, 0x01, 0x10, 0x30, 0x20 };
	uint8_t bad[sizeof ok];
	struct profile p;

	(void)state;
	profile_init(&p);
	assert_int_equal(profile_apply_frame(&p, BMPROF_FRAME_RAW_SAMPLES, ok, sizeof ok), 0);
	assert_int_equal(p.nraw, 2);
	assert_int_equal(p.raw[0].regs.r[7], 0x20);
	assert_int_equal(p.raw[1].data_addr, 0x30);
	assert_int_equal(p.raw[1].regs.r[7], 0x20);
	/* cut anywhere inside the records: refused, nothing kept */
	for (size_t n = 0; n < sizeof ok; n++)
		assert_int_equal(profile_apply_frame(&p, BMPROF_FRAME_RAW_SAMPLES, ok, (uint16_t)n), -1);
	/* an unknown flag, a register past nregs, nregs 0 or 33, a CPU out of range */
	memcpy(bad, ok, sizeof ok);
	bad[19] = 4;   /* bits 0 and 1 are DATA_ADDR and PC_EXACT */
	assert_int_equal(profile_apply_frame(&p, BMPROF_FRAME_RAW_SAMPLES, bad, sizeof bad), -1);
	memcpy(bad, ok, sizeof ok);
	bad[9] = 7;
	assert_int_equal(profile_apply_frame(&p, BMPROF_FRAME_RAW_SAMPLES, bad, sizeof bad), -1);
	bad[9] = 0;
	assert_int_equal(profile_apply_frame(&p, BMPROF_FRAME_RAW_SAMPLES, bad, sizeof bad), -1);
	bad[9] = 33;
	assert_int_equal(profile_apply_frame(&p, BMPROF_FRAME_RAW_SAMPLES, bad, sizeof bad), -1);
	memcpy(bad, ok, sizeof ok);
	bad[1] = 0xff;
	assert_int_equal(profile_apply_frame(&p, BMPROF_FRAME_RAW_SAMPLES, bad, sizeof bad), -1);
	assert_int_equal(p.nraw, 2);
	assert_int_equal(p.cpus[0].raw_received, 2);
	assert_int_equal(p.frames_malformed, sizeof ok + 5);
	profile_free(&p);
}

/* ---- single-bit errors ---- */

/* Flip every bit of a HELLO frame in turn: the damaged frame is never accepted, and the END
 * frame after it is always found. */
static void test_every_bit_flip_rejected(void **state)
{
	struct bytes b = { 0 };
	struct bmprof_out out = { sink_write, &b };
	struct bmprof_end e = { .exit_code = 5 };
	size_t hello_len;

	emit_hello(&b, "GenuineIntel");
	hello_len = b.n;
	assert_int_equal(bmprof_emit_end(&out, &e), 0);
	for (size_t bit = 0; bit < hello_len * 8; bit++) {
		struct host *h = host_new();

		b.p[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		host_feed(h, &b);
		b.p[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		assert_false(h->p.have_hello);
		assert_int_equal(h->frames, 1);
		assert_int_equal(h->types[0], BMPROF_FRAME_END);
		assert_true(h->p.have_end);
		assert_int_equal(h->p.end.exit_code, 5);
		/* a flip in the magic makes the frame text; anywhere else it is a bad frame */
		if (bit < 32)
			assert_int_equal(h->r.st.frames_bad_crc, 0);
		else
			assert_true(h->r.st.frames_bad_crc + (uint64_t)h->r.st.truncated >= 1);
		host_free(h);
	}
	free(b.p);
}

/* ---- the worked example of docs/wire-format.md ---- */

static const uint8_t worked_example[] = {
	0xb5, 0x42, 0x4d, 0x50, 0x03, 0x00, 0x15, 0x00,             /* header: SAMPLES, 21 bytes */
	0x01, 0x00, 0x03, 0x00, 0x07, 0x00, 0x00, 0x00,             /* cpu 1, n 3, seq 7 */
	0x00, 0x80, 0x80, 0x80, 0x80, 0x10, 0x05,                   /* ev 0, +0x80000000, 5 */
	0x00, 0x20, 0x02,                                           /* ev 0, +0x10, 2 */
	0x01, 0x3f, 0x01,                                           /* ev 1, -0x20, 1 */
	0x04, 0xd6, 0x47, 0xa6,                                     /* CRC 0xa647d604 */
};

static void test_worked_example(void **state)
{
	struct bytes b = { 0 };
	struct bmprof_out out = { sink_write, &b };
	struct bmprof_cpu c = { .cpu_id = 1, .frames = 7 };
	struct bmprof_entry e[3] = {
		{ .pc = 0x80000000, .count = 5, .event = 0 },
		{ .pc = 0x80000010, .count = 2, .event = 0 },
		{ .pc = 0x7ffffff0, .count = 1, .event = 1 },
	};
	const size_t n = sizeof(worked_example);
	struct host *h = host_new();

	bmprof_send_entries(&c, &out, e, 3, BMPROF_XFER_OVF0);
	assert_int_equal(b.n, n);
	assert_memory_equal(b.p, worked_example, n);
	/* the CRC in the document is zlib's crc32 of type .. payload */
	assert_int_equal(crc32(0, worked_example + 4, (uInt)(n - 8)),
			 bmprof_get32(worked_example + n - 4));

	host_feed(h, &b);
	assert_int_equal(h->p.nsamples, 3);
	assert_int_equal(count_of(&h->p, 1, 0x80000000, 0), 5);
	assert_int_equal(count_of(&h->p, 1, 0x80000010, 0), 2);
	assert_int_equal(count_of(&h->p, 1, 0x7ffffff0, 1), 1);
	assert_int_equal(h->p.cpus[1].next_seq, 8);
	assert_int_equal(h->p.cpus[1].seq_gaps, 7);     /* frames 0..6 never arrived */
	host_free(h);
	free(b.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc32_matches_zlib),
		cmocka_unit_test(test_hello_round_trip),
		cmocka_unit_test(test_event_round_trip),
		cmocka_unit_test(test_end_round_trip),
		cmocka_unit_test(test_emit_frame_round_trip),
		cmocka_unit_test(test_samples_and_totals_from_core),
		cmocka_unit_test(test_every_bit_flip_rejected),
		cmocka_unit_test(test_worked_example),
		cmocka_unit_test(test_wire_1_2_compat),
		cmocka_unit_test(test_raw_round_trip),
		cmocka_unit_test(test_raw_malformed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
