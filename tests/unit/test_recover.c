/* SPDX-License-Identifier: BSD-2-Clause */
/* Recovery from target memory (host/run/recover.c) against the real target core compiled for
 * the host: a CPU samples, drains and flushes into a sink; at every SAMPLES frame the sink
 * "stops the machine" (the frame arrived, or not) and the host reads the state back
 * through a bounded memory image of the descriptor, the CPU's struct and its memory. What
 * arrived plus what was recovered must be exactly what was recorded, with
 * taken = delivered + lost. Then corrupted and hostile descriptors: each is refused with a
 * clear error, and nothing reads outside the image or past the limits. */
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

/* ---- a memory image: regions of host memory at their own addresses ---- */

struct region {
	uint64_t addr;
	size_t len;
	const void *p;
};

struct image {
	struct region r[8];
	unsigned n;
	uint64_t bytes;        /* read through it */
};

static void image_add(struct image *m, const void *p, size_t len)
{
	assert_true(m->n < 8);
	m->r[m->n++] = (struct region){ (uint64_t)(uintptr_t)p, len, p };
}

static int image_read(void *ctx, uint64_t addr, void *buf, size_t len, char *err, size_t n)
{
	struct image *m = ctx;

	for (unsigned i = 0; i < m->n; i++) {
		const struct region *r = &m->r[i];
		if (addr >= r->addr && addr - r->addr <= r->len && len <= r->len - (addr - r->addr)) {
			memcpy(buf, (const uint8_t *)r->p + (addr - r->addr), len);
			m->bytes += len;
			return 0;
		}
	}
	snprintf(err, n, "0x%llx: not in the image", (unsigned long long)addr);
	return -1;
}

/* ---- a stream of frames into a profile ---- */

static void apply_stream(struct profile *p, const uint8_t *b, size_t len)
{
	size_t o = 0;

	while (o + 12 <= len) {
		assert_int_equal(b[o], BMPROF_MAGIC0);
		uint16_t n = bmprof_get16(b + o + 6);
		assert_true(o + 12 + n <= len);
		assert_int_equal(profile_apply_frame(p, b[o + 4], b + o + 8, n), 0);
		o += 12u + n;
	}
	assert_int_equal(o, len);
}

static int emit_to_profile(void *ctx, uint8_t type, const uint8_t *payload, uint16_t len)
{
	return profile_apply_frame(ctx, type, payload, len);
}

/* ---- the scenario ---- */

#define CPU_ID 2
#define TABLE 16
#define OVF 32
#define NPC 97
#define NCHAIN 6           /* chain k: k frames (0: the empty chain), k == 3 with a flag */
#define STACK_IDS 8
#define STACK_FRAMES 64

struct scen {
	struct cpu *k;
	size_t mem_len;
	uint8_t *stream;
	size_t len, cap;
	struct profile truth;    /* every sample recorded */
	uint64_t rng;
	int snap_at;             /* the SAMPLES frame at which to stop; -1: never */
	int snap_arrived;        /* that frame reached the host */
	int frames_seen;
	int snapped;
	int interrupts;          /* samples recorded from inside write() while the table is sent */
	unsigned busy_seen;
	int stacks;              /* samples carry call chains */
	void *smem;
	int stacks_snap_at;      /* the STACKS frame at which to stop; -1: never */
	int stacks_seen;
	unsigned recorded;
	uint64_t chained[NPC][2][NCHAIN];   /* samples recorded per (pc, event, chain) */
};

static void reset_descriptor(void)
{
	memset((void *)bmprof_descriptor.cpu, 0, sizeof bmprof_descriptor.cpu);
	bmprof_descriptor.ncpus = 0;
	bmprof_descriptor.unregistered = 0;
}

static void image_of(struct image *m, const struct scen *s)
{
	memset(m, 0, sizeof *m);
	image_add(m, &bmprof_descriptor, sizeof bmprof_descriptor);
	image_add(m, &s->k->c, sizeof s->k->c);
	image_add(m, s->k->mem, s->mem_len);
	if (s->stacks)
		image_add(m, s->smem, bmprof_stacks_mem_size(STACK_IDS, STACK_FRAMES));
}

static uint64_t next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static unsigned chain_of(unsigned k, uint64_t *f, uint8_t *flags)
{
	for (unsigned i = 0; i < k; i++)
		f[i] = 0x300000 + 0x100 * k + 8 * i;
	*flags = k == 3 ? BMPROF_STACKF_LR_MAYBE : 0;
	return k;
}

/* Which chain k a profile's chain is (-1: none of them). */
static int chain_k(const struct profile *p, uint32_t idx)
{
	const struct profile_stack *st;
	uint64_t f[NCHAIN];
	uint8_t flags;

	if (idx == PROFILE_STACK_NONE || idx >= p->nstacks)
		return -1;
	st = &p->stacks[idx];
	if (st->depth >= NCHAIN || chain_of(st->depth, f, &flags) != st->depth ||
	    st->flags != flags)
		return -1;
	for (unsigned i = 0; i < st->depth; i++)
		if (p->stack_frames[st->off + i] != f[i])
			return -1;
	return st->depth;
}

static void record(struct scen *s)
{
	uint64_t r = next(&s->rng);
	unsigned at = (unsigned)(r % NPC), k = (unsigned)(r >> 40) % NCHAIN;

	/* a new chain every 250 samples: its STACKS frame comes in the middle of the run */
	if (k > s->recorded++ / 250)
		k = 0;
	uint64_t pc = 0x100000 + 4 * at, f[NCHAIN];
	uint16_t ev = (uint16_t)(r >> 32 & 1);
	uint8_t flags;

	if (s->stacks) {
		unsigned n = chain_of(k, f, &flags);
		bmprof_record_stack(&s->k->c, pc, ev, bmprof_stack_id(&s->k->c, f, n, flags));
		s->chained[at][ev][k]++;
	} else {
		bmprof_record(&s->k->c, pc, ev);
	}
	assert_int_equal(profile_add(&s->truth, CPU_ID, ev, pc, 1), 0);
}

/* Chains defined from memory and found among those that arrived, over the runs. */
static uint64_t chains_read, chains_known;

/* Every sample under its own chain, each once, none without one. */
static void check_chains(const struct scen *s, const struct profile *p,
			 const struct recover_result *res)
{
	uint64_t got[NPC][2][NCHAIN] = { { { 0 } } };

	chains_read += res->chains_read;
	chains_known += res->chains_known;
	assert_int_equal(res->stack_cpus, 1);
	assert_int_equal(res->unchained, 0);
	assert_int_equal(p->stack_unknown, 0);
	assert_int_equal(p->stack_lost, 0);
	for (size_t i = 0; i < p->nstack_samples; i++) {
		const struct profile_stack_sample *x = &p->stack_samples[i];
		int k = chain_k(p, x->stack);
		assert_true(k >= 0 && x->event < 2 && x->pc >= 0x100000 && x->pc < 0x100000 + 4 * NPC);
		got[(x->pc - 0x100000) / 4][x->event][k] += x->count;
	}
	assert_memory_equal(got, s->chained, sizeof got);
}

/* The host's view at this instant: what arrived, then what the memory holds. */
static void snapshot(struct scen *s, int in_flight)
{
	struct image m;
	struct recover r;
	struct recover_result res;
	struct recover_mem mem = { image_read, &m };
	struct profile p;
	char err[256];
	const struct bmprof_cpu *c = &s->k->c;

	image_of(&m, s);
	profile_init(&p);
	apply_stream(&p, s->stream, s->len);
	assert_int_equal(recover_read(&r, &mem, (uintptr_t)&bmprof_descriptor, err, sizeof err), 0);
	assert_int_equal(r.ncpu, CPU_ID + 1);
	assert_true(r.cpu[CPU_ID].present);
	assert_int_equal(recover_busy(&r), 0);
	assert_int_equal(r.cpu[CPU_ID].inflight, in_flight);
	assert_int_equal(recover_read_entries(&r, &mem, err, sizeof err), 0);
	assert_int_equal(recover_frames(&r, &p, emit_to_profile, &p, &res), 0);
	assert_int_equal(res.cpus, 1);
	assert_int_equal(res.inexact, 0);
	assert_int_equal(res.arrived, in_flight && s->snap_arrived);
	assert_int_equal(res.resent, in_flight && !s->snap_arrived);
	if (s->stacks)
		check_chains(s, &p, &res);
	else
		assert_int_equal(p.nstack_samples, 0);

	/* exactly what was recorded, each sample once, and the accounting closes */
	const struct profile_cpu *pc = &p.cpus[CPU_ID];
	const uint64_t *t = pc->totals;
	assert_true(pc->have_totals);
	assert_int_equal(c->lost_full, 0);
	assert_int_equal(t[BMPROF_TOTAL_TAKEN], c->taken);
	assert_int_equal(t[BMPROF_TOTAL_TAKEN], t[BMPROF_TOTAL_DELIVERED] +
			 t[BMPROF_TOTAL_LOST_FULL] + t[BMPROF_TOTAL_LOST_TRANSPORT]);
	assert_int_equal(pc->received, t[BMPROF_TOTAL_DELIVERED]);
	assert_int_equal(pc->seq_gaps, 0);
	assert_int_equal(pc->next_seq, t[BMPROF_TOTAL_FRAMES]);
	assert_int_equal(profile_settle(&p), 0);   /* one entry per (pc, event, cpu) */
	assert_int_equal(profile_settle(&s->truth), 0);
	assert_int_equal(p.total, s->truth.total);
	assert_int_equal(p.nsamples, s->truth.nsamples);
	for (size_t i = 0; i < s->truth.nsamples; i++) {
		const struct profile_sample *w = &s->truth.samples[i];
		uint64_t got = 0;
		for (size_t j = 0; j < p.nsamples; j++)
			if (p.samples[j].pc == w->pc && p.samples[j].event == w->event)
				got += p.samples[j].count;
		assert_int_equal(got, w->count);
	}
	recover_free(&r);
	profile_free(&p);
	s->snapped = 1;
}

static void keep(struct scen *s, const void *buf, size_t len)
{
	if (s->len + len > s->cap) {
		s->cap = (s->len + len) * 2;
		s->stream = realloc(s->stream, s->cap);
		assert_non_null(s->stream);
	}
	memcpy(s->stream + s->len, buf, len);
	s->len += len;
}

static int scen_write(void *ctx, const void *buf, size_t len)
{
	struct scen *s = ctx;
	const uint8_t *f = buf;

	assert_true(len >= 12 && f[0] == BMPROF_MAGIC0);
	assert_int_equal(f[4] == BMPROF_FRAME_STACK_SAMPLES, s->stacks && f[4] != BMPROF_FRAME_STACKS &&
			 f[4] != BMPROF_FRAME_TOTALS);
	if (f[4] == BMPROF_FRAME_STACKS && s->stacks_seen++ == s->stacks_snap_at) {
		if (s->snap_arrived)
			keep(s, buf, len);
		snapshot(s, 0);
		if (!s->snap_arrived)
			keep(s, buf, len);
	} else if ((f[4] == BMPROF_FRAME_SAMPLES || f[4] == BMPROF_FRAME_STACK_SAMPLES) &&
		   s->frames_seen++ == s->snap_at) {
		if (s->snap_arrived)
			keep(s, buf, len);
		snapshot(s, 1);
		if (!s->snap_arrived)
			keep(s, buf, len);
	} else {
		keep(s, buf, len);
	}
	/* an interrupt while the table is sent: the sample goes to a buffer */
	if (s->k->c.flushing && s->k->c.xfer.src == BMPROF_XFER_TABLE)
		for (int i = 0; i < s->interrupts; i++)
			record(s);
	return 0;
}

/* Records, drains every 20 samples, a delta flush every 300, a final flush; stops (and
 * checks) at SAMPLES (or STACK_SAMPLES) frame snap_at, at STACKS frame stacks_at, or
 * between two samples at sample stop_at. Returns the samples frames (or with
 * stacks_at < -1 the STACKS frames) of a run that did not stop. */
static int run_at(int stacks, int snap_at, int stacks_at, int arrived, long stop_at)
{
	struct scen s = { .rng = 0x9E3779B97F4A7C15ull, .snap_at = snap_at,
			  .snap_arrived = arrived, .interrupts = 3, .stacks = stacks,
			  .stacks_snap_at = stacks_at };
	struct bmprof_out out = { scen_write, &s };
	int frames;

	reset_descriptor();
	s.mem_len = bmprof_cpu_mem_size(TABLE, OVF);
	s.k = calloc(1, sizeof *s.k);
	assert_non_null(s.k);
	s.k->mem = aligned_alloc(64, (s.mem_len + 63) & ~(size_t)63);
	assert_non_null(s.k->mem);
	assert_int_equal(bmprof_cpu_init(&s.k->c, CPU_ID, s.k->mem, s.mem_len, TABLE, OVF, 1), 0);
	if (stacks) {
		size_t n = bmprof_stacks_mem_size(STACK_IDS, STACK_FRAMES);
		s.smem = aligned_alloc(64, (n + 63) & ~(size_t)63);
		assert_non_null(s.smem);
		assert_int_equal(bmprof_stacks_init(&s.k->c, s.smem, n, STACK_IDS, STACK_FRAMES, 8), 0);
	}
	profile_init(&s.truth);
	for (long i = 0; i < 1500 && !s.snapped; i++) {
		if (i == stop_at)
			snapshot(&s, 0);
		record(&s);
		if (i % 20 == 19 && bmprof_drain_pending(&s.k->c))
			bmprof_drain(&s.k->c, &out);
		if (i % 300 == 299)
			bmprof_flush_delta(&s.k->c, &out);
	}
	if (!s.snapped)
		bmprof_flush(&s.k->c, &out);
	frames = stacks_at < -1 ? s.stacks_seen : s.frames_seen;
	profile_free(&s.truth);
	free(s.stream);
	free(s.smem);
	cpu_free(s.k);
	reset_descriptor();
	return frames;
}

static int run(int snap_at, int arrived, long stop_at)
{
	return run_at(0, snap_at, -1, arrived, stop_at);
}

static void test_stop_at_every_frame(void **state)
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
	for (long i = 0; i < 1500; i += 37)
		run(-1, 0, i);
}

/* With call stacks: stopped at every STACK_SAMPLES frame and at every STACKS frame (it
 * arrived, or not) and between samples, every recovered sample is under its own chain:
 * those that arrived on the wire are not defined again, the others are read from memory. */
static void test_stacks_stop_everywhere(void **state)
{
	(void)state;
	int total = run_at(1, -1, -1, 0, -1), defs = run_at(1, -1, -2, 0, -1);

	assert_true(total > 20 && defs >= 2);
	for (int k = 0; k < total; k++) {
		run_at(1, k, -1, 1, -1);
		run_at(1, k, -1, 0, -1);
	}
	for (int k = 0; k < defs; k++) {
		run_at(1, -1, k, 1, -1);
		run_at(1, -1, k, 0, -1);
	}
	for (long i = 0; i < 1500; i += 37)
		run_at(1, -1, -1, 0, i);
	assert_true(chains_read > 0 && chains_known > 0);
}

/* A CPU stopped inside the handler or the drain's bookkeeping is busy; read anyway, it is
 * flagged, not silently exact. */
static void test_busy(void **state)
{
	(void)state;
	struct cpu *k = cpu_new_seeded(0, 5);
	struct image m = { 0 };
	struct recover_mem mem = { image_read, &m };
	struct recover r;
	char err[256];

	reset_descriptor();
	bmprof_desc_register(&k->c);
	image_add(&m, &bmprof_descriptor, sizeof bmprof_descriptor);
	image_add(&m, &k->c, sizeof k->c);
	image_add(&m, k->mem, bmprof_cpu_mem_size(1024, 256));
	bmprof_record(&k->c, 0x1000, 0);
	k->c.in_record = 1;
	assert_int_equal(recover_read(&r, &mem, (uintptr_t)&bmprof_descriptor, err, sizeof err), 0);
	assert_int_equal(recover_busy(&r), 1);
	assert_int_equal(recover_read_entries(&r, &mem, err, sizeof err), 0);
	assert_non_null(strstr(r.cpu[0].problem, "inside the sampler"));
	recover_free(&r);
	cpu_free(k);
	reset_descriptor();
}

/* Two CPUs: each is recovered under its own index. */
static void test_two_cpus(void **state)
{
	(void)state;
	struct cpu *a = cpu_new_seeded(0, 1), *b = cpu_new_seeded(1, 2);
	struct image m = { 0 };
	struct recover_mem mem = { image_read, &m };
	struct recover r;
	struct recover_result res;
	struct profile p;
	char err[256];

	reset_descriptor();
	bmprof_desc_register(&a->c);
	bmprof_desc_register(&b->c);
	image_add(&m, &bmprof_descriptor, sizeof bmprof_descriptor);
	image_add(&m, &a->c, sizeof a->c);
	image_add(&m, a->mem, bmprof_cpu_mem_size(1024, 256));
	image_add(&m, &b->c, sizeof b->c);
	image_add(&m, b->mem, bmprof_cpu_mem_size(1024, 256));
	for (int i = 0; i < 100; i++)
		bmprof_record(&a->c, 0x1000 + 4 * (i % 3), 0);
	for (int i = 0; i < 40; i++)
		bmprof_record(&b->c, 0x2000, 1);
	profile_init(&p);
	assert_int_equal(recover_read(&r, &mem, (uintptr_t)&bmprof_descriptor, err, sizeof err), 0);
	assert_int_equal(recover_read_entries(&r, &mem, err, sizeof err), 0);
	assert_int_equal(recover_frames(&r, &p, emit_to_profile, &p, &res), 0);
	assert_int_equal(res.cpus, 2);
	assert_int_equal(res.samples, 140);
	assert_int_equal(p.cpus[0].received, 100);
	assert_int_equal(p.cpus[1].received, 40);
	assert_int_equal(p.cpus[1].totals[BMPROF_TOTAL_TAKEN], 40);
	assert_int_equal(p.cpus[1].totals[BMPROF_TOTAL_DELIVERED], 40);
	recover_free(&r);
	profile_free(&p);
	cpu_free(a);
	cpu_free(b);
	reset_descriptor();
}

/* ---- corrupted and hostile descriptors ---- */

/* A copy of one CPU's world that the test may damage: the descriptor, the CPU's struct
 * and its memory, at their own (host) addresses. */
struct world {
	struct bmprof_desc d;
	struct cpu *k;
	size_t mem_len;
	struct image m;
	void *smem;              /* the stack table's memory (world_new_stacks) */
};

/* With stacks: sample i of 500 under chain i % 4 (chain c: c frames 0x7000 + 0x100 c + 8 j;
 * chain 0 the empty one), so chains 1, 2, 3 hold 125 samples each. */
static void world_setup(struct world *w, int stacks)
{
	size_t sn = bmprof_stacks_mem_size(16, 64);

	reset_descriptor();
	w->k = cpu_new_seeded(0, 3);
	w->mem_len = bmprof_cpu_mem_size(1024, 256);
	w->smem = NULL;
	if (stacks) {
		w->smem = aligned_alloc(64, (sn + 63) & ~(size_t)63);
		assert_non_null(w->smem);
		assert_int_equal(bmprof_stacks_init(&w->k->c, w->smem, sn, 16, 64, 8), 0);
	}
	for (int i = 0; i < 500; i++) {
		uint64_t pc = 0x4000 + 8 * (uint64_t)(i % 300), f[3];
		unsigned n = (unsigned)i % 4;

		for (unsigned j = 0; j < n; j++)
			f[j] = 0x7000 + 0x100 * n + 8 * j;
		if (stacks)
			bmprof_record_stack(&w->k->c, pc, 0, bmprof_stack_id(&w->k->c, f, n, 0));
		else
			bmprof_record(&w->k->c, pc, 0);
	}
	memcpy(&w->d, &bmprof_descriptor, sizeof w->d);
	w->d.self = (uintptr_t)&w->d;
	memset((void *)w->d.cpu, 0, sizeof w->d.cpu);
	w->d.cpu[0] = (uintptr_t)&w->k->c;
	w->d.ncpus = 1;
	memset(&w->m, 0, sizeof w->m);
	image_add(&w->m, &w->d, sizeof w->d);
	image_add(&w->m, &w->k->c, sizeof w->k->c);
	image_add(&w->m, w->k->mem, w->mem_len);
	if (stacks)
		image_add(&w->m, w->smem, sn);
	reset_descriptor();
}

static void world_new(struct world *w)
{
	world_setup(w, 0);
}

static void world_free(struct world *w)
{
	free(w->smem);
	cpu_free(w->k);
}

/* 0 if read in full, else -1 with err; never reads outside the image (image_read fails
 * then) or more than the limit. With res: what was built, and the profile's samples
 * with chains and without a known one. */
static int world_read_res(struct world *w, char *err, size_t n, struct recover_result *res,
			  uint64_t *chained, uint64_t *unknown)
{
	struct recover_mem mem = { image_read, &w->m };
	struct recover r;
	struct recover_result tmp;
	struct profile p;
	int rc = recover_read(&r, &mem, (uintptr_t)&w->d, err, n);

	if (!res)
		res = &tmp;
	if (!rc)
		rc = recover_read_entries(&r, &mem, err, n);
	if (!rc) {
		profile_init(&p);
		rc = recover_frames(&r, &p, emit_to_profile, &p, res);
		if (!rc && chained) {
			*chained = 0;
			for (size_t i = 0; i < p.nstack_samples; i++)
				*chained += p.stack_samples[i].count;
			*unknown = p.stack_unknown;
			assert_int_equal(p.cpus[0].totals[BMPROF_TOTAL_TAKEN], 500);
			assert_int_equal(p.cpus[0].received, 500);
			assert_int_equal(p.cpus[0].totals[BMPROF_TOTAL_DELIVERED], 500);
		}
		profile_free(&p);
	}
	assert_true(r.bytes <= RECOVER_MAX_TOTAL);
	recover_free(&r);
	return rc;
}

static int world_read(struct world *w, char *err, size_t n)
{
	return world_read_res(w, err, n, NULL, NULL, NULL);
}

#define FIELD_SET(w, f, off, size) ((w)->d.field[f] = (uint32_t)(off) | (uint32_t)(size) << 16)

static void expect_error(struct world *w, const char *needle)
{
	char err[256] = "";

	assert_int_equal(world_read(w, err, sizeof err), -1);
	if (!strstr(err, needle))
		fail_msg("error \"%s\" does not say \"%s\"", err, needle);
	world_free(w);
}

static void test_hostile_descriptor(void **state)
{
	(void)state;
	struct world w;
	char err[256];

	world_new(&w);
	assert_int_equal(world_read(&w, err, sizeof err), 0);
	world_free(&w);

	world_new(&w);
	w.d.magic ^= 1;
	expect_error(&w, "no bmprof recovery descriptor");
	world_new(&w);
	w.d.version = BMPROF_DESC_VERSION + 1;
	expect_error(&w, "layout version 4");
	world_new(&w);
	w.d.version = 0;
	expect_error(&w, "layout version 0");
	world_new(&w);
	w.d.ptr_size = 2;
	expect_error(&w, "pointers are 2 bytes");
	world_new(&w);
	w.d.self += 64;
	expect_error(&w, "load bias");
	world_new(&w);
	w.d.nfields = 60000;
	expect_error(&w, "not believable");
	world_new(&w);
	w.d.ncpus = w.d.max_cpus + 1;
	expect_error(&w, "not believable");
	world_new(&w);
	w.d.cpu_size = 1u << 30;
	expect_error(&w, "not believable");
	world_new(&w);
	w.d.entry_size = 0;
	expect_error(&w, "not believable");
	world_new(&w);
	FIELD_SET(&w, BMPROF_DF_TAKEN, w.d.cpu_size - 4, 8);
	expect_error(&w, "outside its");
	world_new(&w);
	FIELD_SET(&w, BMPROF_DF_TABLE, 0, 4);
	expect_error(&w, "size of 4 bytes");
	/* a 32-bit target's pointers are 4 bytes (its pcs still 8): the layout is taken (the
	 * table is then looked for at the low half of this host's pointer) */
	world_new(&w);
	w.d.ptr_size = 4;
	FIELD_SET(&w, BMPROF_DF_TABLE, 0, 4);
	err[0] = 0;
	if (world_read(&w, err, sizeof err) && (strstr(err, "size of") || strstr(err, "pointers")))
		fail_msg("a 32-bit layout refused: %s", err);
	world_free(&w);
	world_new(&w);
	w.d.ptr_size = 4;
	FIELD_SET(&w, BMPROF_DF_TABLE, 0, 2);
	expect_error(&w, "size of 2 bytes");
	world_new(&w);
	w.d.field[BMPROF_DF_IN_DRAIN] = 0;
	expect_error(&w, "no field in_drain");
	world_new(&w);
	w.d.cpu[0] = 0x10;   /* not mapped */
	expect_error(&w, "not in the image");
}

static void test_hostile_state(void **state)
{
	(void)state;
	struct world w;

	world_new(&w);
	w.k->c.mask = 0xFFFFFFFFu;   /* 2^32 buckets */
	expect_error(&w, "more than bmprof reads back");
	world_new(&w);
	w.k->c.ovf[1].cap = 0xFFFFFFFFu;
	expect_error(&w, "more than bmprof reads back");
	world_new(&w);
	w.k->c.ovf[0].fill = w.k->c.ovf[0].cap + 1;
	expect_error(&w, "not believable");
	world_new(&w);
	w.k->c.ovf[0].state = 7;
	expect_error(&w, "not believable");
	world_new(&w);
	w.k->c.xfer.src = 9;
	expect_error(&w, "unknown transfer source");
	world_new(&w);
	w.k->c.table = (void *)0x20;  /* entries read from an unmapped address */
	expect_error(&w, "not in the image");
	world_new(&w);
	w.k->c.ovf[0].slot = 0;
	w.k->c.ovf[0].state = BMPROF_OVF_FILLING;
	w.k->c.ovf[0].fill = 3;
	expect_error(&w, "at address 0");
	world_new(&w);
	/* a table as large as allowed but not in the image: refused at the first read */
	w.k->c.mask = (uint32_t)(RECOVER_MAX_REGION / 64 - 1);
	expect_error(&w, "not in the image");
}

/* A version-1 descriptor (an image built before the stack fields) still recovers, without
 * chains, even if it lists more fields than version 1 had. */
static void test_version1(void **state)
{
	(void)state;
	struct world w;
	struct recover_result res;
	uint64_t chained = 1, unknown = 1;
	char err[256];

	for (int extra = 0; extra < 2; extra++) {
		world_setup(&w, 1);
		w.d.version = 1;
		w.d.nfields = extra ? BMPROF_DF_COUNT : BMPROF_DF_V1_COUNT;
		assert_int_equal(world_read_res(&w, err, sizeof err, &res, &chained, &unknown), 0);
		assert_int_equal(res.samples, 500);
		assert_int_equal(res.stack_cpus, 0);
		assert_int_equal(chained, 0);
		world_free(&w);
	}
	/* version 2 with its chains, even if it lists the fields of a later version */
	world_setup(&w, 1);
	w.d.version = 2;
	assert_int_equal(world_read_res(&w, err, sizeof err, &res, &chained, &unknown), 0);
	assert_int_equal(res.stack_cpus, 1);
	assert_int_equal(res.raw_cpus, 0);
	assert_int_equal(chained, 500);
	world_free(&w);
	/* and version 3 */
	world_setup(&w, 1);
	assert_int_equal(world_read_res(&w, err, sizeof err, &res, &chained, &unknown), 0);
	assert_int_equal(res.stack_cpus, 1);
	assert_int_equal(res.chains_read, 3);
	assert_int_equal(chained, 500);
	assert_int_equal(unknown, 0);
	world_free(&w);
}

/* A hostile stack table: an error naming it when its bounds are not believable or its
 * memory is not there; a chain that points outside the table, or an id it never
 * published, leaves its samples counted without a chain. */
static void test_hostile_stacks(void **state)
{
	(void)state;
	struct world w;
	struct recover_result res;
	uint64_t chained, unknown;
	struct bmprof_stacks *s;
	char err[256];

#define STACKS_WORLD() (world_setup(&w, 1), s = &w.k->c.stacks)
	STACKS_WORLD();
	s->n = s->max_ids + 1;
	expect_error(&w, "stack table is not believable");
	STACKS_WORLD();
	s->depth = BMPROF_STACK_DEPTH_WIRE_MAX + 1;
	expect_error(&w, "stack table is not believable");
	STACKS_WORLD();
	s->frames_used = s->frames_cap + 1;
	expect_error(&w, "stack table is not believable");
	STACKS_WORLD();
	s->max_ids = 0xFFFFu;
	expect_error(&w, "stack table is not believable");
	STACKS_WORLD();
	s->frames_cap = 1u << 30;
	expect_error(&w, "more than bmprof reads back");
	STACKS_WORLD();
	s->def = (void *)0x40;
	expect_error(&w, "not in the image");
	STACKS_WORLD();
	s->def = NULL;
	expect_error(&w, "at address 0");
	STACKS_WORLD();
	s->frames = (void *)0x40;
	expect_error(&w, "not in the image");
	STACKS_WORLD();
	w.d.field[BMPROF_DF_ENTRY_STACK] = 0;
	expect_error(&w, "no field entry.stack");
	STACKS_WORLD();
	FIELD_SET(&w, BMPROF_DF_SDEF, 4, 12);
	expect_error(&w, "outside its");
	STACKS_WORLD();
	FIELD_SET(&w, BMPROF_DF_SDEF_OFF, 10, 4);
	expect_error(&w, "outside its");
	STACKS_WORLD();
	FIELD_SET(&w, BMPROF_DF_STK_N, 0, 3);
	expect_error(&w, "size of 3 bytes");

	/* chain 1 deeper than a chain can be, chain 2 past the frames used: 250 samples */
	STACKS_WORLD();
	s->def[0].depth = 200;
	s->def[1].off = s->frames_used;
	assert_int_equal(world_read_res(&w, err, sizeof err, &res, &chained, &unknown), 0);
	assert_int_equal(res.chains_read, 1);
	assert_int_equal(res.unchained, 250);
	assert_int_equal(unknown, 250);
	assert_int_equal(chained, 500);
	world_free(&w);
	/* ids 2 and 3 not published: their 250 samples */
	STACKS_WORLD();
	s->n = 1;
	assert_int_equal(world_read_res(&w, err, sizeof err, &res, &chained, &unknown), 0);
	assert_int_equal(res.chains_read, 1);
	assert_int_equal(res.unchained, 250);
	assert_int_equal(unknown, 250);
	world_free(&w);
	/* stacks off: the entries go out without chains */
	STACKS_WORLD();
	s->depth = 0;
	assert_int_equal(world_read_res(&w, err, sizeof err, &res, &chained, &unknown), 0);
	assert_int_equal(res.stack_cpus, 0);
	assert_int_equal(chained, 0);
	world_free(&w);
#undef STACKS_WORLD
}

/* A transfer record that does not add up is not believed, and the CPU is flagged. */
static void test_bad_transfer_record(void **state)
{
	(void)state;
	struct world w;
	struct recover_mem mem;
	struct recover r;
	char err[256];

	world_new(&w);
	mem = (struct recover_mem){ image_read, &w.m };
	w.k->c.xfer.src = BMPROF_XFER_TABLE;
	w.k->c.xfer.n = 5;
	w.k->c.xfer.done = 4;
	w.k->c.xfer.end = 9;
	assert_int_equal(recover_read(&r, &mem, (uintptr_t)&w.d, err, sizeof err), 0);
	assert_false(r.cpu[0].inflight);
	assert_non_null(strstr(r.cpu[0].problem, "transfer record"));
	recover_free(&r);
	cpu_free(w.k);
}

/* Random damage to the descriptor, the CPU's struct and (with stacks) its stack table: an
 * error or a result, never a crash, a read outside the image, or more than the limit. */
static void test_random_damage(void **state)
{
	(void)state;
	uint64_t x = 0x1234567;

	for (int i = 0; i < 4000; i++) {
		struct world w;
		char err[256];
		uint8_t *target;
		size_t len;

		world_setup(&w, i & 2);
		if (i & 1) {
			target = (uint8_t *)&w.d;
			len = BMPROF_DESC_HDR + 4 * BMPROF_DF_COUNT + 8;
		} else if ((i & 6) == 6) {
			target = w.smem;
			len = bmprof_stacks_mem_size(16, 64);
		} else {
			target = (uint8_t *)&w.k->c;
			len = sizeof w.k->c;
		}
		for (int j = 0; j < 1 + (int)(next(&x) % 4); j++)
			target[next(&x) % len] ^= (uint8_t)(1u << (next(&x) % 8));
		world_read(&w, err, sizeof err);
		world_free(&w);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stop_at_every_frame),
		cmocka_unit_test(test_stop_between_samples),
		cmocka_unit_test(test_stacks_stop_everywhere),
		cmocka_unit_test(test_busy),
		cmocka_unit_test(test_two_cpus),
		cmocka_unit_test(test_hostile_descriptor),
		cmocka_unit_test(test_hostile_state),
		cmocka_unit_test(test_bad_transfer_record),
		cmocka_unit_test(test_version1),
		cmocka_unit_test(test_hostile_stacks),
		cmocka_unit_test(test_random_damage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
