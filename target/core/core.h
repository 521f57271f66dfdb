/* SPDX-License-Identifier: BSD-2-Clause */
/* Internals of the target core shared by its files (and by the host-side tests and
 * benchmark, which reach in to check the table and buffers). Freestanding. */
#ifndef BMPROF_CORE_H
#define BMPROF_CORE_H

#include "bmprof.h"

/* Largest SAMPLES payload the drain builds: one frame fits a stack buffer, and a frame lost
 * on the wire loses at most this much. */
#define BMPROF_SAMPLES_PAYLOAD 1024u

/* Largest sizes bmprof_cpu_init accepts: 2^30 table entries (16 GiB) and 2^26 entries per
 * overflow buffer keep every size computation far from overflow. */
#define BMPROF_TABLE_ENTRIES_MAX (1u << 30)
#define BMPROF_OVF_ENTRIES_MAX (1u << 26)

/* Multiplicative (Fibonacci) hashing. x86 instruction addresses are byte-aligned, so every
 * bit of the pc must reach the index: the high half of the product depends on all the bits
 * of the key. The event goes in above the bits that vary within a function so that the same
 * pc under two events lands in different buckets. */
static inline uint32_t bmprof_bucket_index(const struct bmprof_cpu *c, uint64_t pc,
					   uint16_t event, uint16_t stack)
{
	uint64_t h = (pc ^ ((uint64_t)event << 16) ^ ((uint64_t)stack << 40)) *
		     0x9e3779b97f4a7c15ull;
	return (uint32_t)(h >> 32) & c->mask;
}

static inline struct bmprof_entry *bmprof_table_entries(const struct bmprof_cpu *c)
{
	return &c->table[0].way[0];
}

static inline uint64_t bmprof_table_size(const struct bmprof_cpu *c)
{
	return ((uint64_t)c->mask + 1) * BMPROF_WAYS;
}

/* in_drain (bmprof_desc.h): set while the drain side changes what a host reading memory
 * would count, clear while a frame is written. The fences keep the compiler from moving
 * the table's and buffers' stores across it; the host reads a stopped machine, so no CPU
 * ordering is needed. */
static inline void bmprof_drain_mark(struct bmprof_cpu *c, uint32_t v)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	c->in_drain = v;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/* A frame written with in_drain clear (called with it set). out->write()'s result. */
int bmprof_emit_idle(struct bmprof_cpu *c, const struct bmprof_out *out, uint8_t type,
		     const void *payload, uint16_t len);

/* Send n entries of transfer source src (BMPROF_XFER_*; free ones, count 0, are skipped)
 * as SAMPLES frames of at most BMPROF_SAMPLES_PAYLOAD bytes, noting each in c->xfer;
 * counts go to delivered or lost_transport. The caller sets xfer.src back to NONE once the
 * entries are no longer where src says. in_drain set on entry and on return. */
void bmprof_send_entries(struct bmprof_cpu *c, const struct bmprof_out *out,
			 const struct bmprof_entry *e, uint32_t n, uint32_t src);

/* Send every record the raw ring holds as RAW_SAMPLES frames (raw.c); counts go to raw
 * delivered or lost_transport. in_drain set on entry and on return. */
void bmprof_send_raw(struct bmprof_cpu *c, const struct bmprof_out *out);

/* The raw ring is half full: the drain should empty it. */
static inline int bmprof_raw_due(const struct bmprof_cpu *c)
{
	return c->raw.cap && bmprof_raw_pending(c) >= (c->raw.cap + 1) / 2;
}

/* Sort entries by (pc, event) in place: smaller pc deltas on the wire. */
void bmprof_sort_entries(struct bmprof_entry *e, uint32_t n);

#endif
