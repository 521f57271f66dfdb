/* SPDX-License-Identifier: BSD-2-Clause */
/* The drain side: full overflow buffers to the transport (bmprof_drain), everything so far
 * with sampling running (bmprof_flush_delta, the periodic flush), and everything at the
 * end of a run (bmprof_flush). Never runs in the interrupt path.
 *
 * For a host that stops the machine and reads memory (bmprof_desc.h), in_drain is set from
 * begin() to end() except while a frame is written, and c->xfer says which entries are
 * being sent: at any instruction where in_drain is clear, every sample taken is counted
 * once, in delivered or lost, in the table, in a buffer, or in the frame xfer describes. */
#include "core.h"
#include "wire.h"

/* One drain or flush at a time per CPU, even if out->write itself polls bmprof_drain. */
static int begin(struct bmprof_cpu *c)
{
	if (__atomic_exchange_n(&c->draining, 1, __ATOMIC_ACQUIRE) != 0)
		return 0;
	bmprof_drain_mark(c, 1);
	return 1;
}

static void end(struct bmprof_cpu *c)
{
	bmprof_drain_mark(c, 0);
	__atomic_store_n(&c->draining, 0, __ATOMIC_RELEASE);
}

/* The buffer is FULL, so it is ours until the release store hands it back. */
static void send_buffer(struct bmprof_cpu *c, const struct bmprof_out *out, struct bmprof_ovf *o)
{
	uint32_t n = o->fill;

	bmprof_sort_entries(o->slot, n);
	bmprof_send_entries(c, out, o->slot, n,
			    o == &c->ovf[0] ? BMPROF_XFER_OVF0 : BMPROF_XFER_OVF1);
	o->fill = 0;
	__atomic_store_n(&o->state, BMPROF_OVF_EMPTY, __ATOMIC_RELEASE);
	c->xfer.src = BMPROF_XFER_NONE;
}

static void send_full(struct bmprof_cpu *c, const struct bmprof_out *out)
{
	for (int i = 0; i < 2; i++)
		if (__atomic_load_n(&c->ovf[i].state, __ATOMIC_ACQUIRE) == BMPROF_OVF_FULL)
			send_buffer(c, out, &c->ovf[i]);
}

/* Hand the FILLING buffer to the drain side (one store: the handler, which may interrupt
 * this on the same CPU, then claims the other one), if it holds anything or, with
 * sampling stopped (final), always: the handler claims an EMPTY one when it starts again. */
static void retire_filling(struct bmprof_cpu *c, int final)
{
	for (int i = 0; i < 2; i++) {
		struct bmprof_ovf *o = &c->ovf[i];
		if (o->state == BMPROF_OVF_FILLING && (o->fill || final))
			__atomic_store_n(&o->state, BMPROF_OVF_FULL, __ATOMIC_RELEASE);
	}
}

/* Move the used entries to the front (freeing their slots), sort and send them, then free
 * the front: the table ends empty. The handler must not touch the table meanwhile (sampling
 * stopped, or c->flushing set on this CPU). */
static void send_table(struct bmprof_cpu *c, const struct bmprof_out *out)
{
	struct bmprof_entry *t = bmprof_table_entries(c);
	uint64_t size = bmprof_table_size(c);
	uint32_t used = 0;

	for (uint64_t i = 0; i < size; i++) {
		if (t[i].count == 0)
			continue;
		struct bmprof_entry e = t[i];
		t[i] = (struct bmprof_entry){ 0 };
		t[used++] = e;
	}
	bmprof_sort_entries(t, used);
	bmprof_send_entries(c, out, t, used, BMPROF_XFER_TABLE);
	for (uint32_t i = 0; i < used; i++)
		t[i] = (struct bmprof_entry){ 0 };
	c->xfer.src = BMPROF_XFER_NONE;
	c->rr = 0;
}

static void send_totals(struct bmprof_cpu *c, const struct bmprof_out *out)
{
	uint8_t p[BMPROF_TOTALS_FIXED + 8 * BMPROF_TOTAL_NFIELDS];
	uint64_t v[BMPROF_TOTAL_NFIELDS];

	v[BMPROF_TOTAL_TAKEN] = c->taken;
	v[BMPROF_TOTAL_HITS] = c->hits;
	v[BMPROF_TOTAL_MISSES] = c->misses;
	v[BMPROF_TOTAL_EVICTIONS] = c->evictions;
	v[BMPROF_TOTAL_DELIVERED] = c->delivered;
	v[BMPROF_TOTAL_LOST_FULL] = c->lost_full;
	v[BMPROF_TOTAL_LOST_TRANSPORT] = c->lost_transport;
	v[BMPROF_TOTAL_FRAMES] = c->frames;
	v[BMPROF_TOTAL_SAMPLED_TICKS] = c->sampled_ticks;
	v[BMPROF_TOTAL_ENABLED_TICKS] = c->enabled_ticks;
	v[BMPROF_TOTAL_STACK_FULL] = c->stacks.full;
	v[BMPROF_TOTAL_STACKS] = c->stacks.n;
	v[BMPROF_TOTAL_RAW_TAKEN] = c->raw.taken;
	v[BMPROF_TOTAL_RAW_DELIVERED] = c->raw.delivered;
	v[BMPROF_TOTAL_RAW_LOST_FULL] = c->raw.lost_full;
	v[BMPROF_TOTAL_RAW_LOST_TRANSPORT] = c->raw.lost_transport;
	v[BMPROF_TOTAL_RAW_FRAMES] = c->raw.frames;
	bmprof_put16(p, c->cpu_id);
	bmprof_put16(p + 2, BMPROF_TOTAL_NFIELDS);
	for (unsigned i = 0; i < BMPROF_TOTAL_NFIELDS; i++)
		bmprof_put64(p + BMPROF_TOTALS_FIXED + 8 * i, v[i]);
	bmprof_emit_idle(c, out, BMPROF_FRAME_TOTALS, p, sizeof p);
}

static void set_flushing(struct bmprof_cpu *c, uint32_t v)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	c->flushing = v;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

void bmprof_drain(struct bmprof_cpu *c, const struct bmprof_out *out)
{
	if (!begin(c))
		return;
	send_full(c, out);
	if (bmprof_raw_due(c))
		bmprof_send_raw(c, out);
	end(c);
}

/* Full buffers first, so the handler has an empty one to write to while the table is
 * sent; the filling one last, once the handler is back on the table. */
void bmprof_flush_delta(struct bmprof_cpu *c, const struct bmprof_out *out)
{
	if (!begin(c))
		return;
	send_full(c, out);
	set_flushing(c, 1);
	send_table(c, out);
	set_flushing(c, 0);
	retire_filling(c, 0);
	send_full(c, out);
	bmprof_send_raw(c, out);
	c->flushes++;
	end(c);
}

void bmprof_set_flush_interval(struct bmprof_cpu *c, uint64_t every, uint64_t now)
{
	c->flush_every = every;
	c->flush_next = now + every;
}

void bmprof_service(struct bmprof_cpu *c, const struct bmprof_out *out, uint64_t now)
{
	if (bmprof_flush_due(c, now)) {
		c->flush_next = now + c->flush_every;
		bmprof_flush_delta(c, out);
	} else {
		bmprof_drain(c, out);
	}
}

void bmprof_flush(struct bmprof_cpu *c, const struct bmprof_out *out)
{
	if (!begin(c))
		return;
	/* a sample that still arrives goes to an overflow buffer, never to the table being read */
	set_flushing(c, 1);
	send_full(c, out);
	retire_filling(c, 1);
	send_full(c, out);
	send_table(c, out);
	send_full(c, out);
	retire_filling(c, 1);
	send_full(c, out);
	bmprof_send_raw(c, out);
	send_totals(c, out);
	set_flushing(c, 0);
	end(c);
}
