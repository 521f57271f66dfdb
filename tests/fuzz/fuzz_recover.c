/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness for the recovery reader (host/run/recover.c): a real target CPU state is
 * built with the target core (compiled for the host), laid out as a target's memory at
 * made-up addresses (descriptor, CPU state, table and buffers), damaged as the input says,
 * and read back. Any input is read or refused with a reason; reads stay inside the memory
 * and under the limits; the frames built always decode; and a CPU the reader does not flag
 * has taken = delivered + lost with every delivered sample in the frames.
 *
 * Input: byte 0: samples to record (x 16); byte 1: bit 0 drain the buffers, bit 1 send a
 * delta flush, bit 2 leave a frame in flight (the state is copied from inside a write);
 * then 3-byte patches: u16 offset into the memory (descriptor, then CPU state, then table
 * and buffers, each region's offset taken modulo its size), u8 value XORed in. */
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

struct region {
	uint64_t at;
	uint8_t *p;
	size_t len;
};

struct world {
	struct region r[3];
	uint64_t bytes;
};

static int world_read(void *ctx, uint64_t addr, void *buf, size_t len, char *err, size_t n)
{
	struct world *w = ctx;

	for (int i = 0; i < 3; i++) {
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
	uint8_t *mem;
	size_t mem_len;
	int snap, snapped;       /* copy the state at the next SAMPLES write */
	struct bmprof_cpu copy;
	uint8_t *mem_copy;
};

static void snapshot(struct target *t)
{
	t->copy = t->c;
	memcpy(t->mem_copy, t->mem, t->mem_len);
	t->snapped = 1;
}

static int sink(void *ctx, const void *buf, size_t len)
{
	struct target *t = ctx;
	const uint8_t *f = buf;

	if (t->snap && !t->snapped && len > 4 && f[4] == BMPROF_FRAME_SAMPLES)
		snapshot(t);
	return 0;
}

static int emit(void *ctx, uint8_t type, const uint8_t *payload, uint16_t len)
{
	CHECK(profile_apply_frame(ctx, type, payload, len) == 0);
	return 0;
}

/* The state as a target at made-up addresses would hold it. */
static void lay_out(struct world *w, struct bmprof_desc *d, struct bmprof_cpu *c,
		    const struct target *t, uint8_t *mem)
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
}

static void check(struct recover *r, const struct profile *p)
{
	for (unsigned i = 0; i < r->ncpu; i++) {
		const struct recover_cpu *c = &r->cpu[i];
		const struct profile_cpu *pc = &p->cpus[i];
		const uint64_t *v = pc->totals;

		if (!c->present || !c->have_entries)
			continue;
		CHECK(pc->have_totals);
		if (c->problem[0])
			continue;
		CHECK(v[BMPROF_TOTAL_TAKEN] == v[BMPROF_TOTAL_DELIVERED] +
		      v[BMPROF_TOTAL_LOST_FULL] + v[BMPROF_TOTAL_LOST_TRANSPORT]);
		CHECK(pc->received <= v[BMPROF_TOTAL_DELIVERED]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct target t = { .mem_len = bmprof_cpu_mem_size(TABLE, OVF) };
	struct bmprof_out out = { sink, &t };
	struct bmprof_desc d;
	struct bmprof_cpu c;
	struct world w = { .bytes = 0 };
	struct recover_mem mem = { world_read, &w };
	struct recover r;
	struct recover_result res;
	struct profile p;
	char err[256];
	uint8_t *m;
	unsigned n = size > 0 ? data[0] * 16u : 0, how = size > 1 ? data[1] : 0;

	t.mem = aligned_alloc(64, (t.mem_len + 63) & ~(size_t)63);
	t.mem_copy = malloc(t.mem_len);
	m = malloc(t.mem_len);
	CHECK(t.mem && t.mem_copy && m);
	CHECK(bmprof_cpu_init(&t.c, 0, t.mem, t.mem_len, TABLE, OVF, 1) == 0);
	for (unsigned i = 0; i < n; i++) {
		bmprof_record(&t.c, 0x400000 + 4 * (i * 2654435761u % 61), (uint16_t)(i & 1));
		if ((how & 1) && bmprof_drain_pending(&t.c))
			bmprof_drain(&t.c, &out);
	}
	t.snap = (how & 4) != 0;
	if (how & 2)
		bmprof_flush_delta(&t.c, &out);
	if (!t.snapped)           /* no frame in flight: the state as it is now */
		snapshot(&t);
	c = t.copy;
	memcpy(m, t.mem_copy, t.mem_len);
	lay_out(&w, &d, &c, &t, m);
	for (size_t i = 2; i + 3 <= size; i += 3) {
		unsigned off = data[i] | data[i + 1] << 8;
		const struct region *g = &w.r[off % 3];

		g->p[(off / 3) % g->len] ^= data[i + 2];
	}
	profile_init(&p);
	if (recover_read(&r, &mem, DESC_AT, err, sizeof err) == 0 &&
	    recover_read_entries(&r, &mem, err, sizeof err) == 0) {
		CHECK(recover_frames(&r, &p, emit, &p, &res) == 0);
		check(&r, &p);
	} else {
		CHECK(err[0]);
	}
	CHECK(w.bytes <= RECOVER_MAX_TOTAL && r.bytes <= RECOVER_MAX_TOTAL);
	recover_free(&r);
	profile_free(&p);
	free(m);
	free(t.mem_copy);
	free(t.mem);
	return 0;
}
