/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness for the recovery reader (host/run/recover.c): a real target CPU state is
 * built with the target core (compiled for the host), laid out as a target's memory at
 * made-up addresses (descriptor, CPU state, table and buffers), damaged as the input says,
 * and read back. Any input is read or refused with a reason; reads stay inside the memory
 * and under the limits; the frames built always decode; a CPU the reader does not flag
 * has taken = delivered + lost with every delivered sample in the frames; with call
 * stacks every recovered sample comes with a chain id, and those whose chain is not
 * defined are exactly the ones the reader counted (unchained); in raw mode a CPU not
 * flagged has raw taken = raw delivered + raw lost, with every raw sample recovered in
 * the frames.
 *
 * Input: byte 0: samples to record (x 16); byte 1: bit 0 drain the buffers, bit 1 send a
 * delta flush, bit 2 leave a frame in flight (the state is copied from inside a write),
 * bit 3 record call stacks (a stack table of STACK_IDS chains, so some are lost), bit 4
 * raw mode (a raw ring of RAW_RING records, so some are dropped), bit 5 with bit 2 leave a
 * RAW_SAMPLES frame in flight instead; then 3-byte patches: u16 offset into the memory
 * (descriptor, CPU state, table and buffers, with stacks the stack table, in raw mode the
 * raw ring, in turn; each region's offset taken modulo its size), u8 value XORed in. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmprof.h"
#include "bmprof_desc.h"
#include "profile.h"
#include "run/recover.h"
#include "../../target/core/core.h"

#define CHECK(c)                                                                          \
	do {                                                                              \
		if (!(c)) {                                                               \
			fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #c); \
			abort();                                                          \
		}                                                                         \
	} while (0)

#define TABLE 16
#define OVF 8
#define DESC_AT 0x10000ull
#define CPU_AT 0x20000ull
#define MEM_AT 0x30000ull
#define STK_AT 0x40000ull
#define STACK_IDS 6
#define STACK_FRAMES 24
#define RAW_AT 0x50000ull
#define RAW_RING 8
#define RAW_NREGS 17

struct region {
	uint64_t at;
	uint8_t *p;
	size_t len;
};

struct world {
	struct region r[5];
	unsigned n;
	uint64_t bytes;
};

static int world_read(void *ctx, uint64_t addr, void *buf, size_t len, char *err, size_t n)
{
	struct world *w = ctx;

	for (unsigned i = 0; i < w->n; i++) {
		const struct region *g = &w->r[i];
		if (addr >= g->at && addr - g->at <= g->len && len <= g->len - (addr - g->at)) {
			memcpy(buf, g->p + (addr - g->at), len);
			w->bytes += len;
			return 0;
		}
	}
	snprintf(err, n, "unmapped");
	return -1;
}

struct target {
	struct bmprof_cpu c;
	uint8_t *mem, *smem, *rmem;
	size_t mem_len, smem_len, rmem_len;
	int snap, snapped;       /* copy the state at the next SAMPLES (snap_type) write */
	uint8_t snap_type;
	struct bmprof_cpu copy;
	uint8_t *mem_copy, *smem_copy, *rmem_copy;
};

static void snapshot(struct target *t)
{
	t->copy = t->c;
	memcpy(t->mem_copy, t->mem, t->mem_len);
	memcpy(t->smem_copy, t->smem, t->smem_len);
	memcpy(t->rmem_copy, t->rmem, t->rmem_len);
	t->snapped = 1;
}

static int sink(void *ctx, const void *buf, size_t len)
{
	struct target *t = ctx;
	const uint8_t *f = buf;

	if (t->snap && !t->snapped && len > 4 &&
	    (t->snap_type ? f[4] == t->snap_type :
	     f[4] == BMPROF_FRAME_SAMPLES || f[4] == BMPROF_FRAME_STACK_SAMPLES))
		snapshot(t);
	return 0;
}

static int emit(void *ctx, uint8_t type, const uint8_t *payload, uint16_t len)
{
	CHECK(profile_apply_frame(ctx, type, payload, len) == 0);
	return 0;
}

/* The state as a target at made-up addresses would hold it. */
static void *moved(const void *p, const uint8_t *base, uint64_t at)
{
	return (void *)(uintptr_t)(at + ((const uint8_t *)p - base));
}

static void lay_out(struct world *w, struct bmprof_desc *d, struct bmprof_cpu *c,
		    const struct target *t, uint8_t *mem, uint8_t *smem, uint8_t *rmem)
{
	*d = bmprof_descriptor;
	d->self = DESC_AT;
	d->ncpus = 1;
	memset((void *)d->cpu, 0, sizeof d->cpu);
	d->cpu[0] = CPU_AT;
	c->table = (void *)(uintptr_t)(MEM_AT + ((uint8_t *)t->c.table - t->mem));
	for (int i = 0; i < 2; i++)
		c->ovf[i].slot = (void *)(uintptr_t)(MEM_AT + ((uint8_t *)t->c.ovf[i].slot - t->mem));
	w->r[0] = (struct region){ DESC_AT, (uint8_t *)d, sizeof *d };
	w->r[1] = (struct region){ CPU_AT, (uint8_t *)c, sizeof *c };
	w->r[2] = (struct region){ MEM_AT, mem, t->mem_len };
	w->n = 3;
	if (t->c.stacks.depth) {
		c->stacks.index = moved(t->c.stacks.index, t->smem, STK_AT);
		c->stacks.def = moved(t->c.stacks.def, t->smem, STK_AT);
		c->stacks.frames = moved(t->c.stacks.frames, t->smem, STK_AT);
		w->r[w->n++] = (struct region){ STK_AT, smem, t->smem_len };
	}
	if (t->c.raw.cap) {
		c->raw.slot = moved(t->c.raw.slot, t->rmem, RAW_AT);
		w->r[w->n++] = (struct region){ RAW_AT, rmem, t->rmem_len };
	}
}

static void check(struct recover *r, const struct profile *p, const struct recover_result *res)
{
	for (unsigned i = 0; i < r->ncpu; i++) {
		const struct recover_cpu *c = &r->cpu[i];
		const struct profile_cpu *pc = &p->cpus[i];
		const uint64_t *v = pc->totals;

		if (!c->present || !c->have_entries)
			continue;
		CHECK(pc->have_totals);
		if (c->stk_depth) {
			uint64_t chained = 0;
			for (size_t j = 0; j < p->nstack_samples; j++)
				if (p->stack_samples[j].cpu == i)
					chained += p->stack_samples[j].count;
			CHECK(chained == pc->received);
		}
		if (c->problem[0])
			continue;
		if (c->raw_cap) {
			CHECK(v[BMPROF_TOTAL_RAW_TAKEN] == v[BMPROF_TOTAL_RAW_DELIVERED] +
			      v[BMPROF_TOTAL_RAW_LOST_FULL] + v[BMPROF_TOTAL_RAW_LOST_TRANSPORT]);
			CHECK(pc->raw_received == c->nraw - (res->raw_arrived ? c->raw_sending : 0));
			CHECK(pc->raw_received <= v[BMPROF_TOTAL_RAW_DELIVERED]);
		}
		CHECK(v[BMPROF_TOTAL_TAKEN] == v[BMPROF_TOTAL_DELIVERED] +
		      v[BMPROF_TOTAL_LOST_FULL] + v[BMPROF_TOTAL_LOST_TRANSPORT]);
		CHECK(pc->received <= v[BMPROF_TOTAL_DELIVERED]);
	}
	CHECK(p->stack_unknown == res->unchained);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct target t = { .mem_len = bmprof_cpu_mem_size(TABLE, OVF),
			    .smem_len = bmprof_stacks_mem_size(STACK_IDS, STACK_FRAMES),
			    .rmem_len = bmprof_raw_mem_size(RAW_RING) };
	struct bmprof_out out = { sink, &t };
	struct bmprof_desc d;
	struct bmprof_cpu c;
	struct world w = { .bytes = 0 };
	struct recover_mem mem = { world_read, &w };
	struct recover r;
	struct recover_result res;
	struct profile p;
	char err[256];
	uint8_t *m, *sm, *rm;
	unsigned n = size > 0 ? data[0] * 16u : 0, how = size > 1 ? data[1] : 0;

	t.mem = aligned_alloc(64, (t.mem_len + 63) & ~(size_t)63);
	t.mem_copy = malloc(t.mem_len);
	t.smem = aligned_alloc(64, (t.smem_len + 63) & ~(size_t)63);
	t.smem_copy = malloc(t.smem_len);
	t.rmem = aligned_alloc(64, (t.rmem_len + 63) & ~(size_t)63);
	t.rmem_copy = malloc(t.rmem_len);
	m = malloc(t.mem_len);
	sm = malloc(t.smem_len);
	rm = malloc(t.rmem_len);
	CHECK(t.mem && t.mem_copy && m && t.smem && t.smem_copy && sm && t.rmem && t.rmem_copy &&
	      rm);
	memset(t.smem, 0, t.smem_len);
	memset(t.rmem, 0, t.rmem_len);
	CHECK(bmprof_cpu_init(&t.c, 0, t.mem, t.mem_len, TABLE, OVF, 1) == 0);
	if (how & 8)
		CHECK(bmprof_stacks_init(&t.c, t.smem, t.smem_len, STACK_IDS, STACK_FRAMES, 8) == 0);
	if (how & 16)
		CHECK(bmprof_raw_init(&t.c, t.rmem, t.rmem_len, RAW_RING, BMPROF_ARCH_X86_64,
				      RAW_NREGS) == 0);
	for (unsigned i = 0; i < n; i++) {
		uint64_t pc = 0x400000 + 4 * (i * 2654435761u % 61), f[5];
		unsigned k = i * 40503u % 9 % 6;   /* chain k: k frames, up to 5 */

		for (unsigned j = 0; j < k; j++)
			f[j] = 0x500000 + 0x40 * (i % 7) + 8 * j;
		if (how & 8)
			bmprof_record_stack(&t.c, pc, (uint16_t)(i & 1),
					    bmprof_stack_id(&t.c, f, k, (uint8_t)(i % 3 == 0)));
		else
			bmprof_record(&t.c, pc, (uint16_t)(i & 1));
		if (how & 16) {
			struct bmprof_raw s = { .pc = pc, .event = (uint16_t)(i & 1),
						.valid = 0x10003u, .flags = (uint8_t)(i & 1),
						.data_addr = 0x600000 + 8 * (uint64_t)i };
			s.r[0] = i;
			s.r[1] = ~(uint64_t)i;
			s.r[16] = pc;
			bmprof_record_raw(&t.c, &s);
		}
		if ((how & 1) && bmprof_drain_pending(&t.c))
			bmprof_drain(&t.c, &out);
	}
	t.snap = (how & 4) != 0;
	t.snap_type = (how & 48) == 48 ? BMPROF_FRAME_RAW_SAMPLES : 0;
	if (how & 2)
		bmprof_flush_delta(&t.c, &out);
	if (!t.snapped)           /* no frame in flight: the state as it is now */
		snapshot(&t);
	c = t.copy;
	memcpy(m, t.mem_copy, t.mem_len);
	memcpy(sm, t.smem_copy, t.smem_len);
	memcpy(rm, t.rmem_copy, t.rmem_len);
	lay_out(&w, &d, &c, &t, m, sm, rm);
	for (size_t i = 2; i + 3 <= size; i += 3) {
		unsigned off = data[i] | data[i + 1] << 8;
		const struct region *g = &w.r[off % w.n];

		g->p[(off / w.n) % g->len] ^= data[i + 2];
	}
	profile_init(&p);
	if (recover_read(&r, &mem, DESC_AT, err, sizeof err) == 0 &&
	    recover_read_entries(&r, &mem, err, sizeof err) == 0) {
		CHECK(recover_frames(&r, &p, emit, &p, &res) == 0);
		check(&r, &p, &res);
	} else {
		CHECK(err[0]);
	}
	CHECK(w.bytes <= RECOVER_MAX_TOTAL && r.bytes <= RECOVER_MAX_TOTAL);
	recover_free(&r);
	profile_free(&p);
	free(m);
	free(sm);
	free(rm);
	free(t.rmem_copy);
	free(t.rmem);
	free(t.mem_copy);
	free(t.mem);
	free(t.smem_copy);
	free(t.smem);
	return 0;
}
