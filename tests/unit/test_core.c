/* SPDX-License-Identifier: BSD-2-Clause */
/* The arch-neutral target core (target/core) and the target frame builders
 * (transport/target), driven natively. Frames are decoded here with wire.h alone and their
 * CRCs checked with zlib, so the checks do not lean on the code under test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <cmocka.h>

#include "bmprof.h"
#include "wire.h"
#include "../../target/core/core.h"

/* ---- a CPU with its own memory ---- */

struct cpu {
	struct bmprof_cpu c;
	void *mem;
};

static struct cpu *cpu_new(uint32_t table_entries, uint32_t ovf_entries, uint64_t seed)
{
	struct cpu *p = calloc(1, sizeof *p);
	size_t n = bmprof_cpu_mem_size(table_entries, ovf_entries);
	assert_true(n > 0);
	p->mem = aligned_alloc(64, (n + 63) & ~(size_t)63);
	assert_non_null(p->mem);
	memset(p->mem, 0xa5, n); /* init must clear it */
	assert_int_equal(bmprof_cpu_init(&p->c, 3, p->mem, n, table_entries, ovf_entries, seed), 0);
	return p;
}

static void cpu_free(struct cpu *p)
{
	free(p->mem);
	free(p);
}

/* ---- a sink that keeps what it accepts, and can refuse chosen writes ---- */

struct sink {
	uint8_t *buf;
	size_t len, cap;
	uint8_t *bad;        /* bytes of refused writes */
	size_t bad_len, bad_cap;
	unsigned calls;
	unsigned fail_call;  /* 1-based call number to refuse; 0: none */
	unsigned fail_every; /* refuse every n-th call if it is a SAMPLES frame; 0: none */
	int depth, nested;   /* nested: write() was entered from inside write() */
	struct bmprof_cpu *reenter; /* call drain/flush on it from inside write() */
	struct bmprof_out *out;
};

static void append(uint8_t **b, size_t *len, size_t *cap, const void *p, size_t n)
{
	if (*len + n > *cap) {
		*cap = (*len + n) * 2 + 4096;
		*b = realloc(*b, *cap);
		assert_non_null(*b);
	}
	memcpy(*b + *len, p, n);
	*len += n;
}

static int sink_write(void *ctx, const void *buf, size_t len)
{
	struct sink *s = ctx;
	s->calls++;
	if (s->depth)
		s->nested = 1;
	s->depth++;
	if (s->reenter && s->depth == 1) {
		bmprof_drain(s->reenter, s->out);
		bmprof_flush(s->reenter, s->out);
	}
	s->depth--;
	const uint8_t *f = buf;
	int refuse_samples = s->fail_every && s->calls % s->fail_every == 0 && len > 4 &&
			     f[4] == BMPROF_FRAME_SAMPLES;
	if (s->calls == s->fail_call || refuse_samples) {
		append(&s->bad, &s->bad_len, &s->bad_cap, buf, len);
		return -1;
	}
	append(&s->buf, &s->len, &s->cap, buf, len);
	return 0;
}

static struct bmprof_out sink_out(struct sink *s)
{
	return (struct bmprof_out){ .write = sink_write, .ctx = s };
}

static void sink_free(struct sink *s)
{
	free(s->buf);
	free(s->bad);
}

/* ---- a local decoder ---- */

struct rec {
	uint64_t pc;
	uint16_t event;
	uint64_t count;
};

struct recs {
	struct rec *r;
	size_t n, cap;
};

static void recs_add(struct recs *v, uint64_t pc, uint16_t event, uint64_t count)
{
	if (v->n == v->cap) {
		v->cap = v->cap * 2 + 64;
		v->r = realloc(v->r, v->cap * sizeof *v->r);
		assert_non_null(v->r);
	}
	v->r[v->n++] = (struct rec){ pc, event, count };
}

static int rec_cmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	return (int)x->event - (int)y->event;
}

/* Sort and merge equal keys. */
static void recs_normalize(struct recs *v)
{
	if (!v->n)
		return;
	qsort(v->r, v->n, sizeof *v->r, rec_cmp);
	size_t o = 0;
	for (size_t i = 1; i < v->n; i++) {
		if (rec_cmp(&v->r[o], &v->r[i]) == 0)
			v->r[o].count += v->r[i].count;
		else
			v->r[++o] = v->r[i];
	}
	v->n = o + 1;
}

static uint64_t recs_sum(const struct recs *v)
{
	uint64_t s = 0;
	for (size_t i = 0; i < v->n; i++)
		s += v->r[i].count;
	return s;
}

struct decoded {
	struct recs e;
	uint32_t seq[4096];
	unsigned nseq;
	unsigned samples_frames, max_payload;
	int unsorted;         /* a frame's entries were not in (pc, event) order */
	int totals;           /* TOTALS frames seen */
	int totals_last;      /* the TOTALS frame was the last frame */
	uint16_t totals_cpu;
	uint64_t tf[BMPROF_TOTAL_NFIELDS];
	uint16_t cpu;
};

/* Decode one SAMPLES payload into d; returns the sum of its counts. */
static uint64_t decode_samples(struct decoded *d, const uint8_t *p, size_t len)
{
	assert_true(len >= BMPROF_SAMPLES_FIXED);
	d->cpu = bmprof_get16(p);
	unsigned n = bmprof_get16(p + 2);
	if (d->nseq < 4096)
		d->seq[d->nseq++] = bmprof_get32(p + 4);
	const uint8_t *q = p + BMPROF_SAMPLES_FIXED, *end = p + len;
	uint64_t prev = 0, sum = 0;
	struct rec last = { 0, 0, 0 };
	for (unsigned i = 0; i < n; i++) {
		uint64_t ev = 0, zz = 0, count = 0;
		unsigned k;
		assert_true((k = bmprof_get_varint(q, end, &ev)) > 0);
		q += k;
		assert_true((k = bmprof_get_varint(q, end, &zz)) > 0);
		q += k;
		assert_true((k = bmprof_get_varint(q, end, &count)) > 0);
		q += k;
		/* event_id + (phase << 16) on the wire; kept as the table's key */
		assert_true((ev & 0xffff) <= BMPROF_EVENT_MASK && ev >> 16 <= BMPROF_PHASE_MAX);
		ev = (ev & BMPROF_EVENT_MASK) | (ev >> 16) << BMPROF_EVENT_BITS;
		assert_true(count >= 1);
		uint64_t pc = prev + (uint64_t)bmprof_unzigzag(zz);
		struct rec r = { pc, (uint16_t)ev, count };
		if (i && rec_cmp(&last, &r) > 0)
			d->unsorted = 1;
		last = r;
		recs_add(&d->e, pc, (uint16_t)ev, count);
		prev = pc;
		sum += count;
	}
	assert_ptr_equal(q, end);
	return sum;
}

/* Walk a byte stream made only of frames, checking each frame's framing and CRC. */
static void decode(struct decoded *d, const uint8_t *b, size_t len)
{
	memset(d, 0, sizeof *d);
	size_t off = 0;
	while (off < len) {
		assert_true(len - off >= BMPROF_FRAME_HDR + BMPROF_FRAME_CRC);
		const uint8_t *f = b + off;
		assert_int_equal(f[0], 0xB5);
		assert_int_equal(f[1], 'B');
		assert_int_equal(f[2], 'M');
		assert_int_equal(f[3], 'P');
		assert_int_equal(f[5], 0);
		size_t n = bmprof_get16(f + 6);
		assert_true(len - off >= BMPROF_FRAME_HDR + n + BMPROF_FRAME_CRC);
		uint32_t want = (uint32_t)crc32(0, f + 4, (uInt)(4 + n));
		assert_int_equal(bmprof_get32(f + BMPROF_FRAME_HDR + n), want);
		const uint8_t *p = f + BMPROF_FRAME_HDR;
		d->totals_last = 0;
		if (f[4] == BMPROF_FRAME_SAMPLES) {
			d->samples_frames++;
			if (n > d->max_payload)
				d->max_payload = (unsigned)n;
			decode_samples(d, p, n);
		} else if (f[4] == BMPROF_FRAME_TOTALS) {
			d->totals++;
			d->totals_last = 1;
			assert_true(n >= BMPROF_TOTALS_FIXED + 8 * BMPROF_TOTAL_NFIELDS);
			d->totals_cpu = bmprof_get16(p);
			assert_int_equal(bmprof_get16(p + 2), BMPROF_TOTAL_NFIELDS);
			assert_int_equal(n, BMPROF_TOTALS_FIXED + 8 * bmprof_get16(p + 2));
			for (unsigned i = 0; i < BMPROF_TOTAL_NFIELDS; i++)
				d->tf[i] = bmprof_get64(p + BMPROF_TOTALS_FIXED + 8 * i);
		} else {
			fail_msg("unexpected frame type %u", f[4]);
		}
		off += BMPROF_FRAME_HDR + n + BMPROF_FRAME_CRC;
	}
}

static void decoded_free(struct decoded *d)
{
	free(d->e.r);
}

/* ---- helpers over the state ---- */

static uint64_t table_sum(const struct bmprof_cpu *c, unsigned *used)
{
	const struct bmprof_entry *t = bmprof_table_entries(c);
	uint64_t s = 0;
	unsigned u = 0;
	for (uint64_t i = 0; i < bmprof_table_size(c); i++) {
		s += t[i].count;
		u += t[i].count != 0;
	}
	if (used)
		*used = u;
	return s;
}

/* Samples waiting in overflow buffers (FILLING or FULL). */
static uint64_t ovf_sum(const struct bmprof_cpu *c)
{
	uint64_t s = 0;
	for (int i = 0; i < 2; i++)
		if (c->ovf[i].state != BMPROF_OVF_EMPTY)
			for (uint32_t j = 0; j < c->ovf[i].fill; j++)
				s += c->ovf[i].slot[j].count;
	return s;
}

static const struct bmprof_entry *find(const struct bmprof_cpu *c, uint64_t pc, uint16_t ev)
{
	const struct bmprof_entry *t = bmprof_table_entries(c);
	const struct bmprof_entry *hit = NULL;
	for (uint64_t i = 0; i < bmprof_table_size(c); i++) {
		if (t[i].count && t[i].pc == pc && t[i].event == ev) {
			assert_null(hit); /* a key is in the table at most once */
			hit = &t[i];
		}
	}
	return hit;
}

static void check_invariant(const struct bmprof_cpu *c)
{
	struct bmprof_counters k;
	bmprof_get_counters(c, &k);
	uint64_t held = table_sum(c, NULL) + ovf_sum(c);
	assert_int_equal(k.taken, k.delivered + k.lost_full + k.lost_transport + held);
}

static void check_entry(const struct bmprof_entry *e, uint64_t pc, uint16_t ev, uint32_t count)
{
	assert_int_equal(e->pc, pc);
	assert_int_equal(e->event, ev);
	assert_int_equal(e->count, count);
}

static uint64_t rng_next(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* ---- init ---- */

static void test_init_rejects_bad_args(void **state)
{
	(void)state;
	struct bmprof_cpu c;
	size_t n = bmprof_cpu_mem_size(64, 16);
	assert_int_equal(n, 16 * 64 + 2 * 16 * 16);
	/* rounded up to a power of two number of buckets */
	assert_int_equal(bmprof_cpu_mem_size(1, 1), 64 + 32);
	assert_int_equal(bmprof_cpu_mem_size(5, 1), 2 * 64 + 32);
	assert_int_equal(bmprof_cpu_mem_size(13, 1), 4 * 64 + 32);
	assert_int_equal(bmprof_cpu_mem_size(16, 1), 4 * 64 + 32);
	assert_int_equal(bmprof_cpu_mem_size(0, 1), 0);
	assert_int_equal(bmprof_cpu_mem_size(4, 0), 0);
	assert_int_equal(bmprof_cpu_mem_size(BMPROF_TABLE_ENTRIES_MAX + 1, 4), 0);
	assert_int_equal(bmprof_cpu_mem_size(4, BMPROF_OVF_ENTRIES_MAX + 1), 0);

	uint8_t *mem = aligned_alloc(64, n + 64);
	assert_int_equal(bmprof_cpu_init(&c, 0, mem, n, 64, 16, 1), 0);
	assert_int_equal(c.mask, 15);
	assert_ptr_equal(c.table, mem);
	assert_ptr_equal(c.ovf[0].slot, mem + 16 * 64);
	assert_ptr_equal(c.ovf[1].slot, mem + 16 * 64 + 16 * 16);
	assert_int_equal(c.ovf[0].cap, 16);
	assert_int_equal(c.ovf[0].state, BMPROF_OVF_FILLING);
	assert_int_equal(c.ovf[1].state, BMPROF_OVF_EMPTY);

	assert_int_equal(bmprof_cpu_init(&c, 0, mem + 8, n, 64, 16, 1), -1);   /* misaligned */
	assert_int_equal(bmprof_cpu_init(&c, 0, mem + 32, n, 64, 16, 1), -1);  /* misaligned */
	assert_int_equal(bmprof_cpu_init(&c, 0, mem + 64, n, 64, 16, 1), 0);
	assert_int_equal(bmprof_cpu_init(&c, 0, mem, n - 1, 64, 16, 1), -1);   /* too small */
	assert_int_equal(bmprof_cpu_init(&c, 0, mem, n, 65, 16, 1), -1);       /* needs 32 buckets */
	assert_int_equal(bmprof_cpu_init(&c, 0, mem, n, 64, 17, 1), -1);
	assert_int_equal(bmprof_cpu_init(&c, 0, mem, n, 0, 16, 1), -1);
	assert_int_equal(bmprof_cpu_init(&c, 0, mem, n, 64, 0, 1), -1);
	assert_int_equal(bmprof_cpu_init(&c, 0, NULL, n, 64, 16, 1), -1);
	assert_int_equal(bmprof_cpu_init(NULL, 0, mem, n, 64, 16, 1), -1);
	assert_int_equal(bmprof_cpu_init(&c, 0, mem, n, 0xffffffffu, 16, 1), -1);
	free(mem);
}

/* ---- the table ---- */

static void test_hit_increments(void **state)
{
	(void)state;
	struct cpu *p = cpu_new(64, 8, 1);
	struct bmprof_cpu *c = &p->c;
	for (int i = 0; i < 5; i++)
		bmprof_record(c, 0x401003, 2);
	const struct bmprof_entry *e = find(c, 0x401003, 2);
	assert_non_null(e);
	check_entry(e, 0x401003, 2, 5);
	assert_int_equal(c->taken, 5);
	assert_int_equal(c->hits, 4);
	assert_int_equal(c->misses, 1);
	/* the entry is in the bucket its hash names */
	assert_ptr_equal(e, &c->table[bmprof_bucket_index(c, 0x401003, 2, 0)].way[0]);
	unsigned used;
	assert_int_equal(table_sum(c, &used), 5);
	assert_int_equal(used, 1);
	cpu_free(p);
}

static void test_miss_inserts(void **state)
{
	(void)state;
	struct cpu *p = cpu_new(1024, 8, 1);
	struct bmprof_cpu *c = &p->c;
	/* same pc under two events, and neighbouring byte addresses, are distinct keys */
	bmprof_record(c, 0x1000, 0);
	bmprof_record(c, 0x1000, 1);
	bmprof_record(c, 0x1001, 0);
	bmprof_record(c, 0x1000, 1);
	check_entry(find(c, 0x1000, 0), 0x1000, 0, 1);
	check_entry(find(c, 0x1000, 1), 0x1000, 1, 2);
	check_entry(find(c, 0x1001, 0), 0x1001, 0, 1);
	assert_null(find(c, 0x1002, 0));
	assert_int_equal(c->misses, 3);
	assert_int_equal(c->hits, 1);
	assert_int_equal(c->evictions, 0);
	assert_int_equal(c->ovf[0].fill, 0);
	cpu_free(p);
}

/* Byte-aligned and strided pcs both spread over the buckets. */
static void test_hash_spreads(void **state)
{
	(void)state;
	static const uint64_t strides[] = { 1, 3, 4, 16, 64, 4096, 1 << 20 };
	for (unsigned s = 0; s < sizeof strides / sizeof strides[0]; s++) {
		struct cpu *p = cpu_new(1024, 1024, 1);
		for (uint64_t i = 0; i < 512; i++)
			bmprof_record(&p->c, 0xffffffff81000000ull + i * strides[s], 0);
		/* 512 keys in 256 buckets of 4: a uniform hash evicts a few percent */
		assert_true(p->c.evictions < 40);
		cpu_free(p);
	}
	struct cpu *p = cpu_new(1024, 1024, 1);
	for (uint64_t i = 0; i < 64; i++)
		for (uint16_t ev = 0; ev < 8; ev++)
			bmprof_record(&p->c, 0x400000 + i * 5, ev);
	assert_true(p->c.evictions < 10);
	cpu_free(p);
}

/* One bucket: every key collides, ways are replaced 0, 1, 2, 3, 0, ... */
static void test_evict_round_robin(void **state)
{
	(void)state;
	struct cpu *p = cpu_new(4, 16, 1);
	struct bmprof_cpu *c = &p->c;
	struct bmprof_entry *w = c->table[0].way;
	assert_int_equal(c->mask, 0);
	for (unsigned i = 0; i < 4; i++)
		for (unsigned k = 0; k <= i; k++)
			bmprof_record(c, 0x100 + i, (uint16_t)i);
	for (unsigned i = 0; i < 4; i++)
		check_entry(&w[i], 0x100 + i, (uint16_t)i, i + 1);
	assert_int_equal(c->evictions, 0);

	for (unsigned i = 4; i < 9; i++) {
		unsigned way = i % 4;
		uint64_t old_pc = w[way].pc;
		uint16_t old_ev = w[way].event;
		uint32_t old_count = w[way].count;
		assert_int_equal(c->rr, way);
		bmprof_record(c, 0x100 + i, 7);
		check_entry(&w[way], 0x100 + i, 7, 1);
		check_entry(&c->ovf[0].slot[i - 4], old_pc, old_ev, old_count);
		assert_int_equal(c->ovf[0].fill, i - 3);
	}
	/* the fifth eviction took way 0 again: the entry inserted by the first eviction */
	check_entry(&c->ovf[0].slot[4], 0x104, 7, 1);
	assert_int_equal(c->rr, 1);
	assert_int_equal(c->evictions, 5);
	assert_int_equal(c->misses, 9);
	check_invariant(c);
	cpu_free(p);
}

static void test_count_wrap_evicts(void **state)
{
	(void)state;
	struct cpu *p = cpu_new(64, 8, 1);
	struct bmprof_cpu *c = &p->c;
	bmprof_record(c, 0x5000, 1);
	struct bmprof_entry *e = (struct bmprof_entry *)find(c, 0x5000, 1);
	e->count = UINT32_MAX - 1;
	bmprof_record(c, 0x5000, 1);
	assert_int_equal(e->count, UINT32_MAX);
	assert_int_equal(c->ovf[0].fill, 0);
	bmprof_record(c, 0x5000, 1);
	assert_int_equal(e->count, 1);
	assert_int_equal(c->ovf[0].fill, 1);
	check_entry(&c->ovf[0].slot[0], 0x5000, 1, UINT32_MAX);
	assert_int_equal(c->evictions, 1);

	struct sink s = { 0 };
	struct bmprof_out out = sink_out(&s);
	bmprof_flush(c, &out);
	struct decoded d;
	decode(&d, s.buf, s.len);
	recs_normalize(&d.e);
	assert_int_equal(d.e.n, 1);
	assert_int_equal(d.e.r[0].count, (uint64_t)UINT32_MAX + 1);
	assert_int_equal(c->delivered, (uint64_t)UINT32_MAX + 1);
	decoded_free(&d);
	sink_free(&s);
	cpu_free(p);
}

/* ---- overflow buffers ---- */

/* One bucket, buffers of 2: the first four keys fill the ways, then each new key evicts. */
static void test_ovf_switch_when_full(void **state)
{
	(void)state;
	struct cpu *p = cpu_new(4, 2, 1);
	struct bmprof_cpu *c = &p->c;
	for (unsigned i = 0; i < 4; i++)
		bmprof_record(c, 0x10 * (i + 1), 0);
	assert_false(bmprof_drain_pending(c));
	bmprof_record(c, 0x50, 0); /* evicts 0x10 */
	assert_int_equal(c->ovf[0].state, BMPROF_OVF_FILLING);
	assert_int_equal(c->ovf[0].fill, 1);
	bmprof_record(c, 0x60, 0); /* evicts 0x20: buffer 0 full */
	assert_int_equal(c->ovf[0].state, BMPROF_OVF_FULL);
	assert_int_equal(c->ovf[1].state, BMPROF_OVF_FILLING);
	assert_int_equal(c->active, 1);
	assert_int_equal(c->ovf[1].fill, 0);
	assert_true(bmprof_drain_pending(c));
	bmprof_record(c, 0x70, 0); /* evicts 0x30 into buffer 1 */
	check_entry(&c->ovf[1].slot[0], 0x30, 0, 1);
	check_entry(&c->ovf[0].slot[0], 0x10, 0, 1);
	check_entry(&c->ovf[0].slot[1], 0x20, 0, 1);

	struct sink s = { 0 };
	struct bmprof_out out = sink_out(&s);
	bmprof_drain(c, &out);
	assert_int_equal(c->ovf[0].state, BMPROF_OVF_EMPTY);
	assert_int_equal(c->ovf[1].state, BMPROF_OVF_FILLING); /* the drain leaves it alone */
	assert_false(bmprof_drain_pending(c));
	assert_int_equal(c->delivered, 2);
	bmprof_record(c, 0x80, 0); /* evicts 0x40: buffer 1 full, switch back to 0 */
	assert_int_equal(c->ovf[1].state, BMPROF_OVF_FULL);
	assert_int_equal(c->ovf[0].state, BMPROF_OVF_FILLING);
	assert_int_equal(c->active, 0);
	check_invariant(c);
	sink_free(&s);
	cpu_free(p);
}

static void test_both_full_counts_lost(void **state)
{
	(void)state;
	struct cpu *p = cpu_new(4, 2, 1);
	struct bmprof_cpu *c = &p->c;
	/* key i is recorded i + 1 times before the next key arrives, so each evicted entry
	 * carries a distinct count */
	uint64_t expect_lost = 0;
	for (unsigned i = 0; i < 12; i++) {
		for (unsigned k = 0; k <= i; k++)
			bmprof_record(c, 0x1000 + 8 * i, 0);
		/* keys 0..3 fill the ways, 4..7 evict keys 0..3 into the buffers, 8..11 evict
		 * keys 4..7 with no room left */
		if (i >= 8)
			expect_lost += (i - 4) + 1;
	}
	assert_int_equal(c->ovf[0].state, BMPROF_OVF_FULL);
	assert_int_equal(c->ovf[1].state, BMPROF_OVF_FULL);
	assert_int_equal(c->evictions, 4);
	assert_int_equal(c->lost_full, expect_lost);
	check_invariant(c);

	/* after a drain the handler takes a buffer again */
	struct sink s = { 0 };
	struct bmprof_out out = sink_out(&s);
	bmprof_drain(c, &out);
	assert_int_equal(c->delivered, 1 + 2 + 3 + 4);
	bmprof_record(c, 0x9999, 0);
	assert_int_equal(c->evictions, 5);
	assert_int_equal(c->lost_full, expect_lost);
	check_invariant(c);
	sink_free(&s);
	cpu_free(p);
}

/* ---- drain ---- */

/* n distinct keys through a one-bucket table: all but the last four leave, in order, for
 * the overflow buffers. Appends the evicted (pc, event, count) to want. */
static void feed_evictions(struct bmprof_cpu *c, unsigned n, uint64_t *rng, struct recs *want)
{
	uint64_t pcs[4];
	uint16_t evs[4];
	uint32_t counts[4];
	for (unsigned i = 0; i < n; i++) {
		uint64_t pc = rng_next(rng);
		if (i == 1)
			pc = 0;
		if (i == 2)
			pc = UINT64_MAX;
		uint16_t ev = (uint16_t)(i % 3 == 0 ? BMPROF_EVENT_MASK : i % 3);
		uint32_t count = 1 + (uint32_t)(rng_next(rng) % 5);
		for (uint32_t k = 0; k < count; k++)
			bmprof_record(c, pc, ev);
		if (i >= 4)
			recs_add(want, pcs[i % 4], evs[i % 4], counts[i % 4]);
		pcs[i % 4] = pc;
		evs[i % 4] = ev;
		counts[i % 4] = count;
	}
}

static void assert_same_recs(struct recs *a, struct recs *b)
{
	recs_normalize(a);
	recs_normalize(b);
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++) {
		assert_int_equal(a->r[i].pc, b->r[i].pc);
		assert_int_equal(a->r[i].event, b->r[i].event);
		assert_int_equal(a->r[i].count, b->r[i].count);
	}
}

static void test_drain_frames_decode(void **state)
{
	(void)state;
	struct cpu *p = cpu_new(4, 500, 1);
	struct bmprof_cpu *c = &p->c;
	uint64_t rng = 42;
	struct recs want = { 0 };
	feed_evictions(c, 1004, &rng, &want);
	assert_int_equal(want.n, 1000);
	assert_true(bmprof_drain_pending(c));

	struct sink s = { 0 };
	struct bmprof_out out = sink_out(&s);
	bmprof_drain(c, &out);
	assert_false(bmprof_drain_pending(c));
	assert_int_equal(c->ovf[0].state, BMPROF_OVF_EMPTY);
	assert_int_equal(c->ovf[1].state, BMPROF_OVF_EMPTY);
	assert_int_equal(s.calls, c->frames); /* one write per frame */

	struct decoded d;
	decode(&d, s.buf, s.len);
	assert_true(d.samples_frames > 2);
	assert_int_equal(d.samples_frames, c->frames);
	assert_true(d.max_payload <= BMPROF_SAMPLES_PAYLOAD);
	assert_true(d.max_payload > BMPROF_SAMPLES_PAYLOAD - 3 * BMPROF_VARINT_MAX);
	assert_false(d.unsorted);
	assert_int_equal(d.cpu, 3);
	for (unsigned i = 0; i < d.nseq; i++)
		assert_int_equal(d.seq[i], i);
	assert_int_equal(recs_sum(&d.e), c->delivered);
	assert_int_equal(c->delivered, recs_sum(&want));
	assert_same_recs(&d.e, &want);
	check_invariant(c);

	/* a second drain has nothing to send */
	bmprof_drain(c, &out);
	assert_int_equal(s.calls, c->frames);
	decoded_free(&d);
	free(want.r);
	sink_free(&s);
	cpu_free(p);
}

static void test_drain_transport_failure(void **state)
{
	(void)state;
	struct cpu *p = cpu_new(4, 500, 1);
	struct bmprof_cpu *c = &p->c;
	uint64_t rng = 7;
	struct recs want = { 0 };
	feed_evictions(c, 1004, &rng, &want);

	struct sink s = { .fail_call = 2 };
	struct bmprof_out out = sink_out(&s);
	bmprof_drain(c, &out);
	struct decoded d, bad;
	decode(&d, s.buf, s.len);
	decode(&bad, s.bad, s.bad_len);
	assert_int_equal(bad.samples_frames, 1);
	assert_int_equal(bad.seq[0], 1);
	/* the refused frame's sequence number is a gap: 0, 2, 3, ... */
	assert_int_equal(d.samples_frames + 1, c->frames);
	assert_int_equal(d.seq[0], 0);
	for (unsigned i = 1; i < d.nseq; i++)
		assert_int_equal(d.seq[i], i + 1);
	assert_int_equal(c->lost_transport, recs_sum(&bad.e));
	assert_true(c->lost_transport > 0);
	assert_int_equal(c->delivered, recs_sum(&d.e));
	assert_int_equal(c->delivered + c->lost_transport, recs_sum(&want));
	check_invariant(c);

	/* a sink with no write function loses everything, without crashing */
	struct bmprof_out none = { 0 };
	bmprof_flush(c, &none);
	assert_int_equal(c->taken, c->delivered + c->lost_full + c->lost_transport);
	decoded_free(&d);
	decoded_free(&bad);
	free(want.r);
	sink_free(&s);
	cpu_free(p);
}

/* out->write polls the drain (as a transport waiting for room might): nothing is sent
 * twice and no write runs inside another. */
static void test_drain_not_reentrant(void **state)
{
	(void)state;
	struct cpu *p = cpu_new(4, 500, 1);
	struct bmprof_cpu *c = &p->c;
	uint64_t rng = 9;
	struct recs want = { 0 };
	feed_evictions(c, 1004, &rng, &want);

	struct sink s = { 0 };
	struct bmprof_out out = sink_out(&s);
	s.reenter = c;
	s.out = &out;
	bmprof_drain(c, &out);
	assert_false(s.nested);
	struct decoded d;
	decode(&d, s.buf, s.len);
	assert_int_equal(d.totals, 0); /* the nested flush did not run */
	assert_int_equal(d.samples_frames, c->frames);
	for (unsigned i = 0; i < d.nseq; i++)
		assert_int_equal(d.seq[i], i);
	assert_same_recs(&d.e, &want);
	assert_int_equal(c->draining, 0);

	/* the same from inside a flush */
	sink_free(&s);
	memset(&s, 0, sizeof s);
	s.reenter = c;
	s.out = &out;
	bmprof_flush(c, &out);
	assert_false(s.nested);
	decoded_free(&d);
	decode(&d, s.buf, s.len);
	assert_int_equal(d.totals, 1);
	recs_normalize(&d.e);
	assert_int_equal(d.e.n, 4);
	assert_int_equal(c->taken, c->delivered);
	decoded_free(&d);
	free(want.r);
	sink_free(&s);
	cpu_free(p);
}

/* ---- flush ---- */

static void check_flushed(const struct bmprof_cpu *c, const struct decoded *d)
{
	unsigned used;
	assert_int_equal(table_sum(c, &used), 0);
	assert_int_equal(used, 0);
	assert_int_equal(c->ovf[0].state, BMPROF_OVF_EMPTY);
	assert_int_equal(c->ovf[1].state, BMPROF_OVF_EMPTY);
	assert_false(bmprof_drain_pending(c));
	assert_int_equal(c->flushing, 0);
	assert_int_equal(c->taken, c->delivered + c->lost_full + c->lost_transport);
	assert_int_equal(d->totals, 1);
	assert_true(d->totals_last);
	assert_int_equal(d->totals_cpu, c->cpu_id);
	struct bmprof_counters k;
	bmprof_get_counters(c, &k);
	assert_int_equal(d->tf[BMPROF_TOTAL_TAKEN], k.taken);
	assert_int_equal(d->tf[BMPROF_TOTAL_HITS], k.hits);
	assert_int_equal(d->tf[BMPROF_TOTAL_MISSES], k.misses);
	assert_int_equal(d->tf[BMPROF_TOTAL_EVICTIONS], k.evictions);
	assert_int_equal(d->tf[BMPROF_TOTAL_DELIVERED], k.delivered);
	assert_int_equal(d->tf[BMPROF_TOTAL_LOST_FULL], k.lost_full);
	assert_int_equal(d->tf[BMPROF_TOTAL_LOST_TRANSPORT], k.lost_transport);
	assert_int_equal(d->tf[BMPROF_TOTAL_FRAMES], k.frames);
}

/* 10^5 skewed samples over npcs keys; drains now and then; some writes refused. Returns
 * the true per-key histogram in truth. */
static void run_stream(struct bmprof_cpu *c, struct sink *s, unsigned npcs, unsigned drain_one_in,
		       uint64_t seed, struct recs *truth)
{
	struct bmprof_out out = sink_out(s);
	uint64_t *hist = calloc(npcs, sizeof *hist);
	uint64_t rng = seed;
	for (unsigned i = 0; i < 100000; i++) {
		double u = (double)(rng_next(&rng) >> 11) / 9007199254740992.0;
		unsigned k = (unsigned)(u * u * npcs);
		/* byte-granular x86-like pcs, three events */
		bmprof_record(c, 0xffffffff80100000ull + (uint64_t)k * 7, (uint16_t)(k % 3));
		hist[k]++;
		if (rng_next(&rng) % drain_one_in == 0)
			bmprof_drain(c, &out);
		if (i % 9973 == 0)
			check_invariant(c);
	}
	for (unsigned k = 0; k < npcs; k++)
		if (hist[k])
			recs_add(truth, 0xffffffff80100000ull + (uint64_t)k * 7, (uint16_t)(k % 3), hist[k]);
	free(hist);
	check_invariant(c);
	bmprof_flush(c, &out);
}


/* Phases: the same (pc, event) in two phases stays two entries, each with its phase on the
 * wire; samples go to the phase current when they are taken. */
static void test_phases_keyed(void **state)
{
	(void)state;
	struct cpu *p = cpu_new(64, 16, 1);
	struct bmprof_cpu *c = &p->c;
	struct sink s = { 0 };
	struct decoded d;

	bmprof_record(c, 0x1000, 1);
	bmprof_set_phase(1);
	for (int i = 0; i < 3; i++)
		bmprof_record(c, 0x1000, 1);
	bmprof_set_phase(2);
	bmprof_record(c, 0x1000, 1);
	bmprof_record(c, 0x1000, 1);
	bmprof_set_phase(BMPROF_PHASE_MAX + 1);   /* wraps to 0 */
	bmprof_record(c, 0x1000, 1);
	bmprof_flush(c, &(struct bmprof_out){ sink_write, &s });
	decode(&d, s.buf, s.len);
	recs_normalize(&d.e);
	assert_int_equal(d.e.n, 3);
	assert_int_equal(d.e.r[0].event, 1);
	assert_int_equal(d.e.r[0].count, 2);
	assert_int_equal(d.e.r[1].event, 1 | 1 << BMPROF_EVENT_BITS);
	assert_int_equal(d.e.r[1].count, 3);
	assert_int_equal(d.e.r[2].event, 1 | 2 << BMPROF_EVENT_BITS);
	assert_int_equal(d.e.r[2].count, 2);
	assert_int_equal(bmprof_key_phase(d.e.r[2].event), 2);
	assert_int_equal(bmprof_key_event(d.e.r[2].event), 1);
	assert_int_equal(bmprof_key_wire_event(d.e.r[2].event), 1 | 2u << 16);
	bmprof_set_phase(0);
	decoded_free(&d);
	sink_free(&s);
	cpu_free(p);
}

static void test_flush_invariant_tiny(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 3; seed++) {
		struct cpu *p = cpu_new(8, 4, seed);
		struct bmprof_cpu *c = &p->c;
		struct sink s = { .fail_every = 7 };
		struct recs truth = { 0 };
		run_stream(c, &s, 5000, 40, seed * 77, &truth);
		struct decoded d;
		decode(&d, s.buf, s.len);
		check_flushed(c, &d);
		assert_int_equal(c->taken, 100000);
		assert_int_equal(c->hits + c->misses, c->taken);
		assert_true(c->lost_full > 0);
		assert_true(c->lost_transport > 0);
		assert_true(c->delivered > 0);
		assert_int_equal(recs_sum(&d.e), c->delivered);
		/* every delivered key was sampled, never more often than it was */
		recs_normalize(&d.e);
		recs_normalize(&truth);
		size_t j = 0;
		for (size_t i = 0; i < d.e.n; i++) {
			while (j < truth.n && rec_cmp(&truth.r[j], &d.e.r[i]) < 0)
				j++;
			assert_true(j < truth.n);
			assert_int_equal(rec_cmp(&truth.r[j], &d.e.r[i]), 0);
			assert_true(d.e.r[i].count <= truth.r[j].count);
		}
		decoded_free(&d);
		free(truth.r);
		sink_free(&s);
		cpu_free(p);
	}
}

static void test_flush_invariant_big(void **state)
{
	(void)state;
	struct cpu *p = cpu_new(1 << 16, 4096, 5);
	struct bmprof_cpu *c = &p->c;
	struct sink s = { 0 };
	struct recs truth = { 0 };
	run_stream(c, &s, 20000, 1000, 99, &truth);
	struct decoded d;
	decode(&d, s.buf, s.len);
	check_flushed(c, &d);
	assert_int_equal(c->lost_full, 0);
	assert_int_equal(c->lost_transport, 0);
	assert_int_equal(c->delivered, 100000);
	assert_int_equal(c->hits + c->misses, c->taken);
	assert_false(d.unsorted);
	assert_true(d.max_payload <= BMPROF_SAMPLES_PAYLOAD);
	assert_same_recs(&d.e, &truth);
	decoded_free(&d);
	free(truth.r);
	sink_free(&s);

	/* sampling can go on after a flush; a second flush sends only the new samples */
	memset(&s, 0, sizeof s);
	struct bmprof_out out = sink_out(&s);
	bmprof_record(c, 0x1234, 1);
	bmprof_record(c, 0x1234, 1);
	bmprof_flush(c, &out);
	decode(&d, s.buf, s.len);
	check_flushed(c, &d);
	assert_int_equal(d.e.n, 1);
	assert_int_equal(d.e.r[0].pc, 0x1234);
	assert_int_equal(d.e.r[0].event, 1);
	assert_int_equal(d.e.r[0].count, 2);
	assert_int_equal(c->delivered, 100002);
	decoded_free(&d);
	sink_free(&s);
	cpu_free(p);
}

/* The periodic flush: deltas sent while sampling runs (bmprof_service with an interval)
 * plus the final flush add up to what a run with only drains and the final flush sends,
 * the table and the filling buffer end each delta empty, and only the final flush sends
 * TOTALS. */
static void run_with_interval(struct bmprof_cpu *c, struct sink *s, uint64_t every,
			      unsigned *deltas)
{
	struct bmprof_out out = sink_out(s);
	uint64_t rng = 4242;

	bmprof_set_flush_interval(c, every, 0);
	*deltas = 0;
	for (uint64_t now = 1; now <= 60000; now++) {
		double u = (double)(rng_next(&rng) >> 11) / 9007199254740992.0;
		unsigned k = (unsigned)(u * u * 3000);
		bmprof_record(c, 0x400000 + (uint64_t)k * 3, (uint16_t)(k % 2));
		int due = bmprof_flush_due(c, now);
		if (due || bmprof_drain_pending(c)) {
			uint64_t before = c->flushes;
			bmprof_service(c, &out, now);
			assert_int_equal(c->flushes, before + (unsigned)due);
			if (due) {
				unsigned used;
				(*deltas)++;
				assert_int_equal(table_sum(c, &used), 0);
				assert_int_equal(ovf_sum(c), 0);
				assert_int_equal(c->flush_next, now + every);
				assert_false(bmprof_flush_due(c, now + every - 1));
				assert_true(bmprof_flush_due(c, now + every));
			}
			check_invariant(c);
		}
	}
	bmprof_flush(c, &out);
}

static void test_flush_delta_adds_up(void **state)
{
	(void)state;
	struct cpu *a = cpu_new(256, 1024, 7), *b = cpu_new(256, 1024, 7);
	struct sink sa = { 0 }, sb = { 0 };
	struct decoded da, db;
	unsigned deltas, none;

	run_with_interval(&a->c, &sa, 997, &deltas);
	run_with_interval(&b->c, &sb, 0, &none);
	assert_int_equal(deltas, 60);
	assert_int_equal(a->c.flushes, 60);
	assert_int_equal(none, 0);
	decode(&da, sa.buf, sa.len);
	decode(&db, sb.buf, sb.len);
	check_flushed(&a->c, &da);
	check_flushed(&b->c, &db);
	assert_int_equal(da.totals, 1);
	assert_int_equal(a->c.lost_full + a->c.lost_transport, 0);
	assert_int_equal(b->c.lost_full + b->c.lost_transport, 0);
	assert_int_equal(recs_sum(&da.e), 60000);
	assert_true(da.samples_frames >= deltas);
	for (unsigned i = 0; i < da.nseq; i++)
		assert_int_equal(da.seq[i], i);
	recs_normalize(&da.e);
	recs_normalize(&db.e);
	assert_same_recs(&da.e, &db.e);
	decoded_free(&da);
	decoded_free(&db);
	sink_free(&sa);
	sink_free(&sb);
	cpu_free(a);
	cpu_free(b);
}

static void test_flushing_flag_bypasses_table(void **state)
{
	(void)state;
	struct cpu *p = cpu_new(64, 4, 1);
	struct bmprof_cpu *c = &p->c;
	bmprof_record(c, 0xabc, 0);
	c->flushing = 1;
	for (int i = 0; i < 6; i++)
		bmprof_record(c, 0xabc, 0);
	/* the table did not move; each sample went to a buffer on its own */
	check_entry(find(c, 0xabc, 0), 0xabc, 0, 1);
	assert_int_equal(c->hits, 0);
	assert_int_equal(c->misses, 1);
	assert_int_equal(c->taken, 7);
	assert_int_equal(c->ovf[0].state, BMPROF_OVF_FULL);
	for (int i = 0; i < 4; i++)
		check_entry(&c->ovf[0].slot[i], 0xabc, 0, 1);
	assert_int_equal(c->ovf[1].fill, 2);
	check_invariant(c);
	c->flushing = 0;

	struct sink s = { 0 };
	struct bmprof_out out = sink_out(&s);
	bmprof_flush(c, &out);
	struct decoded d;
	decode(&d, s.buf, s.len);
	check_flushed(c, &d);
	recs_normalize(&d.e);
	assert_int_equal(d.e.n, 1);
	assert_int_equal(d.e.r[0].count, 7);
	decoded_free(&d);
	sink_free(&s);
	cpu_free(p);
}

static void test_sort_entries(void **state)
{
	(void)state;
	struct bmprof_entry e[300];
	uint64_t rng = 3;
	for (unsigned n = 0; n <= 300; n += 37) {
		for (unsigned i = 0; i < n; i++)
			e[i] = (struct bmprof_entry){ .pc = rng_next(&rng) % 50, .count = i + 1,
						      .event = (uint16_t)(rng_next(&rng) % 4) };
		uint64_t sum = 0;
		for (unsigned i = 0; i < n; i++)
			sum += e[i].count;
		bmprof_sort_entries(e, n);
		for (unsigned i = 1; i < n; i++)
			assert_true(e[i - 1].pc < e[i].pc ||
				    (e[i - 1].pc == e[i].pc && e[i - 1].event <= e[i].event));
		for (unsigned i = 0; i < n; i++)
			sum -= e[i].count;
		assert_int_equal(sum, 0);
	}
}

/* ---- period randomization ---- */

static void test_period_bounds(void **state)
{
	(void)state;
	struct cpu *p = cpu_new(4, 1, 123);
	struct bmprof_cpu *c = &p->c;
	const uint64_t nominal = 64000, jitter = 4000, n = 100000;
	bmprof_set_period(c, nominal, jitter);
	uint64_t sum = 0, lo = 0, hi = 0, min = UINT64_MAX, max = 0;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t v = bmprof_next_period(c);
		assert_true(v >= nominal - jitter && v <= nominal);
		sum += v;
		lo += v < nominal - jitter + jitter / 10;
		hi += v > nominal - jitter / 10;
		min = v < min ? v : min;
		max = v > max ? v : max;
	}
	/* mean of a uniform [60000, 64000] is 62000; its standard error here is ~3.7 */
	double mean = (double)sum / (double)n;
	assert_true(mean > 61970.0 && mean < 62030.0);
	/* each tenth of the window gets ~10%: the ends are reached */
	assert_true(lo > n / 12 && lo < n / 8);
	assert_true(hi > n / 12 && hi < n / 8);
	assert_true(min < nominal - jitter + 5);
	assert_true(max > nominal - 5);

	bmprof_set_period(c, 64000, 0);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(bmprof_next_period(c), 64000);

	/* jitter is capped at nominal - 1: periods stay >= 1 */
	bmprof_set_period(c, 10, 100);
	assert_int_equal(c->jitter, 9);
	unsigned seen = 0;
	for (int i = 0; i < 1000; i++) {
		uint64_t v = bmprof_next_period(c);
		assert_true(v >= 1 && v <= 10);
		seen |= 1u << v;
	}
	assert_int_equal(seen, 0x7fe); /* all of 1..10 */

	/* a huge window does not overflow */
	bmprof_set_period(c, UINT64_MAX, UINT64_MAX);
	assert_int_equal(c->jitter, UINT64_MAX - 1);
	for (int i = 0; i < 1000; i++)
		assert_true(bmprof_next_period(c) >= 1);
	cpu_free(p);
}

static void test_period_seeded(void **state)
{
	(void)state;
	struct cpu *a = cpu_new(4, 1, 5), *b = cpu_new(4, 1, 5), *z = cpu_new(4, 1, 0);
	struct cpu *o = cpu_new(4, 1, 6);
	bmprof_set_period(&a->c, 1000000, 500000);
	bmprof_set_period(&b->c, 1000000, 500000);
	bmprof_set_period(&z->c, 1000000, 500000);
	bmprof_set_period(&o->c, 1000000, 500000);
	unsigned same_other = 0, zero_repeats = 0;
	uint64_t zprev = 0;
	for (int i = 0; i < 100; i++) {
		uint64_t va = bmprof_next_period(&a->c), vz = bmprof_next_period(&z->c);
		assert_int_equal(va, bmprof_next_period(&b->c));
		same_other += va == bmprof_next_period(&o->c);
		zero_repeats += vz == zprev; /* seed 0 still gives a moving sequence */
		zprev = vz;
	}
	assert_true(same_other < 3);
	assert_true(zero_repeats < 3);
	cpu_free(a);
	cpu_free(b);
	cpu_free(z);
	cpu_free(o);
}

/* ---- frames ---- */

static const uint8_t *one_frame(struct sink *s, uint8_t type, size_t payload_len)
{
	assert_int_equal(s->len, BMPROF_FRAME_HDR + payload_len + BMPROF_FRAME_CRC);
	const uint8_t *f = s->buf;
	assert_memory_equal(f, "\xb5" "BMP", 4);
	assert_int_equal(f[4], type);
	assert_int_equal(f[5], 0);
	assert_int_equal(bmprof_get16(f + 6), payload_len);
	uint32_t crc = (uint32_t)crc32(0, f + 4, (uInt)(4 + payload_len));
	assert_int_equal(bmprof_get32(f + 8 + payload_len), crc);
	return f + BMPROF_FRAME_HDR;
}

static void test_emit_frame(void **state)
{
	(void)state;
	static uint8_t big[3000];
	for (unsigned i = 0; i < sizeof big; i++)
		big[i] = (uint8_t)(i * 31 + 7);
	struct sink s = { 0 };
	struct bmprof_out out = sink_out(&s);

	assert_int_equal(bmprof_emit_frame(&out, 0x33, big, 1024), 0);
	assert_int_equal(s.calls, 1);
	assert_memory_equal(one_frame(&s, 0x33, 1024), big, 1024);
	sink_free(&s);

	memset(&s, 0, sizeof s);
	assert_int_equal(bmprof_emit_frame(&out, 0x34, big, 3000), 0);
	assert_int_equal(s.calls, 3);
	assert_memory_equal(one_frame(&s, 0x34, 3000), big, 3000);
	sink_free(&s);

	memset(&s, 0, sizeof s);
	assert_int_equal(bmprof_emit_frame(&out, 0x35, NULL, 0), 0);
	one_frame(&s, 0x35, 0);
	sink_free(&s);

	/* the write result comes back; a refused header stops the frame */
	memset(&s, 0, sizeof s);
	s.fail_call = 1;
	assert_int_equal(bmprof_emit_frame(&out, 0x34, big, 3000), -1);
	assert_int_equal(s.calls, 1);
	s.fail_call = 3;
	assert_int_equal(bmprof_emit_frame(&out, 0x34, big, 3000), -1);
	assert_int_equal(s.calls, 3);
	sink_free(&s);

	struct bmprof_out none = { 0 };
	assert_int_equal(bmprof_emit_frame(&none, 1, big, 4), -1);
	assert_int_equal(bmprof_emit_frame(NULL, 1, big, 4), -1);
	assert_int_equal(bmprof_emit_frame(&out, 1, NULL, 4), -1);
}

static void test_emit_hello(void **state)
{
	(void)state;
	uint8_t id[20];
	for (unsigned i = 0; i < sizeof id; i++)
		id[i] = (uint8_t)(0xe0 + i);
	struct bmprof_hello h = {
		.arch = BMPROF_ARCH_X86_64, .source = BMPROF_SOURCE_PMU, .ncpus = 0x0102,
		.timebase_hz = 0x1122334455667788ull, .load_bias = 0xfedcba9876543210ull,
		.vendor = "GenuineIntel", .family = 6, .model = 0xcf, .stepping = 2,
		.signature = 0x000806f2, .build_id_len = sizeof id, .build_id = id,
	};
	struct sink s = { 0 };
	struct bmprof_out out = sink_out(&s);
	assert_int_equal(bmprof_emit_hello(&out, &h), 0);
	const uint8_t *p = one_frame(&s, BMPROF_FRAME_HELLO,
				     BMPROF_HELLO_FIXED + sizeof id + BMPROF_HELLO_CORE_HZ);
	assert_int_equal(bmprof_get16(p + 0), BMPROF_WIRE_VERSION);
	assert_int_equal(p[2], BMPROF_ARCH_X86_64);
	assert_int_equal(p[3], BMPROF_SOURCE_PMU);
	assert_int_equal(bmprof_get16(p + 4), 0x0102);
	assert_int_equal(bmprof_get16(p + 6), 0);
	assert_int_equal(bmprof_get64(p + 8), 0x1122334455667788ull);
	assert_int_equal(bmprof_get64(p + 16), 0xfedcba9876543210ull);
	assert_memory_equal(p + 24, "GenuineIntel\0\0\0\0", 16);
	assert_int_equal(bmprof_get32(p + 40), 6);
	assert_int_equal(bmprof_get32(p + 44), 0xcf);
	assert_int_equal(bmprof_get32(p + 48), 2);
	assert_int_equal(bmprof_get32(p + 52), 0x000806f2);
	assert_int_equal(p[56], sizeof id);
	assert_memory_equal(p + 57, "\0\0\0", 3);
	assert_memory_equal(p + 60, id, sizeof id);
	assert_int_equal(bmprof_get64(p + 60 + sizeof id), 0);   /* core_hz: unknown */
	sink_free(&s);

	/* a vendor filling all 16 bytes has no NUL and is not overrun */
	memset(&s, 0, sizeof s);
	memcpy(h.vendor, "0123456789abcdef", 16);
	h.build_id_len = 0;
	h.core_hz = 3000000000ull;
	assert_int_equal(bmprof_emit_hello(&out, &h), 0);
	p = one_frame(&s, BMPROF_FRAME_HELLO, BMPROF_HELLO_FIXED + BMPROF_HELLO_CORE_HZ);
	assert_int_equal(bmprof_get64(p + BMPROF_HELLO_FIXED), 3000000000ull);
	assert_memory_equal(p + 24, "0123456789abcdef", 16);
	assert_int_equal(bmprof_get32(p + 40), 6);
	sink_free(&s);

	memset(&s, 0, sizeof s);
	h.build_id_len = BMPROF_BUILD_ID_MAX + 1;
	assert_int_equal(bmprof_emit_hello(&out, &h), -1);
	assert_int_equal(s.calls, 0);
	assert_int_equal(bmprof_emit_hello(&out, NULL), -1);
}

static void test_emit_event(void **state)
{
	(void)state;
	struct bmprof_event_desc e = {
		.id = 0x0203, .source = BMPROF_SOURCE_PMU_FIXED, .flags = BMPROF_EVENT_RANDOMIZED,
		.encoding = 0x00000000004300c0ull, .period = 64000, .jitter = 4000,
		.name = "INST_RETIRED.ANY",
	};
	struct sink s = { 0 };
	struct bmprof_out out = sink_out(&s);
	assert_int_equal(bmprof_emit_event(&out, &e), 0);
	size_t nl = strlen(e.name);
	const uint8_t *p = one_frame(&s, BMPROF_FRAME_EVENT, BMPROF_EVENT_FIXED + 1 + nl + 7);
	assert_int_equal(bmprof_get16(p), 0x0203);
	assert_int_equal(p[2], BMPROF_SOURCE_PMU_FIXED);
	assert_int_equal(p[3], BMPROF_EVENT_RANDOMIZED);
	assert_int_equal(bmprof_get64(p + 4), 0x4300c0);
	assert_int_equal(bmprof_get64(p + 12), 64000);
	assert_int_equal(bmprof_get64(p + 20), 4000);
	assert_int_equal(p[28], nl);
	assert_memory_equal(p + 29, e.name, nl);
	sink_free(&s);

	/* no name, and a name longer than a u8 can count */
	memset(&s, 0, sizeof s);
	e.name = NULL;
	assert_int_equal(bmprof_emit_event(&out, &e), 0);
	p = one_frame(&s, BMPROF_FRAME_EVENT, BMPROF_EVENT_FIXED + 1 + 7);
	assert_int_equal(p[28], 0);
	sink_free(&s);

	char longname[400];
	memset(longname, 'x', sizeof longname - 1);
	longname[sizeof longname - 1] = 0;
	memset(&s, 0, sizeof s);
	e.name = longname;
	assert_int_equal(bmprof_emit_event(&out, &e), 0);
	p = one_frame(&s, BMPROF_FRAME_EVENT, BMPROF_EVENT_FIXED + 1 + 255 + 7);
	assert_int_equal(p[28], 255);
	sink_free(&s);
}

static void test_emit_end(void **state)
{
	(void)state;
	struct bmprof_end e = {
		.exit_code = -2, .reason = BMPROF_END_EXCEPTION, .vector = 14,
		.fault_pc = 0xffffffff81234567ull, .fault_addr = 0xdeadbeef000ull,
	};
	struct sink s = { 0 };
	struct bmprof_out out = sink_out(&s);
	assert_int_equal(bmprof_emit_end(&out, &e), 0);
	const uint8_t *p = one_frame(&s, BMPROF_FRAME_END, BMPROF_END_FIXED);
	assert_int_equal((int32_t)bmprof_get32(p), -2);
	assert_int_equal(p[4], BMPROF_END_EXCEPTION);
	assert_memory_equal(p + 5, "\0\0\0", 3);
	assert_int_equal(bmprof_get64(p + 8), 0xffffffff81234567ull);
	assert_int_equal(bmprof_get32(p + 16), 14);
	assert_int_equal(bmprof_get32(p + 20), 0);
	assert_int_equal(bmprof_get64(p + 24), 0xdeadbeef000ull);
	sink_free(&s);
	assert_int_equal(bmprof_emit_end(&out, NULL), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_rejects_bad_args),
		cmocka_unit_test(test_hit_increments),
		cmocka_unit_test(test_miss_inserts),
		cmocka_unit_test(test_hash_spreads),
		cmocka_unit_test(test_evict_round_robin),
		cmocka_unit_test(test_count_wrap_evicts),
		cmocka_unit_test(test_ovf_switch_when_full),
		cmocka_unit_test(test_both_full_counts_lost),
		cmocka_unit_test(test_drain_frames_decode),
		cmocka_unit_test(test_drain_transport_failure),
		cmocka_unit_test(test_drain_not_reentrant),
		cmocka_unit_test(test_phases_keyed),
		cmocka_unit_test(test_flush_invariant_tiny),
		cmocka_unit_test(test_flush_invariant_big),
		cmocka_unit_test(test_flush_delta_adds_up),
		cmocka_unit_test(test_flushing_flag_bypasses_table),
		cmocka_unit_test(test_sort_entries),
		cmocka_unit_test(test_period_bounds),
		cmocka_unit_test(test_period_seeded),
		cmocka_unit_test(test_emit_frame),
		cmocka_unit_test(test_emit_hello),
		cmocka_unit_test(test_emit_event),
		cmocka_unit_test(test_emit_end),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
