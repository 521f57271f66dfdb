/* SPDX-License-Identifier: BSD-2-Clause */
/* Aggregated entries to SAMPLES frames (transport/wire.h): u16 cpu, u16 n, u32 seq, then
 * per entry the varints event_id + (phase << 16), zigzag(pc - prev_pc), count, with prev_pc = 0 at the start
 * of each frame so every frame decodes on its own.
 *
 * Each frame's entries, sequence number and samples are noted in c->xfer before it is
 * written, and in_drain is clear only while out->write runs, so a host that stops the
 * machine at any instruction knows which entries were counted and which frame was on its
 * way (bmprof_desc.h, docs/wire-format.md "Recovery"). */
#include "core.h"
#include "wire.h"

#define ENTRY_MAX (4 * BMPROF_VARINT_MAX)
#define CHAIN_MAX (2 + BMPROF_STACK_DEPTH_MAX * BMPROF_VARINT_MAX)
#define STACKS_PAYLOAD BMPROF_SAMPLES_PAYLOAD   /* holds one chain of the longest */

static unsigned encode_entry(uint8_t *p, const struct bmprof_entry *e, uint64_t prev_pc,
			     int stacks)
{
	unsigned n = bmprof_put_varint(p, bmprof_key_wire_event(e->event));
	n += bmprof_put_varint(p + n, bmprof_zigzag((int64_t)(e->pc - prev_pc)));
	n += bmprof_put_varint(p + n, e->count);
	if (stacks)
		n += bmprof_put_varint(p + n, e->stack);
	return n;
}

static unsigned encode_chain(uint8_t *p, const struct bmprof_stacks *s, uint32_t id)
{
	const struct bmprof_stack_def *d = &s->def[id - 1];
	const uint64_t *f = s->frames + d->off;
	uint64_t prev = 0;
	unsigned n = 2;

	p[0] = d->flags;
	p[1] = d->depth;
	for (unsigned i = 0; i < d->depth; i++) {
		n += bmprof_put_varint(p + n, bmprof_zigzag((int64_t)(f[i] - prev)));
		prev = f[i];
	}
	return n;
}

static void stacks_frame(struct bmprof_cpu *c, const struct bmprof_out *out, uint8_t *buf,
			 unsigned len, uint32_t first, uint32_t n)
{
	bmprof_put16(buf, c->cpu_id);
	bmprof_put16(buf + 2, (uint16_t)n);
	bmprof_put16(buf + 4, (uint16_t)first);
	bmprof_put16(buf + 6, 0);
	bmprof_emit_idle(c, out, BMPROF_FRAME_STACKS, buf, (uint16_t)len);
}

/* The chains defined since the last call, before any entry that may name them: an entry
 * is written after its chain is published, so every id it holds is below n. A STACKS frame
 * the transport refuses leaves its ids unknown to the host, which counts their samples as
 * having no known chain. */
static void send_new_stacks(struct bmprof_cpu *c, const struct bmprof_out *out)
{
	struct bmprof_stacks *s = &c->stacks;
	uint32_t n = __atomic_load_n(&s->n, __ATOMIC_ACQUIRE), first = s->sent + 1, count = 0;
	uint8_t buf[STACKS_PAYLOAD];
	unsigned len = BMPROF_STACKS_FIXED;

	for (uint32_t id = s->sent + 1; id <= n; id++) {
		if (len + CHAIN_MAX > sizeof buf) {
			stacks_frame(c, out, buf, len, first, count);
			len = BMPROF_STACKS_FIXED;
			first = id;
			count = 0;
		}
		len += encode_chain(buf + len, s, id);
		count++;
	}
	if (count)
		stacks_frame(c, out, buf, len, first, count);
	s->sent = n;
}

int bmprof_emit_idle(struct bmprof_cpu *c, const struct bmprof_out *out, uint8_t type,
		     const void *payload, uint16_t len)
{
	int r;

	bmprof_drain_mark(c, 0);
	r = bmprof_emit_frame(out, type, payload, len);
	bmprof_drain_mark(c, 1);
	return r;
}

/* Entries [c->xfer.done, end): every frame consumes a sequence number, so the host sees a
 * gap where one was lost. */
static void send_frame(struct bmprof_cpu *c, const struct bmprof_out *out, uint8_t *buf,
		       unsigned len, unsigned n, uint64_t samples, uint32_t end)
{
	bmprof_put16(buf, c->cpu_id);
	bmprof_put16(buf + 2, (uint16_t)n);
	bmprof_put32(buf + 4, c->frames);
	c->xfer.end = end;
	c->xfer.seq = c->frames;
	c->xfer.samples = samples;
	c->frames++;
	if (bmprof_emit_idle(c, out, c->stacks.depth ? BMPROF_FRAME_STACK_SAMPLES :
				 BMPROF_FRAME_SAMPLES, buf, (uint16_t)len) == 0)
		c->delivered += samples;
	else
		c->lost_transport += samples;
	c->xfer.done = end;
}

void bmprof_send_entries(struct bmprof_cpu *c, const struct bmprof_out *out,
			 const struct bmprof_entry *e, uint32_t n, uint32_t src)
{
	uint8_t buf[BMPROF_SAMPLES_PAYLOAD];
	uint8_t one[ENTRY_MAX];
	unsigned len = BMPROF_SAMPLES_FIXED, count = 0;
	uint64_t samples = 0, prev = 0;
	int stacks = c->stacks.depth != 0;

	if (stacks)
		send_new_stacks(c, out);
	c->xfer.n = n;
	c->xfer.done = 0;
	c->xfer.src = src;
	for (uint32_t i = 0; i < n; i++) {
		if (e[i].count == 0)
			continue;
		unsigned k = encode_entry(one, &e[i], prev, stacks);
		if (len + k > BMPROF_SAMPLES_PAYLOAD) {
			send_frame(c, out, buf, len, count, samples, i);
			len = BMPROF_SAMPLES_FIXED;
			count = 0;
			samples = 0;
			k = encode_entry(one, &e[i], 0, stacks);
		}
		for (unsigned j = 0; j < k; j++)
			buf[len + j] = one[j];
		len += k;
		count++;
		samples += e[i].count;
		prev = e[i].pc;
	}
	if (count)
		send_frame(c, out, buf, len, count, samples, n);
}
