/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness for the stream reader and the profile model, as bmprof record uses
 * them: the input is pushed in chunks whose sizes the input itself chooses, each frame is
 * applied to a profile, and the result is checked against invariants that hold for any
 * input:
 *   - every byte is accounted for: text + skipped + frame bytes == input length;
 *   - on_frame is called frames_ok times, each time with the raw frame around the payload,
 *     a magic, and a CRC that checks (recomputed here with zlib);
 *   - the reader holds back at most one frame, and only from a magic (prefix) on;
 *   - chunking does not matter: capture.c fed the whole input at once sees the same text,
 *     the same statistics and builds the same model;
 *   - the profile file made of these frames loads into that same model;
 *   - the model's sums agree (sample counts, per-CPU received).
 *
 * Input: byte 0 gives k = byte0 & 15 chunk-size bytes that follow, cycled (0: the rest in
 * one push; 1..127: that many bytes; 128..255: (b - 127) * 512 bytes); the stream is what
 * comes after them. Bit 4 of byte 0 set: the frames laid end to end in the stream get
 * their correct CRCs first (see fixcrc.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "profile/capture.h"
#include "fixcrc.h"
#include "profile.h"
#include "profile/profile_io.h"
#include "host/reader.h"

#define FRAME_MAX (BMPROF_FRAME_HDR + BMPROF_WIRE_MAX_PAYLOAD + BMPROF_FRAME_CRC)

#define CHECK(c)                                                                          \
	do {                                                                              \
		if (!(c)) {                                                               \
			fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #c); \
			abort();                                                          \
		}                                                                         \
	} while (0)

struct buf {
	uint8_t *p;
	size_t n, cap;
};

static void put(struct buf *b, const void *p, size_t n)
{
	if (!n)
		return;
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2;
		b->p = realloc(b->p, b->cap);
		CHECK(b->p);
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

struct run {
	struct reader r;
	struct profile prof;
	struct buf text;
	struct buf file;          /* the profile file these frames make */
	uint64_t frames, frame_bytes;
};

static void on_frame(void *ctx, uint8_t type, const uint8_t *payload, uint16_t len)
{
	struct run *u = ctx;
	size_t rawlen;
	const uint8_t *raw = reader_raw_frame(&u->r, &rawlen);

	CHECK(raw && rawlen == (size_t)len + BMPROF_FRAME_HDR + BMPROF_FRAME_CRC);
	CHECK(raw + BMPROF_FRAME_HDR == payload && raw[4] == type);
	CHECK(raw[0] == BMPROF_MAGIC0 && raw[1] == BMPROF_MAGIC1 && raw[2] == BMPROF_MAGIC2 &&
	      raw[3] == BMPROF_MAGIC3 && bmprof_get16(raw + 6) == len);
	CHECK(crc32(0, raw + 4, (uInt)(rawlen - 8)) == bmprof_get32(raw + rawlen - 4));
	u->frames++;
	u->frame_bytes += rawlen;
	put(&u->file, raw, rawlen);
	if (profile_apply_frame(&u->prof, type, payload, len) == 1)
		reader_count_unknown(&u->r);
}

static void on_text(void *ctx, const char *text, size_t len)
{
	CHECK(len > 0);
	put(&((struct run *)ctx)->text, text, len);
}

static size_t chunk_size(uint8_t b, size_t rest)
{
	size_t k = !b ? rest : b < 128 ? b : (size_t)(b - 127) * 512;

	return k < rest ? k : rest;
}

/* Whatever the reader holds back starts a frame: a magic or a prefix of one. */
static void check_held(const struct reader *r)
{
	static const uint8_t magic[4] = { BMPROF_MAGIC0, BMPROF_MAGIC1, BMPROF_MAGIC2,
					  BMPROF_MAGIC3 };

	CHECK(r->have < FRAME_MAX);
	CHECK(!r->have || !memcmp(r->buf + r->start, magic, r->have < 4 ? r->have : 4));
}

static void check_model(const struct profile *p)
{
	uint64_t sum = 0, received = 0;

	for (size_t i = 0; i < p->nsamples; i++) {
		CHECK(p->samples[i].count > 0 && p->samples[i].cpu < PROFILE_MAX_CPUS);
		sum += p->samples[i].count;
	}
	for (unsigned c = 0; c < PROFILE_MAX_CPUS; c++) {
		received += p->cpus[c].received;
		CHECK(!p->cpus[c].seen || c < p->ncpus_seen);
	}
	CHECK(sum == p->total && received == p->total);
	CHECK(p->nevents <= PROFILE_MAX_EVENTS && p->ncpus_seen <= PROFILE_MAX_CPUS);
	CHECK(!p->have_hello || p->hello.build_id_len <= BMPROF_BUILD_ID_MAX);
}

/* Field by field: the structs have padding. */
static int same_sample(const struct profile_sample *a, const struct profile_sample *b)
{
	return a->pc == b->pc && a->count == b->count && a->event == b->event && a->cpu == b->cpu;
}

static int same_count(const struct profile_count *a, const struct profile_count *b)
{
	return a->cpu == b->cpu && a->event == b->event && a->flags == b->flags &&
	       a->value == b->value && a->enabled == b->enabled && a->running == b->running;
}

static int same_event(const struct profile_event *a, const struct profile_event *b)
{
	return a->id == b->id && a->source == b->source && a->flags == b->flags &&
	       a->encoding == b->encoding && a->period == b->period && a->jitter == b->jitter &&
	       !strcmp(a->name, b->name) && a->have_status == b->have_status &&
	       a->status == b->status && a->reason == b->reason &&
	       a->counter_kind == b->counter_kind && a->counter == b->counter &&
	       a->group == b->group && a->ngroups == b->ngroups;
}

static int same_end(const struct profile *a, const struct profile *b)
{
	return a->end.exit_code == b->end.exit_code && a->end.reason == b->end.reason &&
	       a->end.vector == b->end.vector && a->end.fault_pc == b->end.fault_pc &&
	       a->end.fault_addr == b->end.fault_addr;
}

static int same_hello(const struct profile_hello *a, const struct profile_hello *b)
{
	return a->version == b->version && a->arch == b->arch && a->source == b->source &&
	       a->ncpus == b->ncpus && a->timebase_hz == b->timebase_hz &&
	       a->load_bias == b->load_bias && !memcmp(a->vendor, b->vendor, sizeof(a->vendor)) &&
	       a->family == b->family && a->model == b->model && a->stepping == b->stepping &&
	       a->signature == b->signature && a->build_id_len == b->build_id_len &&
	       !memcmp(a->build_id, b->build_id, a->build_id_len);
}

static int same_cpu(const struct profile_cpu *a, const struct profile_cpu *b)
{
	return a->seen == b->seen && a->have_totals == b->have_totals &&
	       !memcmp(a->totals, b->totals, sizeof(a->totals)) && a->received == b->received &&
	       a->frames == b->frames && a->seq_gaps == b->seq_gaps &&
	       a->seq_repeats == b->seq_repeats && a->next_seq == b->next_seq &&
	       a->ntotals == b->ntotals;
}

/* The parts of two models that must agree (meta aside: capture adds date and host). */
static void check_same_model(const struct profile *a, const struct profile *b)
{
	CHECK(a->have_hello == b->have_hello && a->have_end == b->have_end);
	CHECK(!a->have_hello || same_hello(&a->hello, &b->hello));
	CHECK(!a->have_end || same_end(a, b));
	CHECK(a->nevents == b->nevents);
	for (unsigned i = 0; i < a->nevents; i++)
		CHECK(same_event(&a->events[i], &b->events[i]));
	CHECK(a->ncpus_seen == b->ncpus_seen);
	for (unsigned i = 0; i < PROFILE_MAX_CPUS; i++)
		CHECK(same_cpu(&a->cpus[i], &b->cpus[i]));
	CHECK(a->nsamples == b->nsamples && a->total == b->total);
	for (size_t i = 0; i < a->nsamples; i++)
		CHECK(same_sample(&a->samples[i], &b->samples[i]));
	CHECK(a->ncounts == b->ncounts);
	for (size_t i = 0; i < a->ncounts; i++)
		CHECK(same_count(&a->counts[i], &b->counts[i]));
	CHECK(a->frames_ok == b->frames_ok && a->frames_bad_crc == b->frames_bad_crc);
	CHECK(a->frames_unknown == b->frames_unknown && a->bytes_skipped == b->bytes_skipped);
	CHECK(a->frames_malformed == b->frames_malformed && a->truncated == b->truncated);
	CHECK(a->have_stream == b->have_stream && a->hellos == b->hellos);
	CHECK(a->hello_mismatch == b->hello_mismatch);
}

static void append_frame(void *ctx, uint8_t type, const uint8_t *payload, uint16_t len)
{
	uint8_t hdr[BMPROF_FRAME_HDR] = { BMPROF_MAGIC0, BMPROF_MAGIC1, BMPROF_MAGIC2,
					  BMPROF_MAGIC3, type, 0 };
	uint8_t tail[BMPROF_FRAME_CRC];

	bmprof_put16(hdr + 6, len);
	bmprof_put32(tail, (uint32_t)crc32(crc32(0, hdr + 4, 4), payload, len));
	put(ctx, hdr, sizeof(hdr));
	put(ctx, payload, len);
	put(ctx, tail, sizeof(tail));
}

static int emit_meta(void *ctx, const uint8_t *payload, uint16_t len)
{
	append_frame(ctx, BMPROF_FRAME_HOST_META, payload, len);
	return 0;
}

/* Capture the whole stream in one push, as bmprof qemu does. */
static void check_capture(const struct run *u, const uint8_t *s, size_t n)
{
	struct capture_opts o = { .on_text = on_text };
	struct run ref = { 0 };
	char err[256];
	struct capture *c;

	o.ctx = &ref;
	c = capture_open(&o, err, sizeof(err));
	CHECK(c);
	capture_push(c, s, n);
	capture_finish(c);
	CHECK(!memcmp(capture_stats(c), &u->r.st, sizeof(u->r.st)));
	CHECK(ref.text.n == u->text.n && (!ref.text.n || !memcmp(ref.text.p, u->text.p,
								  ref.text.n)));
	check_same_model(capture_profile(c), &u->prof);
	capture_free(c);
	free(ref.text.p);
}

/* The profile file bmprof record would write loads back into the same model. */
static void check_reload(struct run *u)
{
	static const struct bm_kv format = { "format", PROFILE_FORMAT };
	struct buf f = { 0 };
	struct profile p;
	char err[256];

	CHECK(profile_meta_frames(&format, 1, emit_meta, &f) == 0);
	put(&f, u->file.p, u->file.n);
	free(u->file.p);
	u->file = f;
	profile_init(&p);
	err[0] = 0;
	CHECK(profile_load_mem(f.p, f.n, "fuzz", &p, err, sizeof(err)) == 0);
	CHECK(!p.file_truncated);
	check_same_model(&p, &u->prof);
	profile_free(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run u = { 0 };
	const uint8_t *chunks = data + 1, *s;
	uint8_t *fixed = NULL;
	size_t nchunks, n, off = 0, i = 0;
	uint8_t st[PROFILE_STREAM_LEN];

	if (!size)
		return 0;
	nchunks = data[0] & 15;
	if (size < 1 + nchunks)
		return 0;
	s = data + 1 + nchunks;
	n = size - 1 - nchunks;
	if (data[0] & 0x10) {
		fixed = malloc(n ? n : 1);
		CHECK(fixed);
		memcpy(fixed, s, n);
		fix_crcs(fixed, n);
		s = fixed;
	}

	profile_init(&u.prof);
	CHECK(reader_init(&u.r, on_frame, on_text, &u) == 0);
	while (off < n) {
		size_t k = chunk_size(nchunks ? chunks[i++ % nchunks] : 0, n - off);

		reader_push(&u.r, s + off, k);
		off += k;
		check_held(&u.r);
	}
	reader_finish(&u.r);
	CHECK(u.r.raw == NULL);

	/* what bmprof record appends at the end, to the file and to the model */
	profile_stream_encode(&u.r.st, st);
	append_frame(&u.file, BMPROF_FRAME_HOST_STREAM, st, sizeof(st));
	CHECK(profile_apply_frame(&u.prof, BMPROF_FRAME_HOST_STREAM, st, sizeof(st)) == 0);
	CHECK(profile_settle(&u.prof) == 0);

	CHECK(u.frames == u.r.st.frames_ok);
	CHECK(u.text.n == u.r.st.text_bytes);
	CHECK(u.r.st.text_bytes + u.r.st.bytes_skipped + u.frame_bytes == n);
	CHECK(u.r.st.frames_unknown <= u.r.st.frames_ok);
	check_model(&u.prof);
	check_capture(&u, s, n);
	check_reload(&u);

	reader_free(&u.r);
	profile_free(&u.prof);
	free(u.text.p);
	free(u.file.p);
	free(fixed);
	return 0;
}
