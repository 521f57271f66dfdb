/* SPDX-License-Identifier: BSD-2-Clause */
/* Raw samples: the per-CPU ring the handler appends whole samples to (pc, event, the
 * interrupted registers), and the drain side's RAW_SAMPLES frames (transport/wire.h).
 *
 * The ring has one writer (the handler on its CPU) and one reader (the drain side): the
 * handler writes slot head % cap and publishes it with a release store of head + 1; the
 * drain side reads head with an acquire load, sends the records from tail, and hands their
 * slots back with a release store of the new tail. A full ring (head - tail == cap) drops
 * the new sample and counts it in lost_full, so neither side waits for the other.
 *
 * For a host that stops the machine and reads memory (bmprof_desc.h): in_record is set
 * while a record is appended, and `sending` names the records of the frame being written
 * (the first `sending` from tail, numbered frames - 1), so at any other instruction
 * taken = delivered + lost_full + lost_transport + (head - tail). */
#include "core.h"
#include "wire.h"

#define RAW_ENTRIES_MAX (1u << 20)
/* A record's worst case: event, flags, valid, pc, data address and every register */
#define RECORD_MAX (1 + 3 * BMPROF_VARINT_MAX + (1 + BMPROF_RAW_REGS) * BMPROF_VARINT_MAX)

size_t bmprof_raw_mem_size(uint32_t entries)
{
	if (entries < 1 || entries > RAW_ENTRIES_MAX)
		return 0;
	return (size_t)entries * sizeof(struct bmprof_raw);
}

int bmprof_raw_init(struct bmprof_cpu *c, void *mem, size_t len, uint32_t entries,
		    uint8_t arch, uint8_t nregs)
{
	size_t need = bmprof_raw_mem_size(entries);

	if (!need || !mem || len < need || ((uintptr_t)mem & 7) || nregs < 1 ||
	    nregs > BMPROF_RAW_REGS)
		return -1;
	c->raw = (struct bmprof_raw_ring){ .slot = mem, .cap = entries, .arch = arch,
					   .nregs = nregs };
	return 0;
}

void bmprof_record_raw(struct bmprof_cpu *c, const struct bmprof_raw *s)
{
	struct bmprof_raw_ring *q = &c->raw;
	uint32_t h = q->head;

	if (!q->cap)
		return;
	c->in_record = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	q->taken++;
	if (h - __atomic_load_n(&q->tail, __ATOMIC_ACQUIRE) >= q->cap) {
		q->lost_full++;
	} else {
		q->slot[h % q->cap] = *s;
		__atomic_store_n(&q->head, h + 1, __ATOMIC_RELEASE);
	}
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	c->in_record = 0;
}

static unsigned put_raw(uint8_t *p, const struct bmprof_raw *s, unsigned nregs)
{
	return bmprof_put_raw_record(p, s->event, s->flags, s->valid, s->pc, s->data_addr, s->r,
				     nregs);
}

static void raw_frame(struct bmprof_cpu *c, const struct bmprof_out *out, uint8_t *buf,
		      unsigned len, uint32_t n)
{
	struct bmprof_raw_ring *q = &c->raw;

	bmprof_put16(buf, c->cpu_id);
	bmprof_put16(buf + 2, (uint16_t)n);
	bmprof_put32(buf + 4, q->frames);
	buf[8] = q->arch;
	buf[9] = q->nregs;
	bmprof_put16(buf + 10, 0);
	q->sending = (uint16_t)n;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	q->frames++;
	if (bmprof_emit_idle(c, out, BMPROF_FRAME_RAW_SAMPLES, buf, (uint16_t)len) == 0)
		q->delivered += n;
	else
		q->lost_transport += n;
	__atomic_store_n(&q->tail, q->tail + n, __ATOMIC_RELEASE);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	q->sending = 0;
}

/* Every record in the ring when this starts (later ones wait for the next call). in_drain
 * set on entry and on return. */
void bmprof_send_raw(struct bmprof_cpu *c, const struct bmprof_out *out)
{
	struct bmprof_raw_ring *q = &c->raw;
	uint8_t buf[BMPROF_SAMPLES_PAYLOAD];
	uint8_t one[RECORD_MAX];
	uint32_t head, t, n = 0;
	unsigned len = BMPROF_RAW_FIXED;

	if (!q->cap)
		return;
	head = __atomic_load_n(&q->head, __ATOMIC_ACQUIRE);
	for (t = q->tail; t != head; t++) {
		unsigned k = put_raw(one, &q->slot[t % q->cap], q->nregs);
		if (len + k > sizeof buf) {
			raw_frame(c, out, buf, len, n);
			len = BMPROF_RAW_FIXED;
			n = 0;
		}
		for (unsigned j = 0; j < k; j++)
			buf[len + j] = one[j];
		len += k;
		n++;
	}
	if (n)
		raw_frame(c, out, buf, len, n);
}
