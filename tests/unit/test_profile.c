/* SPDX-License-Identifier: BSD-2-Clause */
/* The profile model (sample store, frame decoding, malformed frames rejected whole, sequence
 * gaps, growth rules), the profile file (capture, write, load round trip, .old rotation,
 * load errors, a truncated file) and the capture summary. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glob.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <dirent.h>

#include "profile/capture.h"
#include "profile.h"
#include "profile_phase.h"
#include "profile/profile_io.h"
#include "report/summary.h"

/* ---- payload builders ---- */

struct buf {
	uint8_t p[70000];
	size_t n;
};

static void b_put(struct buf *b, const void *p, size_t n)
{
	assert_true(b->n + n <= sizeof(b->p));
	if (n)
		memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void b_u16(struct buf *b, uint16_t v)
{
	uint8_t x[2];

	bmprof_put16(x, v);
	b_put(b, x, 2);
}

static void b_u32(struct buf *b, uint32_t v)
{
	uint8_t x[4];

	bmprof_put32(x, v);
	b_put(b, x, 4);
}

static void b_u64(struct buf *b, uint64_t v)
{
	uint8_t x[8];

	bmprof_put64(x, v);
	b_put(b, x, 8);
}

static void b_varint(struct buf *b, uint64_t v)
{
	uint8_t x[BMPROF_VARINT_MAX];

	b_put(b, x, bmprof_put_varint(x, v));
}

struct entry {
	uint64_t ev;                /* the event id, plus the phase << 16 (wire version 3) */
	uint64_t pc, count;
};

static void samples_payload(struct buf *b, uint16_t cpu, uint32_t seq, const struct entry *e,
			    uint16_t n)
{
	uint64_t prev = 0;

	b->n = 0;
	b_u16(b, cpu);
	b_u16(b, n);
	b_u32(b, seq);
	for (uint16_t i = 0; i < n; i++) {
		b_varint(b, e[i].ev);
		b_varint(b, bmprof_zigzag((int64_t)(e[i].pc - prev)));
		b_varint(b, e[i].count);
		prev = e[i].pc;
	}
}

static void totals_payload(struct buf *b, uint16_t cpu, uint16_t nf, const uint64_t *v)
{
	b->n = 0;
	b_u16(b, cpu);
	b_u16(b, nf);
	for (uint16_t i = 0; i < nf; i++)
		b_u64(b, v[i]);
}

static void hello_payload(struct buf *b, uint8_t arch, const uint8_t *id, uint8_t idlen)
{
	uint8_t h[BMPROF_HELLO_FIXED] = { 0 };

	bmprof_put16(h, 1);
	h[2] = arch;
	h[3] = BMPROF_SOURCE_TIMER;
	bmprof_put16(h + 4, 2);
	bmprof_put64(h + 8, 1000000000);
	memcpy(h + 24, "GenuineIntel", 12);
	bmprof_put32(h + 40, 6);
	bmprof_put32(h + 44, 0xcf);
	h[56] = idlen;
	b->n = 0;
	b_put(b, h, sizeof(h));
	b_put(b, id, idlen);
}

static void event_payload(struct buf *b, uint16_t id, const char *name)
{
	b->n = 0;
	b_u16(b, id);
	b_put(b, (uint8_t[]){ BMPROF_SOURCE_TIMER, BMPROF_EVENT_RANDOMIZED }, 2);
	b_u64(b, 0);
	b_u64(b, 100000);
	b_u64(b, 10000);
	b_put(b, (uint8_t[]){ (uint8_t)strlen(name) }, 1);
	b_put(b, name, strlen(name));
}

/* An EVENT frame with the fields appended in wire 1.1. */
static void event_status_payload(struct buf *b, uint16_t id, const char *name, uint8_t source,
				 const uint8_t st[6])
{
	event_payload(b, id, name);
	b->p[2] = source;
	b_put(b, st, 6);
}

struct count_rec {
	uint16_t ev, flags;
	uint64_t value, enabled, running;
};

static void counts_payload(struct buf *b, uint16_t cpu, const struct count_rec *r, uint16_t n)
{
	b->n = 0;
	b_u16(b, cpu);
	b_u16(b, n);
	for (uint16_t i = 0; i < n; i++) {
		b_u16(b, r[i].ev);
		b_u16(b, r[i].flags);
		b_u32(b, 0);
		b_u64(b, r[i].value);
		b_u64(b, r[i].enabled);
		b_u64(b, r[i].running);
	}
}

static void end_payload(struct buf *b, int32_t code)
{
	b->n = 0;
	b_u32(b, (uint32_t)code);
	b_put(b, (uint8_t[]){ BMPROF_END_EXIT, 0, 0, 0 }, 4);
	b_u64(b, 0);
	b_u64(b, 0);
	b_u64(b, 0);
}

/* A whole frame around a payload. */
static void frame(struct buf *out, uint8_t type, const struct buf *pl)
{
	uint8_t hdr[8] = { 0xB5, 'B', 'M', 'P', type, 0 };

	bmprof_put16(hdr + 6, (uint16_t)pl->n);
	b_put(out, hdr, 8);
	b_put(out, pl->p, pl->n);
	b_u32(out, bmprof_crc32(bmprof_crc32(0, hdr + 4, 4), pl->p, pl->n));
}

static int apply(struct profile *p, uint8_t type, const struct buf *b)
{
	return profile_apply_frame(p, type, b->p, (uint16_t)b->n);
}

static struct profile *new_profile(void)
{
	struct profile *p = malloc(sizeof(*p));

	assert_non_null(p);
	profile_init(p);
	return p;
}

static void free_profile(struct profile *p)
{
	profile_free(p);
	free(p);
}

/* The samples of a key: the counts of its entries (one once settled) added up. */
static uint64_t count_of(const struct profile *p, unsigned cpu, uint64_t pc, unsigned ev)
{
	uint64_t n = 0;

	for (size_t i = 0; i < p->nsamples; i++)
		if (p->samples[i].cpu == cpu && p->samples[i].pc == pc && p->samples[i].event == ev)
			n += p->samples[i].count;
	return n;
}

/* ---- the model ---- */

static void test_sample_aggregation(void **state)
{
	struct profile *p = new_profile();
	const unsigned N = 50000;

	/* many distinct keys (the index grows several times), each added three times */
	for (unsigned round = 1; round <= 3; round++)
		for (unsigned i = 0; i < N; i++)
			assert_int_equal(profile_add(p, (uint16_t)(i % 3), (uint16_t)(i % 5),
						     0x400000 + (uint64_t)(i / 15) * 4, round), 0);
	assert_int_equal(profile_settle(p), 0);
	assert_int_equal(p->nsamples, N);
	assert_int_equal(p->total, (uint64_t)N * 6);
	for (unsigned i = 0; i < N; i += 997)
		assert_int_equal(count_of(p, i % 3, 0x400000 + (uint64_t)(i / 15) * 4, i % 5), 6);
	/* (pc, event, cpu) are all part of the key */
	assert_int_equal(profile_add(p, 0, 0, 7, 1), 0);
	assert_int_equal(profile_add(p, 1, 0, 7, 1), 0);
	assert_int_equal(profile_add(p, 0, 1, 7, 1), 0);
	assert_int_equal(profile_add(p, 0, 0, 7, 2), 0);
	assert_int_equal(profile_settle(p), 0);
	assert_int_equal(p->nsamples, N + 3);
	assert_int_equal(count_of(p, 0, 7, 0), 3);
	/* a total that would overflow is refused */
	assert_int_equal(profile_add(p, 0, 0, 7, UINT64_MAX), -1);
	assert_int_equal(count_of(p, 0, 7, 0), 3);
	free_profile(p);
}

static void test_samples_frame_decoded(void **state)
{
	static struct buf b;
	const struct entry e[] = {
		{ 0, 0xffffffff80001000ull, 5 },
		{ 0, 0x1000, 2 },                   /* large backwards jump */
		{ 1, 0xffffffffffffffffull, 1 },    /* wraps forward */
		{ 0, 0x1000, 4 },                   /* repeat of a key in the same frame */
	};
	struct profile *p = new_profile();

	samples_payload(&b, 3, 0, e, 4);
	assert_int_equal(apply(p, BMPROF_FRAME_SAMPLES, &b), 0);
	assert_int_equal(profile_settle(p), 0);
	assert_int_equal(p->nsamples, 3);
	assert_int_equal(count_of(p, 3, 0xffffffff80001000ull, 0), 5);
	assert_int_equal(count_of(p, 3, 0x1000, 0), 6);
	assert_int_equal(count_of(p, 3, 0xffffffffffffffffull, 1), 1);
	assert_int_equal(p->total, 12);
	assert_int_equal(p->cpus[3].received, 12);
	assert_int_equal(p->cpus[3].frames, 1);
	assert_true(p->cpus[3].seen);
	assert_false(p->cpus[2].seen);
	assert_int_equal(p->ncpus_seen, 4);
	/* trailing bytes after the n entries are a later version's: ignored */
	b_put(&b, "\x01\x02", 2);
	samples_payload(&b, 3, 1, e, 1);
	b_put(&b, "\x99", 1);
	assert_int_equal(apply(p, BMPROF_FRAME_SAMPLES, &b), 0);
	assert_int_equal(count_of(p, 3, 0xffffffff80001000ull, 0), 10);
	assert_int_equal(p->frames_malformed, 0);
	free_profile(p);
}

/* Each broken frame is refused whole: nothing of it reaches the model. */
static void test_malformed_samples_rejected_whole(void **state)
{
	static struct buf good, b;
	const struct entry e[] = { { 0, 0x1000, 1 }, { 1, 0x2000, 2 }, { 2, 0x3000, 3 } };
	struct profile *p = new_profile();
	uint64_t total, nsamples;
	unsigned k = 0;

	samples_payload(&good, 0, 0, e, 3);
	assert_int_equal(apply(p, BMPROF_FRAME_SAMPLES, &good), 0);
	total = p->total;
	nsamples = p->nsamples;

	/* 1: the last varint cut short */
	samples_payload(&b, 0, 1, e, 3);
	b.n -= 1;
	b.p[b.n - 1] |= 0x80;
	assert_int_equal(apply(p, BMPROF_FRAME_SAMPLES, &b), -1), k++;
	/* 2: n larger than the payload holds */
	samples_payload(&b, 0, 1, e, 3);
	bmprof_put16(b.p + 2, 4);
	assert_int_equal(apply(p, BMPROF_FRAME_SAMPLES, &b), -1), k++;
	bmprof_put16(b.p + 2, 60000);
	assert_int_equal(apply(p, BMPROF_FRAME_SAMPLES, &b), -1), k++;
	/* 3: cpu beyond PROFILE_MAX_CPUS */
	samples_payload(&b, PROFILE_MAX_CPUS, 1, e, 3);
	assert_int_equal(apply(p, BMPROF_FRAME_SAMPLES, &b), -1), k++;
	/* 4: a varint beyond 64 bits in the pc delta of the last entry */
	samples_payload(&b, 0, 1, e, 2);
	b_varint(&b, 0);
	b_put(&b, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", 10);
	b_varint(&b, 1);
	bmprof_put16(b.p + 2, 3);
	assert_int_equal(apply(p, BMPROF_FRAME_SAMPLES, &b), -1), k++;
	/* 5: a count of zero, and a phase beyond the bound (above the event's 16 bits) */
	{
		struct entry z[] = { { 0, 0x1000, 1 }, { 0, 0x1004, 0 } };
		struct entry big[] = { { 0, 0x1000, 1 }, { 0, 0x1004, 1 } };

		samples_payload(&b, 0, 1, z, 2);
		assert_int_equal(apply(p, BMPROF_FRAME_SAMPLES, &b), -1), k++;
		samples_payload(&b, 0, 1, big, 1);
		b_varint(&b, (uint64_t)(BMPROF_PHASE_ID_MAX + 1) << 16);
		b_varint(&b, 8);
		b_varint(&b, 1);
		bmprof_put16(b.p + 2, 2);
		assert_int_equal(apply(p, BMPROF_FRAME_SAMPLES, &b), -1), k++;
	}
	/* 6: shorter than the fixed part */
	b.n = 7;
	assert_int_equal(apply(p, BMPROF_FRAME_SAMPLES, &b), -1), k++;
	/* 7: counts whose sum would overflow the profile total */
	{
		struct entry huge[] = { { 0, 0x1000, UINT64_MAX - 2 }, { 0, 0x1004, 5 } };

		samples_payload(&b, 0, 1, huge, 2);
		assert_int_equal(apply(p, BMPROF_FRAME_SAMPLES, &b), -1), k++;
	}

	assert_int_equal(p->frames_malformed, k);
	assert_int_equal(p->total, total);
	assert_int_equal(p->nsamples, nsamples);
	assert_int_equal(count_of(p, 0, 0x1000, 0), 1);
	assert_int_equal(p->cpus[0].frames, 1);
	assert_int_equal(p->cpus[0].received, 6);
	assert_int_equal(p->cpus[0].next_seq, 1);
	assert_int_equal(p->ncpus_seen, 1);
	/* the good frame still applies after all that */
	samples_payload(&b, 0, 1, e, 3);
	assert_int_equal(apply(p, BMPROF_FRAME_SAMPLES, &b), 0);
	assert_int_equal(p->total, 2 * total);
	assert_int_equal(p->cpus[0].seq_gaps, 0);
	free_profile(p);
}

static void test_seq_gaps(void **state)
{
	static struct buf b;
	const struct entry e[] = { { 0, 0x1000, 1 } };
	const uint32_t seq0[] = { 0, 1, 2, 5, 6, 10 };   /* 3, 4, 7, 8, 9 missing */
	struct profile *p = new_profile();

	for (size_t i = 0; i < sizeof(seq0) / sizeof(seq0[0]); i++) {
		samples_payload(&b, 0, seq0[i], e, 1);
		assert_int_equal(apply(p, BMPROF_FRAME_SAMPLES, &b), 0);
	}
	samples_payload(&b, 1, 2, e, 1);                  /* cpu 1 starts at 2: 0 and 1 lost */
	assert_int_equal(apply(p, BMPROF_FRAME_SAMPLES, &b), 0);
	assert_int_equal(p->cpus[0].seq_gaps, 5);
	assert_int_equal(p->cpus[0].next_seq, 11);
	assert_int_equal(p->cpus[0].frames, 6);
	assert_int_equal(p->cpus[1].seq_gaps, 2);
	assert_int_equal(p->cpus[1].next_seq, 3);
	/* backwards (a restarted target): not a gap, counted apart */
	samples_payload(&b, 0, 0, e, 1);
	assert_int_equal(apply(p, BMPROF_FRAME_SAMPLES, &b), 0);
	assert_int_equal(p->cpus[0].seq_gaps, 5);
	assert_int_equal(p->cpus[0].seq_repeats, 1);
	assert_int_equal(p->cpus[0].next_seq, 1);
	free_profile(p);
}

static void test_unknown_type_skipped(void **state)
{
	static struct buf b;
	struct profile *p = new_profile();

	b.n = 0;
	b_put(&b, "whatever", 8);
	assert_int_equal(apply(p, 0x2a, &b), 1);
	assert_int_equal(apply(p, 0x3f, &b), 1);
	assert_int_equal(apply(p, 0xff, &b), 1);
	assert_int_equal(p->frames_malformed, 0);
	assert_int_equal(p->nsamples, 0);
	assert_int_equal(p->nmeta, 0);
	assert_false(p->have_hello);
	free_profile(p);
}

static void test_totals(void **state)
{
	static struct buf b;
	uint64_t v[BMPROF_TOTAL_NFIELDS + 2];
	struct profile *p = new_profile();
	const struct entry e[] = { { 0, 0x1000, 90 } };

	for (int i = 0; i < BMPROF_TOTAL_NFIELDS + 2; i++)
		v[i] = 100 + (uint64_t)i;
	v[BMPROF_TOTAL_DELIVERED] = 100;
	/* more fields than this reader knows: the known ones are taken */
	totals_payload(&b, 2, BMPROF_TOTAL_NFIELDS + 2, v);
	assert_int_equal(apply(p, BMPROF_FRAME_TOTALS, &b), 0);
	assert_true(p->cpus[2].have_totals);
	assert_int_equal(p->cpus[2].ntotals, BMPROF_TOTAL_NFIELDS + 2);
	for (int i = 0; i < BMPROF_TOTAL_NFIELDS; i++)
		assert_int_equal(p->cpus[2].totals[i], v[i]);
	assert_int_equal(p->ncpus_seen, 3);
	samples_payload(&b, 2, 0, e, 1);
	assert_int_equal(apply(p, BMPROF_FRAME_SAMPLES, &b), 0);
	assert_int_equal(profile_cpu_lost_in_transit(&p->cpus[2]), 10);
	/* fewer fields (an older target): the rest read 0, transit loss is unknown */
	totals_payload(&b, 2, 3, v);
	assert_int_equal(apply(p, BMPROF_FRAME_TOTALS, &b), 0);
	assert_int_equal(p->cpus[2].totals[2], v[2]);
	assert_int_equal(p->cpus[2].totals[BMPROF_TOTAL_DELIVERED], 0);
	assert_int_equal(profile_cpu_lost_in_transit(&p->cpus[2]), 0);
	/* nfields beyond the payload, a cpu out of range: malformed, nothing changes */
	totals_payload(&b, 2, 8, v);
	bmprof_put16(b.p + 2, 9);
	assert_int_equal(apply(p, BMPROF_FRAME_TOTALS, &b), -1);
	totals_payload(&b, PROFILE_MAX_CPUS, 8, v);
	assert_int_equal(apply(p, BMPROF_FRAME_TOTALS, &b), -1);
	assert_int_equal(p->cpus[2].ntotals, 3);
	assert_int_equal(p->frames_malformed, 2);
	free_profile(p);
}

static void test_hello_event_end_rules(void **state)
{
	static struct buf b;
	const uint8_t id1[4] = { 1, 2, 3, 4 }, id2[4] = { 1, 2, 3, 5 };
	struct profile *p = new_profile();

	hello_payload(&b, BMPROF_ARCH_X86_64, id1, 4);
	assert_int_equal(apply(p, BMPROF_FRAME_HELLO, &b), 0);
	assert_int_equal(apply(p, BMPROF_FRAME_HELLO, &b), 0);      /* same again: a restart */
	assert_int_equal(p->hellos, 2);
	assert_int_equal(p->hello_mismatch, 0);
	hello_payload(&b, BMPROF_ARCH_X86_64, id2, 4);               /* another image: kept out */
	assert_int_equal(apply(p, BMPROF_FRAME_HELLO, &b), 0);
	assert_int_equal(p->hello_mismatch, 1);
	assert_memory_equal(p->hello.build_id, id1, 4);
	assert_string_equal(p->hello.vendor, "GenuineIntel");
	/* a build-id longer than the payload or than BMPROF_BUILD_ID_MAX; a short HELLO */
	hello_payload(&b, 1, id1, 4);
	b.n--;
	assert_int_equal(apply(p, BMPROF_FRAME_HELLO, &b), -1);
	hello_payload(&b, 1, id1, 4);
	b.p[56] = BMPROF_BUILD_ID_MAX + 1;
	assert_int_equal(apply(p, BMPROF_FRAME_HELLO, &b), -1);
	b.n = BMPROF_HELLO_FIXED - 1;
	assert_int_equal(apply(p, BMPROF_FRAME_HELLO, &b), -1);
	assert_int_equal(p->hellos, 3);

	event_payload(&b, 4, "cycles");
	assert_int_equal(apply(p, BMPROF_FRAME_EVENT, &b), 0);
	event_payload(&b, 4, "timer");                                /* same id: replaced */
	assert_int_equal(apply(p, BMPROF_FRAME_EVENT, &b), 0);
	assert_int_equal(p->nevents, 1);
	assert_string_equal(profile_event(p, 4)->name, "timer");
	assert_int_equal(profile_event(p, 4)->jitter, 10000);
	event_payload(&b, 5, "cut");
	b.n--;
	assert_int_equal(apply(p, BMPROF_FRAME_EVENT, &b), -1);
	assert_null(profile_event(p, 5));

	end_payload(&b, 42);
	b.n--;
	assert_int_equal(apply(p, BMPROF_FRAME_END, &b), -1);
	assert_false(p->have_end);
	end_payload(&b, 42);
	assert_int_equal(apply(p, BMPROF_FRAME_END, &b), 0);
	assert_true(p->have_end);
	assert_int_equal(p->end.exit_code, 42);
	assert_int_equal(p->frames_malformed, 5);
	free_profile(p);
}

static void meta_entry(struct buf *b, const char *k, const char *v)
{
	b_put(b, (uint8_t[]){ (uint8_t)strlen(k) }, 1);
	b_put(b, k, strlen(k));
	b_u16(b, (uint16_t)strlen(v));
	b_put(b, v, strlen(v));
}

static void test_host_frames(void **state)
{
	static struct buf b;
	struct profile *p = new_profile();

	b.n = 0;
	meta_entry(&b, "elf", "/a/b.elf");
	meta_entry(&b, "empty", "");
	meta_entry(&b, "elf", "/c.elf");                            /* a later key wins */
	assert_int_equal(apply(p, BMPROF_FRAME_HOST_META, &b), 0);
	assert_string_equal(profile_meta(p, "elf"), "/c.elf");
	assert_string_equal(profile_meta(p, "empty"), "");
	assert_null(profile_meta(p, "host"));
	assert_int_equal(p->nmeta, 2);
	/* an entry cut short: the frame is refused whole (the first entry is not added) */
	b.n = 0;
	meta_entry(&b, "host", "x");
	meta_entry(&b, "accel", "tcg");
	b.n--;
	assert_int_equal(apply(p, BMPROF_FRAME_HOST_META, &b), -1);
	assert_null(profile_meta(p, "host"));
	assert_int_equal(profile_set_meta(p, "host", "h1"), 0);
	assert_string_equal(profile_meta(p, "host"), "h1");

	b.n = 0;
	for (int i = 0; i < 5; i++)
		b_u64(&b, (uint64_t)i + 1);
	assert_int_equal(apply(p, BMPROF_FRAME_HOST_STREAM, &b), 0);
	assert_int_equal(apply(p, BMPROF_FRAME_HOST_STREAM, &b), 0);  /* counters add */
	assert_int_equal(p->frames_ok, 2);
	assert_int_equal(p->frames_bad_crc, 4);
	assert_int_equal(p->frames_unknown, 6);
	assert_int_equal(p->bytes_skipped, 8);
	assert_true(p->truncated);
	b.n = 39;
	assert_int_equal(apply(p, BMPROF_FRAME_HOST_STREAM, &b), -1);
	assert_int_equal(p->frames_ok, 2);
	free_profile(p);
}

/* ---- profile files ---- */

static char dir[64];

static int setup_dir(void **state)
{
	strcpy(dir, "/tmp/bmprof-test-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
	static const char *const names[] = { "p.data", "p.data.old", "p.data.tmp", "cut.data",
		"raw.data", "text.data", "empty.data", "new.data", "bad.data", "short.data", "c.data",
		"many.data", "elf" };
	char path[128];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	return rmdir(dir);
}

static const char *in_dir(char *out, const char *name)
{
	sprintf(out, "%s/%s", dir, name);
	return out;
}

static void write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static size_t read_file(const char *path, void *p, size_t cap)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	assert_non_null(f);
	n = fread(p, 1, cap, f);
	fclose(f);
	return n;
}

/* A target stream with text, every frame type, an unknown frame, a malformed frame, a bad
 * CRC frame and garbage. */
static void target_stream(struct buf *s)
{
	static struct buf pl;
	const uint8_t id[20] = { 0xaa, 0xbb, 0xcc };
	const struct entry e0[] = { { 0, 0x401000, 7 }, { 1, 0x401010, 3 } };
	const struct entry e1[] = { { 0, 0x402000, 11 } };
	uint64_t t[BMPROF_TOTAL_NFIELDS] = { 0 };
	size_t at;

	s->n = 0;
	b_put(s, "boot\n", 5);
	hello_payload(&pl, BMPROF_ARCH_X86_64, id, 20);
	frame(s, BMPROF_FRAME_HELLO, &pl);
	event_payload(&pl, 0, "timer");
	frame(s, BMPROF_FRAME_EVENT, &pl);
	samples_payload(&pl, 0, 0, e0, 2);
	frame(s, BMPROF_FRAME_SAMPLES, &pl);
	b_put(s, "work\n", 5);
	samples_payload(&pl, 1, 0, e1, 1);
	at = s->n;
	frame(s, BMPROF_FRAME_SAMPLES, &pl);
	s->p[at + 10] ^= 0x40;                            /* bad CRC: lost in transit */
	pl.n = 3;
	frame(s, 0x30, &pl);                              /* unknown type */
	pl.n = 5;
	frame(s, BMPROF_FRAME_TOTALS, &pl);               /* malformed: too short */
	b_put(s, "\xB5\x01\x02", 3);                      /* garbage that is text */
	t[BMPROF_TOTAL_TAKEN] = 10;
	t[BMPROF_TOTAL_DELIVERED] = 10;
	totals_payload(&pl, 0, BMPROF_TOTAL_NFIELDS, t);
	frame(s, BMPROF_FRAME_TOTALS, &pl);
	t[BMPROF_TOTAL_TAKEN] = 11;
	t[BMPROF_TOTAL_DELIVERED] = 11;
	totals_payload(&pl, 1, BMPROF_TOTAL_NFIELDS, t);
	frame(s, BMPROF_FRAME_TOTALS, &pl);
	end_payload(&pl, 0);
	frame(s, BMPROF_FRAME_END, &pl);
	b_put(s, "bye\n", 4);
}

struct text {
	char p[256];
	size_t n;
};

static void on_text(void *ctx, const char *t, size_t n)
{
	struct text *x = ctx;

	assert_true(x->n + n < sizeof(x->p));
	memcpy(x->p + x->n, t, n);
	x->n += n;
}

static void assert_same_profile(const struct profile *a, const struct profile *b)
{
	assert_int_equal(a->have_hello, b->have_hello);
	assert_memory_equal(&a->hello, &b->hello, sizeof(a->hello));
	assert_int_equal(a->have_end, b->have_end);
	assert_int_equal(a->end.exit_code, b->end.exit_code);
	assert_int_equal(a->nevents, b->nevents);
	assert_memory_equal(a->events, b->events, a->nevents * sizeof(a->events[0]));
	assert_int_equal(a->ncpus_seen, b->ncpus_seen);
	for (unsigned c = 0; c < a->ncpus_seen; c++) {
		assert_int_equal(a->cpus[c].received, b->cpus[c].received);
		assert_int_equal(a->cpus[c].seq_gaps, b->cpus[c].seq_gaps);
		assert_memory_equal(a->cpus[c].totals, b->cpus[c].totals, sizeof(a->cpus[c].totals));
	}
	assert_int_equal(a->nsamples, b->nsamples);
	assert_int_equal(a->total, b->total);
	for (size_t i = 0; i < a->nsamples; i++) {
		const struct profile_sample *s = &a->samples[i];

		assert_int_equal(count_of(b, s->cpu, s->pc, s->event), s->count);
	}
	assert_int_equal(a->nmeta, b->nmeta);
	for (size_t i = 0; i < a->nmeta; i++)
		assert_string_equal(profile_meta(b, a->meta[i].key), a->meta[i].value);
	assert_int_equal(a->frames_ok, b->frames_ok);
	assert_int_equal(a->frames_bad_crc, b->frames_bad_crc);
	assert_int_equal(a->frames_unknown, b->frames_unknown);
	assert_int_equal(a->bytes_skipped, b->bytes_skipped);
	assert_int_equal(a->frames_malformed, b->frames_malformed);
	assert_int_equal(a->truncated, b->truncated);
}

/* Capture a stream (pushed a byte at a time, as from a slow UART) into a file; loading the
 * file gives the same model the capture built. */
static void capture_to(const char *path, const struct buf *s, struct capture **out,
		       struct text *text)
{
	char elf[128];
	const struct bm_kv extra[] = { { "source", "/dev/ttyS9" } };
	struct capture_opts o = {
		.path = path, .elf = in_dir(elf, "elf"), .accel = "tcg", .command = "bmprof test",
		.meta = extra, .nmeta = 1, .on_text = on_text, .ctx = text,
	};
	char err[256] = "";
	struct capture *c;

	write_file(elf, "\x7f" "ELF", 4);
	c = capture_open(&o, err, sizeof(err));
	assert_non_null(c);
	for (size_t i = 0; i < s->n && !capture_ended(c); i++)
		assert_int_equal(capture_push(c, s->p + i, 1), 0);
	assert_true(capture_ended(c));
	capture_finish(c);
	*out = c;
}

/* The capture's temporaries (PATH.tmp.XXXXXX) in the test directory. */
static int temporaries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += !strncmp(e->d_name, "p.data.tmp.", 11);
	closedir(d);
	return n;
}

static void test_file_round_trip(void **state)
{
	static struct buf s;
	char path[128], old[128], elf[128], err[256] = "";
	struct text text = { .n = 0 };
	struct capture *c;
	struct profile *live, *p = new_profile();
	char real[4096];

	in_dir(path, "p.data");
	in_dir(old, "p.data.old");
	write_file(path, "previous", 8);
	target_stream(&s);
	capture_to(path, &s, &c, &text);
	/* the console text, exactly, up to the END frame (the rest was not pushed) */
	assert_int_equal(text.n, 13);
	assert_memory_equal(text.p, "boot\nwork\n\xB5\x01\x02", 13);
	assert_int_equal(temporaries(), 1);   /* written as a PATH.tmp.XXXXXX until saved */
	assert_int_equal(read_file(path, real, sizeof(real)), 8);
	assert_int_equal(capture_save(c, err, sizeof(err)), 0);
	assert_int_equal(temporaries(), 0);
	assert_int_equal(read_file(old, real, sizeof(real)), 8);   /* the previous file kept */
	assert_memory_equal(real, "previous", 8);

	live = capture_profile(c);
	assert_int_equal(live->frames_ok, 8);
	assert_int_equal(live->frames_bad_crc, 1);
	assert_int_equal(live->frames_unknown, 1);
	assert_int_equal(live->frames_malformed, 1);
	assert_true(live->bytes_skipped > 0);
	assert_int_equal(live->cpus[0].received, 10);
	assert_int_equal(live->cpus[1].received, 0);
	assert_int_equal(profile_cpu_lost_in_transit(&live->cpus[1]), 11);
	assert_int_equal(capture_stats(c)->text_bytes, 13);
	assert_string_equal(profile_meta(live, "format"), PROFILE_FORMAT);
	assert_string_equal(profile_meta(live, "accel"), "tcg");
	assert_string_equal(profile_meta(live, "command"), "bmprof test");
	assert_string_equal(profile_meta(live, "source"), "/dev/ttyS9");
	assert_non_null(realpath(in_dir(elf, "elf"), real));
	assert_string_equal(profile_meta(live, "elf"), real);
	assert_non_null(profile_meta(live, "date"));
	assert_non_null(profile_meta(live, "host"));

	assert_int_equal(profile_load(path, p, err, sizeof(err)), 0);
	assert_false(p->file_truncated);
	assert_same_profile(live, p);
	capture_free(c);
	free_profile(p);
}

/* Not saved: the file at PATH stays as it was and PATH.tmp goes away. */
static void test_capture_discarded(void **state)
{
	static struct buf s;
	char path[128], got[16];
	struct text text = { .n = 0 };
	struct capture *c;

	in_dir(path, "p.data");
	write_file(path, "keep me", 7);
	target_stream(&s);
	capture_to(path, &s, &c, &text);
	capture_free(c);
	assert_int_equal(temporaries(), 0);
	assert_int_equal(read_file(path, got, sizeof(got)), 7);
	assert_memory_equal(got, "keep me", 7);
}

static void test_load_errors(void **state)
{
	static struct buf s, pl;
	char path[128], err[256];
	struct profile *p;
	const uint8_t id[4] = { 1 };

	p = new_profile();
	assert_int_equal(profile_load(in_dir(path, "missing.data"), p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no such file"));
	free_profile(p);

	p = new_profile();
	write_file(in_dir(path, "empty.data"), "", 0);
	assert_int_equal(profile_load(path, p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is empty"));
	free_profile(p);

	p = new_profile();
	write_file(in_dir(path, "text.data"), "just some text\n", 15);
	assert_int_equal(profile_load(path, p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a bmprof profile"));
	free_profile(p);

	/* a raw stream (HELLO first) is not a profile file */
	p = new_profile();
	s.n = 0;
	hello_payload(&pl, 1, id, 4);
	frame(&s, BMPROF_FRAME_HELLO, &pl);
	write_file(in_dir(path, "raw.data"), s.p, s.n);
	assert_int_equal(profile_load(path, p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "raw bmprof stream"));
	free_profile(p);

	/* a format this version does not read */
	p = new_profile();
	s.n = 0;
	pl.n = 0;
	meta_entry(&pl, "format", "bmprof-profile-9");
	frame(&s, BMPROF_FRAME_HOST_META, &pl);
	write_file(in_dir(path, "new.data"), s.p, s.n);
	assert_int_equal(profile_load(path, p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "bmprof-profile-9"));
	free_profile(p);

	/* HOST_META first, but without the format key */
	p = new_profile();
	s.n = 0;
	pl.n = 0;
	meta_entry(&pl, "elf", "/x");
	frame(&s, BMPROF_FRAME_HOST_META, &pl);
	write_file(in_dir(path, "bad.data"), s.p, s.n);
	assert_int_equal(profile_load(path, p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a bmprof profile"));
	free_profile(p);
}

/* A file cut short (a copy interrupted, a full disk): the intact frames still load. */
static void test_load_truncated(void **state)
{
	static struct buf s, file;
	char path[128], cut[128], err[256] = "";
	struct text text = { .n = 0 };
	struct capture *c;
	struct profile *p;
	size_t n, keep;

	in_dir(path, "p.data");
	target_stream(&s);
	capture_to(path, &s, &c, &text);
	assert_int_equal(capture_save(c, err, sizeof(err)), 0);
	capture_free(c);
	file.n = read_file(path, file.p, sizeof(file.p));
	n = file.n;

	/* cut inside the last frame (HOST_STREAM) */
	p = new_profile();
	write_file(in_dir(cut, "cut.data"), file.p, n - 10);
	assert_int_equal(profile_load(cut, p, err, sizeof(err)), 1);
	assert_true(p->file_truncated);
	assert_non_null(strstr(err, "cut short"));
	assert_true(p->have_hello);
	assert_true(p->have_end);
	assert_int_equal(p->total, 10);
	assert_false(p->have_stream);
	free_profile(p);

	/* cut in the middle: what comes before is there, what comes after is not */
	keep = n / 2;
	p = new_profile();
	write_file(cut, file.p, keep);
	assert_int_equal(profile_load(cut, p, err, sizeof(err)), 1);
	assert_true(p->file_truncated);
	assert_true(p->have_hello);
	assert_false(p->have_end);
	free_profile(p);

	/* cut exactly between frames, before the trailer: still reported as cut short */
	p = new_profile();
	write_file(cut, file.p, n - (12 + PROFILE_STREAM_LEN));
	assert_int_equal(profile_load(cut, p, err, sizeof(err)), 1);
	assert_true(p->file_truncated);
	assert_true(p->have_end);
	free_profile(p);

	/* one damaged byte inside: that frame is skipped, the rest loads */
	p = new_profile();
	memcpy(s.p, file.p, n);
	s.p[n / 2] ^= 0x01;
	write_file(cut, s.p, n);
	assert_int_equal(profile_load(cut, p, err, sizeof(err)), 1);
	assert_false(p->file_truncated);
	assert_non_null(strstr(err, "damaged"));
	assert_true(p->have_end);
	assert_true(p->have_stream);
	assert_true(p->frames_bad_crc + p->bytes_skipped > 1 + 0u);
	free_profile(p);
}

static void test_summary(void **state)
{
	static struct buf s;
	char path[128], *out = NULL;
	size_t len = 0;
	struct text text = { .n = 0 };
	struct capture *c;
	FILE *f = open_memstream(&out, &len);

	assert_non_null(f);
	target_stream(&s);
	capture_to(in_dir(path, "p.data"), &s, &c, &text);
	summary_print(f, capture_profile(c), "/dev/ttyS9", NULL);
	fclose(f);
	assert_non_null(strstr(out, "stream from /dev/ttyS9"));
	assert_non_null(strstr(out, "x86_64 GenuineIntel family 6 model 0xcf"));
	assert_non_null(strstr(out, "build-id aabbcc0000"));
	assert_non_null(strstr(out, "8 ok; rejected: 1 bad CRC, 1 unknown type, 1 malformed"));
	assert_non_null(strstr(out, "exit code 0"));
	/* cpu 1: 11 taken and delivered, none received, 11 missing */
	assert_non_null(strstr(out, "  1               11           11          0          0"
				    "            0         11"));
	capture_free(c);
	free(out);
}


/* EVENT frames with and without the status fields appended in wire 1.1. */
static void test_event_status(void **state)
{
	static struct buf b;
	struct profile *p = new_profile();
	const struct profile_event *e;
	const uint8_t fb[6] = { BMPROF_EVST_FALLBACK, BMPROF_EVR_NO_PMU, BMPROF_CTR_TIMER, 0xff,
				0xff, 1 };
	const uint8_t mux[6] = { BMPROF_EVST_ACTIVE, BMPROF_EVR_NONE, BMPROF_CTR_GP, 2, 1, 3 };

	event_status_payload(&b, 1, "cycles", BMPROF_SOURCE_TIMER, fb);
	assert_int_equal(apply(p, BMPROF_FRAME_EVENT, &b), 0);
	e = profile_event(p, 1);
	assert_true(e->have_status);
	assert_int_equal(e->status, BMPROF_EVST_FALLBACK);
	assert_int_equal(e->reason, BMPROF_EVR_NO_PMU);
	assert_int_equal(e->counter_kind, BMPROF_CTR_TIMER);
	assert_int_equal(e->counter, 0xff);
	assert_int_equal(e->group, 0xff);
	assert_int_equal(e->ngroups, 1);
	assert_string_equal(e->name, "cycles");

	/* a later writer's extra bytes are ignored */
	event_status_payload(&b, 2, "r08", BMPROF_SOURCE_PMU, mux);
	b_put(&b, "\x01\x02\x03", 3);
	assert_int_equal(apply(p, BMPROF_FRAME_EVENT, &b), 0);
	e = profile_event(p, 2);
	assert_int_equal(e->counter_kind, BMPROF_CTR_GP);
	assert_int_equal(e->counter, 2);
	assert_int_equal(e->group, 1);
	assert_int_equal(e->ngroups, 3);
	assert_string_equal(e->name, "r08");

	/* an old frame: the defaults, the counter kind from the source */
	event_payload(&b, 3, "timer");
	assert_int_equal(apply(p, BMPROF_FRAME_EVENT, &b), 0);
	e = profile_event(p, 3);
	assert_false(e->have_status);
	assert_int_equal(e->status, BMPROF_EVST_ACTIVE);
	assert_int_equal(e->reason, BMPROF_EVR_NONE);
	assert_int_equal(e->counter_kind, BMPROF_CTR_TIMER);
	assert_int_equal(e->counter, 0xff);
	assert_int_equal(e->group, 0xff);
	assert_int_equal(e->ngroups, 1);
	event_payload(&b, 4, "old-pmu");
	b.p[2] = BMPROF_SOURCE_PMU_FIXED;
	assert_int_equal(apply(p, BMPROF_FRAME_EVENT, &b), 0);
	assert_int_equal(profile_event(p, 4)->counter_kind, BMPROF_CTR_FIXED);
	/* part of the appended fields: taken as absent */
	event_payload(&b, 5, "part");
	b_put(&b, "\x01\x01\x01", 3);
	assert_int_equal(apply(p, BMPROF_FRAME_EVENT, &b), 0);
	assert_false(profile_event(p, 5)->have_status);
	assert_int_equal(profile_event(p, 5)->status, BMPROF_EVST_ACTIVE);
	assert_int_equal(p->frames_malformed, 0);
	free_profile(p);
}

static void test_counts(void **state)
{
	static struct buf b;
	struct profile *p = new_profile();
	struct profile_count_sum s;
	const struct count_rec r0[] = {
		{ 1, 0, 100, 1000, 500 },     /* multiplexed: on a counter half the time */
		{ 2, 1, 7, 10, 10 },
		{ 3, 0, 42, 10, 0 },          /* never on a counter */
	};
	const struct count_rec r1[] = { { 1, 0, 300, 1000, 250 } };
	const struct count_rec again[] = { { 2, 0, 9, 20, 20 } };

	counts_payload(&b, 0, r0, 3);
	assert_int_equal(apply(p, BMPROF_FRAME_COUNTS, &b), 0);
	assert_int_equal(p->ncounts, 3);
	assert_int_equal(p->counts[1].flags, 1);
	assert_int_equal(profile_event_count(p, 1, -1, &s), 0);
	assert_int_equal(s.value, 100);
	assert_int_equal(s.enabled, 1000);
	assert_int_equal(s.running, 500);
	assert_int_equal(s.ncpus, 1);
	assert_true(profile_count_scaled(&s) == 200.0);
	assert_true(profile_event_scale(p, 1) == 2.0);
	assert_true(profile_event_scale(p, 2) == 1.0);
	assert_true(profile_event_scale(p, 3) == 1.0);
	assert_true(profile_event_scale(p, 9) == 1.0);
	assert_int_equal(profile_event_count(p, 3, -1, &s), 0);
	assert_true(profile_count_scaled(&s) == 42.0);     /* running 0: not scaled */
	assert_int_equal(profile_event_count(p, 9, -1, &s), -1);
	assert_int_equal(s.value, 0);

	/* another CPU adds up; per CPU stays apart */
	counts_payload(&b, 1, r1, 1);
	assert_int_equal(apply(p, BMPROF_FRAME_COUNTS, &b), 0);
	assert_int_equal(profile_event_count(p, 1, -1, &s), 0);
	assert_int_equal(s.value, 400);
	assert_int_equal(s.enabled, 2000);
	assert_int_equal(s.running, 750);
	assert_int_equal(s.ncpus, 2);
	assert_int_equal(profile_event_count(p, 1, 1, &s), 0);
	assert_int_equal(s.value, 300);
	assert_true(profile_count_scaled(&s) == 1200.0);
	assert_int_equal(profile_event_count(p, 2, 1, &s), -1);

	/* a later record for the same (cpu, event) replaces the earlier one */
	counts_payload(&b, 0, again, 1);
	b_put(&b, "more", 4);                               /* later fields: ignored */
	assert_int_equal(apply(p, BMPROF_FRAME_COUNTS, &b), 0);
	assert_int_equal(p->ncounts, 4);
	assert_int_equal(profile_event_count(p, 2, 0, &s), 0);
	assert_int_equal(s.value, 9);
	assert_int_equal(s.enabled, 20);

	/* malformed: records past the payload, a CPU out of range, too short */
	counts_payload(&b, 0, r0, 3);
	b.n--;
	assert_int_equal(apply(p, BMPROF_FRAME_COUNTS, &b), -1);
	counts_payload(&b, PROFILE_MAX_CPUS, r0, 1);
	assert_int_equal(apply(p, BMPROF_FRAME_COUNTS, &b), -1);
	b.n = 3;
	assert_int_equal(apply(p, BMPROF_FRAME_COUNTS, &b), -1);
	assert_int_equal(p->frames_malformed, 3);
	assert_int_equal(p->ncounts, 4);
	assert_int_equal(profile_event_count(p, 1, 0, &s), 0);
	assert_int_equal(s.value, 100);
	/* an empty frame is fine */
	counts_payload(&b, 0, r0, 0);
	assert_int_equal(apply(p, BMPROF_FRAME_COUNTS, &b), 0);
	assert_int_equal(p->ncounts, 4);
	free_profile(p);
}

/* COUNTS and the EVENT status survive the profile file, and the summary shows them. */
static void test_counts_file_and_summary(void **state)
{
	static struct buf s, pl;
	const uint8_t id[4] = { 1, 2, 3, 4 };
	const uint8_t st1[6] = { BMPROF_EVST_ACTIVE, 0, BMPROF_CTR_FIXED, 0, 0xff, 1 };
	const uint8_t st2[6] = { BMPROF_EVST_UNAVAILABLE, BMPROF_EVR_UNSUPPORTED, BMPROF_CTR_NONE,
				 0xff, 0xff, 1 };
	const struct count_rec r[] = { { 1, 0, 123456, 1000, 1000 } };
	char path[128], err[256], *out = NULL;
	size_t len = 0;
	struct text text = { .n = 0 };
	struct capture *c;
	struct profile *p = new_profile();
	struct profile_count_sum sum;
	FILE *f;

	s.n = 0;
	hello_payload(&pl, BMPROF_ARCH_AARCH64, id, 4);
	frame(&s, BMPROF_FRAME_HELLO, &pl);
	event_status_payload(&pl, 1, "cycles", BMPROF_SOURCE_PMU_FIXED, st1);
	frame(&s, BMPROF_FRAME_EVENT, &pl);
	event_status_payload(&pl, 2, "branches", BMPROF_SOURCE_PMU, st2);
	frame(&s, BMPROF_FRAME_EVENT, &pl);
	counts_payload(&pl, 0, r, 1);
	frame(&s, BMPROF_FRAME_COUNTS, &pl);
	end_payload(&pl, 0);
	frame(&s, BMPROF_FRAME_END, &pl);
	capture_to(in_dir(path, "c.data"), &s, &c, &text);
	assert_int_equal(capture_save(c, err, sizeof(err)), 0);
	assert_int_equal(profile_load(path, p, err, sizeof(err)), 0);
	assert_int_equal(p->ncounts, 1);
	assert_int_equal(profile_event_count(p, 1, -1, &sum), 0);
	assert_int_equal(sum.value, 123456);
	assert_int_equal(profile_event(p, 2)->reason, BMPROF_EVR_UNSUPPORTED);
	assert_int_equal(p->frames_unknown, 0);

	f = open_memstream(&out, &len);
	assert_non_null(f);
	summary_print(f, p, "QEMU serial", NULL);
	fclose(f);
	assert_non_null(strstr(out, "event 1   cycles, period 100000"));
	assert_non_null(strstr(out, "cycle counter PMCCNTR_EL0"));
	assert_non_null(strstr(out, "count 123456"));
	assert_non_null(strstr(out, "event 2   branches: not counted: this CPU does not implement "
				    "the event"));
	free(out);
	capture_free(c);
	free_profile(p);
}

/* Crafted files must not make loading quadratic: distinct meta keys and COUNTS records are
 * bounded, and what goes past the bound is rejected, not silently absorbed. */
static void test_load_bounds(void **state)
{
	static struct buf b;
	struct profile *p = new_profile();
	struct count_rec r[32];
	char key[16];

	for (int i = 0; i < PROFILE_MAX_META + 10; i++) {
		snprintf(key, sizeof key, "k%d", i);
		assert_int_equal(profile_set_meta(p, key, "v"), i < PROFILE_MAX_META ? 0 : -1);
	}
	assert_int_equal(p->nmeta, PROFILE_MAX_META);
	assert_int_equal(profile_set_meta(p, "k3", "again"), 0);     /* an existing key updates */
	assert_string_equal(profile_meta(p, "k3"), "again");

	for (int i = 0; i < 32; i++)
		r[i] = (struct count_rec){ (uint16_t)i, 0, 1, 1, 1 };
	for (int cpu = 0; cpu < PROFILE_MAX_COUNTS / 32; cpu++) {
		counts_payload(&b, (uint16_t)cpu, r, 32);
		assert_int_equal(apply(p, BMPROF_FRAME_COUNTS, &b), 0);
	}
	assert_int_equal(p->ncounts, PROFILE_MAX_COUNTS);
	counts_payload(&b, PROFILE_MAX_COUNTS / 32, r, 32);
	assert_int_equal(apply(p, BMPROF_FRAME_COUNTS, &b), -1);
	assert_int_equal(p->ncounts, PROFILE_MAX_COUNTS);
	free_profile(p);
	(void)state;
}

/* Key k of the store test: pcs scattered over the whole 64-bit space (0 and the top
 * included), or (narrow) a few bytes apart, several events and CPUs at one pc. */
static struct profile_sample store_key(uint64_t k, int narrow)
{
	struct profile_sample s = {
		.pc = narrow ? 0x400000 + (k / 6) * 4 : k == 0 ? 0 : k == 1 ? UINT64_MAX :
		      (k / 6) * 0x9e3779b97f4a7c15ull,
		.event = (uint16_t)(k % 3),
		.cpu = (uint16_t)(k % 6 / 3 * 200),
	};
	return s;
}

static int key_less(const struct profile_sample *a, const struct profile_sample *b)
{
	if (a->pc != b->pc)
		return a->pc < b->pc;
	if (a->event != b->event)
		return a->event < b->event;
	return a->cpu < b->cpu;
}

/* Enough entries that the pending tail is merged many times, repeats within a tail and
 * across merges, in an order that is neither sorted nor reversed: every key ends up once,
 * in order, with exactly the samples added. Keys over all 64 bits sort byte by byte,
 * narrow ones by the bits that differ. */
static void check_store(int narrow)
{
	const uint64_t N = 300000, STEP = 7919;   /* STEP is prime to N: every key in a round */
	struct profile *p = new_profile();
	uint64_t total = 0;

	for (unsigned round = 0; round < 4; round++) {
		for (uint64_t i = 0; i < N; i++) {
			uint64_t k = (i * STEP + round) % N;
			struct profile_sample key = store_key(k, narrow);

			if (round > k % 4)
				continue;
			assert_int_equal(profile_add(p, key.cpu, key.event, key.pc, 1 + k % 5), 0);
			total += 1 + k % 5;
		}
		/* before settling, the counts are all there */
		uint64_t sum = 0;
		for (size_t i = 0; i < p->nsamples; i++)
			sum += p->samples[i].count;
		assert_int_equal(sum, total);
		assert_true(p->nsamples >= N / 4);
	}
	assert_int_equal(profile_settle(p), 0);
	assert_int_equal(p->nsamples, N);
	assert_int_equal(p->total, total);
	for (size_t i = 1; i < p->nsamples; i++)
		assert_true(key_less(&p->samples[i - 1], &p->samples[i]));
	for (uint64_t k = 0; k < N; k++) {
		struct profile_sample want = store_key(k, narrow);
		size_t lo = 0, hi = p->nsamples;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (key_less(&p->samples[mid], &want))
				lo = mid + 1;
			else
				hi = mid;
		}
		assert_true(lo < p->nsamples && !key_less(&want, &p->samples[lo]));
		assert_int_equal(p->samples[lo].count, (1 + k % 4) * (1 + k % 5));
	}
	/* settling again changes nothing; more samples after it merge in */
	assert_int_equal(profile_settle(p), 0);
	assert_int_equal(p->nsamples, N);
	struct profile_sample k0 = store_key(0, narrow);
	assert_int_equal(profile_add(p, k0.cpu, k0.event, k0.pc, 5), 0);
	assert_int_equal(profile_settle(p), 0);
	assert_int_equal(p->nsamples, N);
	assert_int_equal(count_of(p, k0.cpu, k0.pc, k0.event), 5 + 1);
	free_profile(p);
}

static void test_store_merges_exactly(void **state)
{
	check_store(0);
	check_store(1);
	(void)state;
}

/* A profile with more distinct entries than its bound is over it, exactly: repeats of
 * kept keys do not count; loading one is refused with the bound and how to raise it. */
static void test_store_bound(void **state)
{
	static struct buf s, pl;
	struct entry e[400];
	struct profile *p = new_profile();
	char path[128], err[512];

	p->max_entries = 1000;
	for (unsigned round = 0; round < 3; round++)
		for (uint64_t pc = 0; pc < 1000; pc++)
			assert_int_equal(profile_add(p, 0, 0, 0x1000 + 4 * pc, 1), 0);
	assert_int_equal(profile_settle(p), 0);
	assert_false(p->over_cap);
	assert_int_equal(p->nsamples, 1000);
	assert_int_equal(profile_add(p, 1, 0, 0x1000, 1), 0);      /* another CPU: a new key */
	assert_int_equal(profile_settle(p), 0);
	assert_true(p->over_cap);
	free_profile(p);

	/* a file of 1200 distinct pcs against a bound of 1000, then 2k */
	s.n = 0;
	pl.n = 0;
	meta_entry(&pl, "format", PROFILE_FORMAT);
	frame(&s, BMPROF_FRAME_HOST_META, &pl);
	for (unsigned f = 0; f < 3; f++) {
		for (unsigned i = 0; i < 400; i++)
			e[i] = (struct entry){ 0, 0x100000 + 16 * (400 * f + i), 1 };
		samples_payload(&pl, 0, f, e, 400);
		frame(&s, BMPROF_FRAME_SAMPLES, &pl);
	}
	pl.n = 0;
	b_put(&pl, (uint8_t[40]){ 0 }, 40);
	frame(&s, BMPROF_FRAME_HOST_STREAM, &pl);
	write_file(in_dir(path, "many.data"), s.p, s.n);
	setenv("BMPROF_MAX_ENTRIES", "1000", 1);
	p = new_profile();
	assert_int_equal(profile_load(path, p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "more than 1000 distinct"));
	assert_non_null(strstr(err, "--max-entries"));
	assert_non_null(strstr(err, "BMPROF_MAX_ENTRIES"));
	assert_null(strchr(err, '\n'));
	free_profile(p);
	setenv("BMPROF_MAX_ENTRIES", "2k", 1);
	p = new_profile();
	assert_int_equal(profile_load(path, p, err, sizeof(err)), 0);
	assert_int_equal(p->nsamples, 1200);
	free_profile(p);
	setenv("BMPROF_MAX_ENTRIES", "lots", 1);
	p = new_profile();
	assert_int_equal(profile_load(path, p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "BMPROF_MAX_ENTRIES takes a positive number"));
	free_profile(p);
	unsetenv("BMPROF_MAX_ENTRIES");
	(void)state;
}

/* HELLO's core clock (appended in wire 1.2) and TOTALS' sampled ticks give a timer's
 * cycles per sample; a PMU cycles event's is its mean period; anything else is unknown. */
static void test_cycles_per_sample(void **state)
{
	struct profile *p = new_profile();
	struct buf b;
	uint64_t v[BMPROF_TOTAL_NFIELDS] = { 0 };
	const struct entry e0[] = { { 0, 0x1000, 300 }, { 0, 0x1004, 100 } };
	const struct entry e1[] = { { 0, 0x2000, 100 } };
	const uint8_t active[6] = { BMPROF_EVST_ACTIVE, 0, BMPROF_CTR_FIXED, 1, 0xff, 1 };

	/* a HELLO without the core clock (wire 1.1): 0, unknown */
	hello_payload(&b, BMPROF_ARCH_X86_64, (const uint8_t *)"id", 2);
	assert_int_equal(apply(p, BMPROF_FRAME_HELLO, &b), 0);
	assert_int_equal(p->hello.core_hz, 0);
	event_payload(&b, 0, "timer");
	assert_int_equal(apply(p, BMPROF_FRAME_EVENT, &b), 0);
	samples_payload(&b, 0, 0, e0, 2);
	assert_int_equal(apply(p, BMPROF_FRAME_SAMPLES, &b), 0);
	samples_payload(&b, 1, 0, e1, 1);
	assert_int_equal(apply(p, BMPROF_FRAME_SAMPLES, &b), 0);
	v[BMPROF_TOTAL_SAMPLED_TICKS] = 300000000;   /* 0.3 s of a 1 GHz timebase */
	totals_payload(&b, 0, BMPROF_TOTAL_NFIELDS, v);
	assert_int_equal(apply(p, BMPROF_FRAME_TOTALS, &b), 0);
	v[BMPROF_TOTAL_SAMPLED_TICKS] = 200000000;
	totals_payload(&b, 1, BMPROF_TOTAL_NFIELDS, v);
	assert_int_equal(apply(p, BMPROF_FRAME_TOTALS, &b), 0);
	assert_true(profile_cycles_per_sample(p, 0) <= 0);

	/* with it: 0.5 s at 3 GHz over 500 samples */
	p->have_hello = 0;
	hello_payload(&b, BMPROF_ARCH_X86_64, (const uint8_t *)"id", 2);
	b_u64(&b, 3000000000ull);
	assert_int_equal(apply(p, BMPROF_FRAME_HELLO, &b), 0);
	assert_int_equal(p->hello.core_hz, 3000000000ull);
	assert_true(profile_cycles_per_sample(p, 0) > 2999999.0);
	assert_true(profile_cycles_per_sample(p, 0) < 3000001.0);

	/* under -icount a cycle is an instruction: ticks times ns per tick over 2^shift,
	 * whatever the core clock says; an automatic shift makes it unknown */
	assert_int_equal(profile_set_meta(p, "icount", "shift=0,sleep=off"), 0);
	assert_true(profile_cycles_per_sample(p, 0) == 1000000.0);
	assert_int_equal(profile_set_meta(p, "icount", "1"), 0);   /* older profiles */
	assert_true(profile_cycles_per_sample(p, 0) == 1000000.0);
	assert_int_equal(profile_set_meta(p, "icount", "shift=1"), 0);
	assert_true(profile_cycles_per_sample(p, 0) == 500000.0);
	assert_int_equal(profile_set_meta(p, "icount", "auto"), 0);
	assert_true(profile_cycles_per_sample(p, 0) <= 0);
	assert_int_equal(profile_set_meta(p, "icount", "0"), 0);
	assert_true(profile_cycles_per_sample(p, 0) > 2999999.0);

	/* a CPU with samples and no sampled ticks (an older target) makes it unknown */
	v[BMPROF_TOTAL_SAMPLED_TICKS] = 0;
	totals_payload(&b, 1, BMPROF_TOTAL_SAMPLED_TICKS, v);
	assert_int_equal(apply(p, BMPROF_FRAME_TOTALS, &b), 0);
	assert_int_equal(p->cpus[1].ntotals, BMPROF_TOTAL_SAMPLED_TICKS);
	assert_true(profile_cycles_per_sample(p, 0) <= 0);

	/* PMU events: cycles by its mean period, others unknown; unknown ids too */
	event_status_payload(&b, 1, "cycles", BMPROF_SOURCE_PMU_FIXED, active);
	bmprof_put64(b.p + 12, 1000000);
	bmprof_put64(b.p + 20, 100000);
	assert_int_equal(apply(p, BMPROF_FRAME_EVENT, &b), 0);
	assert_true(profile_cycles_per_sample(p, 1) == 950000.0);
	event_status_payload(&b, 2, "cpu-cycles", BMPROF_SOURCE_PMU, active);
	bmprof_put64(b.p + 20, 0);
	assert_int_equal(apply(p, BMPROF_FRAME_EVENT, &b), 0);
	assert_true(profile_cycles_per_sample(p, 2) == 100000.0);
	event_status_payload(&b, 3, "instructions", BMPROF_SOURCE_PMU, active);
	assert_int_equal(apply(p, BMPROF_FRAME_EVENT, &b), 0);
	assert_true(profile_cycles_per_sample(p, 3) <= 0);
	assert_true(profile_cycles_per_sample(p, 9) <= 0);
	free_profile(p);
}

/* The samples a timer's period asks for: the ticks every sampling CPU was enabled (TOTALS,
 * wire 1.3) over its mean period; a PMU event's: its count over its mean period. */
static void test_sample_rate(void **state)
{
	struct profile *p = new_profile();
	struct buf b;
	uint64_t v[BMPROF_TOTAL_NFIELDS] = { 0 };
	const struct entry e0[] = { { 0, 0x1000, 680 } };
	const struct entry e1[] = { { 1, 0x2000, 450 } };
	const uint8_t active[6] = { BMPROF_EVST_ACTIVE, 0, BMPROF_CTR_GP, 0, 0xff, 1 };
	double want;

	(void)state;
	hello_payload(&b, BMPROF_ARCH_X86_64, (const uint8_t *)"id", 2);
	assert_int_equal(apply(p, BMPROF_FRAME_HELLO, &b), 0);
	event_payload(&b, 0, "timer");
	bmprof_put64(b.p + 12, 100000);   /* period */
	bmprof_put64(b.p + 20, 0);        /* jitter */
	assert_int_equal(apply(p, BMPROF_FRAME_EVENT, &b), 0);
	samples_payload(&b, 0, 0, e0, 1);
	assert_int_equal(apply(p, BMPROF_FRAME_SAMPLES, &b), 0);
	/* no enabled ticks (a target before wire 1.3): unknown */
	totals_payload(&b, 0, BMPROF_TOTAL_NFIELDS, v);
	assert_int_equal(apply(p, BMPROF_FRAME_TOTALS, &b), 0);
	assert_true(profile_sample_rate(p, 0, &want) < 0);
	/* 0.1 s at 1 GHz over 100,000-tick periods: 1000 asked for, 680 came */
	v[BMPROF_TOTAL_ENABLED_TICKS] = 100000000;
	totals_payload(&b, 0, BMPROF_TOTAL_NFIELDS, v);
	assert_int_equal(apply(p, BMPROF_FRAME_TOTALS, &b), 0);
	assert_true(profile_sample_rate(p, 0, &want) == 0.68);
	assert_true(want == 1000.0);
	/* a PMU event: 500 periods of 1000 in its count, 450 samples */
	event_status_payload(&b, 1, "cycles", BMPROF_SOURCE_PMU, active);
	bmprof_put64(b.p + 12, 1000);
	bmprof_put64(b.p + 20, 0);
	assert_int_equal(apply(p, BMPROF_FRAME_EVENT, &b), 0);
	samples_payload(&b, 0, 1, e1, 1);
	assert_int_equal(apply(p, BMPROF_FRAME_SAMPLES, &b), 0);
	assert_true(profile_sample_rate(p, 1, &want) < 0);   /* no COUNTS yet */
	counts_payload(&b, 0, &(struct count_rec){ 1, 0, 500000, 10, 10 }, 1);
	assert_int_equal(apply(p, BMPROF_FRAME_COUNTS, &b), 0);
	assert_true(profile_sample_rate(p, 1, &want) == 0.9);
	assert_true(profile_sample_rate(p, 7, &want) < 0);
	free_profile(p);
}


/* Phases: PHASE frames name them, sample entries carry them above the event id; the
 * samples add up over phases, and a phase's samples can be kept alone. */
static void test_phases(void **state)
{
	static struct buf b;
	const struct entry e[] = {
		{ 0, 0x1000, 5 },                   /* the start */
		{ 0 | 1u << 16, 0x1000, 3 },        /* phase 1 */
		{ 1 | 2u << 16, 0x2000, 4 },        /* phase 2, event 1 */
		{ 0 | 1u << 16, 0x1000, 2 },        /* phase 1 again */
	};
	struct profile *p = new_profile(), q;
	uint16_t ids[8], keep0[] = { 0 }, keep12[] = { 1, 2 };
	char name[64];

	b.n = 0;
	b_u16(&b, 1);
	b_put(&b, "\x04\x00", 2);
	b_u64(&b, 1000);
	b_put(&b, "boot", 4);
	assert_int_equal(apply(p, BMPROF_FRAME_PHASE, &b), 0);
	samples_payload(&b, 1, 0, e, 4);
	assert_int_equal(apply(p, BMPROF_FRAME_SAMPLES, &b), 0);
	assert_int_equal(profile_settle(p), 0);
	assert_int_equal(p->total, 14);
	assert_int_equal(count_of(p, 1, 0x1000, 0), 10);
	assert_int_equal(count_of(p, 1, 0x2000, 1), 4);
	assert_int_equal(p->max_phase, 2);
	assert_string_equal(profile_phase_name(p, 1, name, sizeof name), "boot");
	assert_string_equal(profile_phase_name(p, 2, name, sizeof name), "phase 2");
	assert_string_equal(profile_phase_name(p, 0, name, sizeof name), "(start)");
	assert_int_equal(p->phases[1].at, 1000);
	assert_int_equal(profile_phase_find(p, "boot", ids, 8), 1);
	assert_int_equal(ids[0], 1);
	assert_int_equal(profile_phase_find(p, "2", ids, 8), 1);
	assert_int_equal(ids[0], 2);
	assert_int_equal(profile_phase_find(p, "(start)", ids, 8), 1);
	assert_int_equal(ids[0], 0);
	assert_int_equal(profile_phase_find(p, "nosuch", ids, 8), 0);

	/* by phase: cpu is the phase */
	assert_int_equal(profile_by_phase(p, &q), 0);
	assert_int_equal(q.total, 14);
	assert_int_equal(count_of(&q, 0, 0x1000, 0), 5);
	assert_int_equal(count_of(&q, 1, 0x1000, 0), 5);
	assert_int_equal(count_of(&q, 2, 0x2000, 1), 4);
	profile_free(&q);

	/* bad PHASE frames: id 0, an id past the bound, a name longer than the payload */
	uint64_t bad = p->frames_malformed;
	b.n = 0;
	b_u16(&b, 0);
	b_put(&b, "\x00\x00", 2);
	b_u64(&b, 0);
	assert_int_equal(apply(p, BMPROF_FRAME_PHASE, &b), -1);
	b.n = 0;
	b_u16(&b, BMPROF_PHASE_ID_MAX + 1);
	b_put(&b, "\x00\x00", 2);
	b_u64(&b, 0);
	assert_int_equal(apply(p, BMPROF_FRAME_PHASE, &b), -1);
	b.n = 0;
	b_u16(&b, 3);
	b_put(&b, "\x09\x00", 2);
	b_u64(&b, 0);
	b_put(&b, "abc", 3);
	assert_int_equal(apply(p, BMPROF_FRAME_PHASE, &b), -1);
	/* a sample in a phase past the bound: the frame is refused whole */
	const struct entry far[] = { { 0 | 2u << 16, 0x3000, 1 },
				     { (uint64_t)(BMPROF_PHASE_ID_MAX + 1) << 16, 0x3000, 1 } };
	samples_payload(&b, 1, 1, far, 2);
	assert_int_equal(apply(p, BMPROF_FRAME_SAMPLES, &b), -1);
	assert_int_equal(p->frames_malformed, bad + 4);
	assert_int_equal(p->total, 14);
	assert_int_equal(p->nphase_samples, 3);

	/* keep the start: every sample less those of the phases */
	assert_int_equal(profile_keep_phases(p, keep0, 1), 0);
	assert_int_equal(p->total, 5);
	assert_int_equal(count_of(p, 1, 0x1000, 0), 5);
	assert_int_equal(count_of(p, 1, 0x2000, 1), 0);
	free_profile(p);

	p = new_profile();
	samples_payload(&b, 1, 0, e, 4);
	assert_int_equal(apply(p, BMPROF_FRAME_SAMPLES, &b), 0);
	assert_int_equal(profile_keep_phases(p, keep12, 2), 0);
	assert_int_equal(p->total, 9);
	assert_int_equal(count_of(p, 1, 0x1000, 0), 5);
	assert_int_equal(count_of(p, 1, 0x2000, 1), 4);
	free_profile(p);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sample_rate),
		cmocka_unit_test(test_sample_aggregation),
		cmocka_unit_test(test_samples_frame_decoded),
		cmocka_unit_test(test_phases),
		cmocka_unit_test(test_store_merges_exactly),
		cmocka_unit_test(test_store_bound),
		cmocka_unit_test(test_malformed_samples_rejected_whole),
		cmocka_unit_test(test_seq_gaps),
		cmocka_unit_test(test_unknown_type_skipped),
		cmocka_unit_test(test_totals),
		cmocka_unit_test(test_hello_event_end_rules),
		cmocka_unit_test(test_host_frames),
		cmocka_unit_test(test_file_round_trip),
		cmocka_unit_test(test_capture_discarded),
		cmocka_unit_test(test_load_errors),
		cmocka_unit_test(test_load_truncated),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_event_status),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_counts_file_and_summary),
		cmocka_unit_test(test_load_bounds),
		cmocka_unit_test(test_cycles_per_sample),
	};
	return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
