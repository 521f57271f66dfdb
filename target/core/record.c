/* SPDX-License-Identifier: BSD-2-Clause */
/* The interrupt path: aggregate one sample into the per-CPU hash table.
 *
 * Overflow buffer hand-off. Each buffer is owned by one side at a time, and its state says
 * which:
 *   EMPTY    owned by the handler, unused
 *   FILLING  owned by the handler, being appended to (the one at c->active)
 *   FULL     owned by the drain side
 * The handler fills slots, then publishes the buffer with a release store of FULL; the
 * drain side reads the state with an acquire load before reading the slots, and hands the
 * buffer back with a release store of EMPTY once it has read them; the handler claims it
 * with an acquire load. Each transition is one aligned 32-bit store, so a drain interrupted
 * by the handler on the same CPU (or running on another CPU) never sees a half-written
 * buffer, and neither side waits for the other. On x86 these are plain moves; the ordering
 * they add there is the compiler's. The table itself is touched only by the handler (and
 * by bmprof_flush with sampling stopped), so it needs no ordering at all.
 *
 * in_record is set around the whole of it, for a host that stops the machine and reads
 * the table and buffers back (bmprof_desc.h): between the first store and the last, a
 * sample can be counted in taken and not yet stored, or an evicted entry be in both the
 * table and a buffer. Two stores to the line the hit path writes anyway.
 */
#include "core.h"

static inline uint32_t load_acquire(const volatile uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

/* Make an EMPTY buffer the FILLING one (the other one first, so buffers alternate). */
static struct bmprof_ovf *claim_empty(struct bmprof_cpu *c)
{
	for (uint32_t k = 1; k <= 2; k++) {
		uint32_t i = (c->active ^ k) & 1;
		struct bmprof_ovf *o = &c->ovf[i];
		if (load_acquire(&o->state) == BMPROF_OVF_EMPTY) {
			o->fill = 0;
			/* the drain side ignores a FILLING buffer: no ordering needed */
			o->state = BMPROF_OVF_FILLING;
			c->active = (uint16_t)i;
			return o;
		}
	}
	return 0;
}

/* Append one entry to the FILLING buffer. Returns 0, counting the samples in lost_full,
 * when both buffers wait for the drain. */
static int ovf_put(struct bmprof_cpu *c, uint64_t pc, uint16_t event, uint16_t stack,
		   uint32_t count)
{
	struct bmprof_ovf *o = &c->ovf[c->active];
	if (o->state != BMPROF_OVF_FILLING && !(o = claim_empty(c))) {
		c->lost_full += count;
		return 0;
	}
	uint32_t f = o->fill;
	o->slot[f] = (struct bmprof_entry){ .pc = pc, .count = count, .event = event,
					    .stack = stack };
	o->fill = f + 1;
	if (f + 1 == o->cap) {
		__atomic_store_n(&o->state, BMPROF_OVF_FULL, __ATOMIC_RELEASE);
		claim_empty(c);
	}
	return 1;
}

static void evict(struct bmprof_cpu *c, const struct bmprof_entry *e)
{
	if (ovf_put(c, e->pc, e->event, e->stack, e->count))
		c->evictions++;
}

/* The miss path, kept out of line so the hit path stays a handful of instructions. way is
 * a free way, or 0 when the bucket is full and the round-robin way goes. */
static __attribute__((noinline)) void insert(struct bmprof_cpu *c, struct bmprof_entry *bucket,
					     struct bmprof_entry *way, uint64_t pc, uint16_t event,
					     uint16_t stack)
{
	if (!way) {
		way = &bucket[c->rr];
		c->rr = (c->rr + 1) & (BMPROF_WAYS - 1);
		evict(c, way);
	}
	*way = (struct bmprof_entry){ .pc = pc, .count = 1, .event = event, .stack = stack };
	c->misses++;
}

/* A count about to wrap leaves for the overflow buffer and the entry starts again at 1. */
static __attribute__((noinline)) void restart(struct bmprof_cpu *c, struct bmprof_entry *e)
{
	evict(c, e);
	e->count = 1;
	c->hits++;
}

static inline void record(struct bmprof_cpu *c, uint64_t pc, uint16_t event, uint16_t stack)
{
	c->taken++;
	if (__builtin_expect(c->flushing, 0)) {
		ovf_put(c, pc, event, stack, 1);
		return;
	}
	struct bmprof_entry *w = c->table[bmprof_bucket_index(c, pc, event, stack)].way;
	/* ways fill in order and are only ever replaced, so the used ones are a prefix */
	for (unsigned i = 0; i < BMPROF_WAYS; i++) {
		if (w[i].count == 0) {
			insert(c, w, &w[i], pc, event, stack);
			return;
		}
		if (w[i].pc == pc && w[i].event == event && w[i].stack == stack) {
			if (__builtin_expect(w[i].count == UINT32_MAX, 0)) {
				restart(c, &w[i]);
				return;
			}
			w[i].count++;
			c->hits++;
			return;
		}
	}
	insert(c, w, 0, pc, event, stack);
}

void bmprof_record(struct bmprof_cpu *c, uint64_t pc, uint16_t event)
{
	c->in_record = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	record(c, pc, bmprof_event_key(event), 0);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	c->in_record = 0;
}

void bmprof_record_stack(struct bmprof_cpu *c, uint64_t pc, uint16_t event, uint16_t stack)
{
	c->in_record = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	record(c, pc, bmprof_event_key(event), stack);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	c->in_record = 0;
}
