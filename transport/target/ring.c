/* SPDX-License-Identifier: BSD-2-Clause */
/* Producer side of the shared-memory rings (bmprof_ring.h, docs/transport-shm.md).
 *
 * A write() call carries the bytes of whole frames in order, a frame possibly split over
 * several calls (bmprof_emit_frame sends large ones as header, payload, CRC). The ring
 * decides at each frame's header: it reserves the whole record then (the later bytes of
 * that frame can no longer fail), or drops the frame and returns non-zero, after which
 * the caller sends none of its remaining bytes. The record is published (head moves past
 * it) only once its last byte is in place. Freestanding. */
#include "bmprof_ring.h"
#include "wire.h"

_Static_assert(sizeof(struct bmprof_ring_ctl) == BMPROF_RING_CTL_SIZE, "ring control block");
_Static_assert(__builtin_offsetof(struct bmprof_ring_ctl, tail) == BMPROF_RING_C_TAIL,
	       "ring tail offset");

#define HDR_PAGE 4096u

static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield" ::: "memory");
#endif
}

static inline uint64_t load_acquire(volatile uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

/* The data, then the new head: on x86 a compiler barrier, on AArch64 a store-release. */
static inline void publish(volatile uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static void put32(uint8_t *base, unsigned off, uint32_t v)
{
	*(volatile uint32_t *)(base + off) = v;
}

static void put16(uint8_t *base, unsigned off, uint16_t v)
{
	*(volatile uint16_t *)(base + off) = v;
}

int bmprof_ring_init(struct bmprof_rings *r, void *base, size_t size, unsigned nrings)
{
	uint8_t *b = base;
	uint64_t data_off, ds = 1ull << 31;

	if (!r || !b || ((uintptr_t)b & 7) || !nrings || nrings > BMPROF_RING_MAX)
		return -1;
	data_off = (BMPROF_RING_HDR_SIZE + (uint64_t)nrings * BMPROF_RING_CTL_SIZE + HDR_PAGE - 1) &
		   ~(uint64_t)(HDR_PAGE - 1);
	while (ds >= BMPROF_RING_MIN_DATA && data_off + nrings * ds > size)
		ds >>= 1;
	if (ds < BMPROF_RING_MIN_DATA)
		return -1;

	put32(b, BMPROF_RING_H_MAGIC, 0);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	put16(b, BMPROF_RING_H_VERSION, BMPROF_RING_VERSION);
	put16(b, BMPROF_RING_H_NRINGS, (uint16_t)nrings);
	put32(b, BMPROF_RING_H_DATA_SIZE, (uint32_t)ds);
	put32(b, BMPROF_RING_H_FLAGS, 0);
	put32(b, BMPROF_RING_H_CTL_OFF, BMPROF_RING_HDR_SIZE);
	put32(b, BMPROF_RING_H_DATA_OFF, (uint32_t)data_off);
	put32(b, BMPROF_RING_H_TOTAL, (uint32_t)(data_off + nrings * ds));
	r->n = nrings;
	for (unsigned i = 0; i < nrings; i++) {
		struct bmprof_ring *g = &r->ring[i];
		struct bmprof_ring_ctl *c =
			(struct bmprof_ring_ctl *)(b + BMPROF_RING_HDR_SIZE + i * BMPROF_RING_CTL_SIZE);

		c->head = c->seq = c->dropped_records = c->dropped_bytes = c->tail = 0;
		*g = (struct bmprof_ring){
			.ctl = c, .data = b + data_off + i * ds, .mask = (uint32_t)(ds - 1),
			.flags = (volatile uint32_t *)(b + BMPROF_RING_H_FLAGS),
			.attached = (volatile uint32_t *)(b + BMPROF_RING_H_ATTACHED),
		};
		r->out[i] = (struct bmprof_out){ bmprof_ring_write, g };
	}
	__atomic_thread_fence(__ATOMIC_RELEASE);
	put32(b, BMPROF_RING_H_MAGIC, BMPROF_RING_MAGIC);
	return 0;
}

const struct bmprof_out *bmprof_ring_out(struct bmprof_rings *r, unsigned i)
{
	return r && i < r->n ? &r->out[i] : 0;
}

void bmprof_ring_set_final(struct bmprof_rings *r, uint64_t spins)
{
	for (unsigned i = 0; i < r->n; i++)
		r->ring[i].final_spins = spins;
	if (r->n)
		*r->ring[0].flags = spins ? BMPROF_RING_F_FINAL : 0;
}

/* Room for a record of n bytes at the head: 1, or 0 if there is none (in final mode, after
 * waiting while the consumer is attached and makes progress). */
static int reserve(struct bmprof_ring *g, uint64_t head, uint64_t n)
{
	uint64_t size = (uint64_t)g->mask + 1, tail = load_acquire(&g->ctl->tail), idle = 0;

	if (n > size)
		return 0;
	while (head - tail + n > size) {
		uint64_t t;

		if (!g->final_spins || !*g->attached || ++idle > g->final_spins)
			return 0;
		relax();
		t = load_acquire(&g->ctl->tail);
		if (t != tail) {
			tail = t;
			idle = 0;
		}
	}
	return 1;
}

static void copy_in(struct bmprof_ring *g, uint64_t pos, const uint8_t *s, uint32_t n)
{
	uint32_t at = (uint32_t)pos & g->mask, first = g->mask + 1 - at;
	uint8_t *d = g->data;

	if (first > n)
		first = n;
	for (uint32_t i = 0; i < first; i++)
		d[at + i] = s[i];
	for (uint32_t i = first; i < n; i++)
		d[i - first] = s[i];
}

/* A frame header is complete in g->hdr: reserve its record, or drop it. 0 or -1. */
static int begin_frame(struct bmprof_ring *g)
{
	struct bmprof_ring_ctl *c = g->ctl;
	uint64_t head = c->head, seq = c->seq;
	uint32_t flen, rec;
	uint8_t rh[BMPROF_RING_REC_HDR];

	if (g->hdr[0] != BMPROF_MAGIC0 || g->hdr[1] != BMPROF_MAGIC1 ||
	    g->hdr[2] != BMPROF_MAGIC2 || g->hdr[3] != BMPROF_MAGIC3)
		return -1;
	flen = BMPROF_FRAME_HDR + bmprof_get16(g->hdr + 6) + BMPROF_FRAME_CRC;
	rec = BMPROF_RING_REC_HDR + ((flen + 7) & ~7u);
	c->seq = seq + 1;
	if (!reserve(g, head, rec)) {
		c->dropped_records = c->dropped_records + 1;
		c->dropped_bytes = c->dropped_bytes + flen;
		return -1;
	}
	bmprof_put32(rh, (uint32_t)seq);
	bmprof_put32(rh + 4, flen);
	copy_in(g, head, rh, BMPROF_RING_REC_HDR);
	copy_in(g, head + BMPROF_RING_REC_HDR, g->hdr, BMPROF_FRAME_HDR);
	g->rec = head;
	g->wpos = head + BMPROF_RING_REC_HDR + BMPROF_FRAME_HDR;
	g->frame_len = flen;
	g->need = flen - BMPROF_FRAME_HDR;
	return 0;
}

int bmprof_ring_write(void *ctx, const void *buf, size_t len)
{
	struct bmprof_ring *g = ctx;
	const uint8_t *p = buf;

	if (!g || (len && !p))
		return -1;
	while (len) {
		uint32_t take;

		if (!g->need) {
			while (len && g->have_hdr < BMPROF_FRAME_HDR) {
				g->hdr[g->have_hdr++] = *p++;
				len--;
			}
			if (g->have_hdr < BMPROF_FRAME_HDR)
				return 0;
			g->have_hdr = 0;
			if (begin_frame(g))
				return -1;
			continue;
		}
		take = len < g->need ? (uint32_t)len : g->need;
		copy_in(g, g->wpos, p, take);
		g->wpos += take;
		g->need -= take;
		p += take;
		len -= take;
		if (!g->need)
			publish(&g->ctl->head,
				g->rec + BMPROF_RING_REC_HDR + ((g->frame_len + 7) & ~7ull));
	}
	return 0;
}
