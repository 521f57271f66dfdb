/* The drain side: full overflow buffers to the transport (bmprof_drain), and everything at
 * the end of a run (bmprof_flush). Never runs in the interrupt path. */
#include "core.h"
#include "wire.h"

/* One drain or flush at a time per CPU, even if out->write itself polls bmprof_drain. */
static int begin(struct bmprof_cpu *c)
{
	return __atomic_exchange_n(&c->draining, 1, __ATOMIC_ACQUIRE) == 0;
}

static void end(struct bmprof_cpu *c)
{
	__atomic_store_n(&c->draining, 0, __ATOMIC_RELEASE);
}

/* The buffer is FULL, so it is ours until the release store hands it back. */
static void send_buffer(struct bmprof_cpu *c, const struct bmprof_out *out, struct bmprof_ovf *o)
{
	uint32_t n = o->fill;
	bmprof_sort_entries(o->slot, n);
	bmprof_send_entries(c, out, o->slot, n);
	o->fill = 0;
	__atomic_store_n(&o->state, BMPROF_OVF_EMPTY, __ATOMIC_RELEASE);
}

static void send_full(struct bmprof_cpu *c, const struct bmprof_out *out)
{
	for (int i = 0; i < 2; i++)
		if (__atomic_load_n(&c->ovf[i].state, __ATOMIC_ACQUIRE) == BMPROF_OVF_FULL)
			send_buffer(c, out, &c->ovf[i]);
}

/* Sampling is stopped, so the FILLING buffer can be taken as if it were full; the handler
 * claims an EMPTY one when sampling starts again. */
static void send_filling(struct bmprof_cpu *c, const struct bmprof_out *out)
{
	for (int i = 0; i < 2; i++) {
		struct bmprof_ovf *o = &c->ovf[i];
		if (o->state == BMPROF_OVF_FILLING) {
			o->state = BMPROF_OVF_FULL;
			send_buffer(c, out, o);
		}
	}
}

/* Move the used entries to the front (freeing their slots), sort and send them, then free
 * the front: the table ends empty. */
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
	bmprof_send_entries(c, out, t, used);
	for (uint32_t i = 0; i < used; i++)
		t[i] = (struct bmprof_entry){ 0 };
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
	bmprof_put16(p, c->cpu_id);
	bmprof_put16(p + 2, BMPROF_TOTAL_NFIELDS);
	for (unsigned i = 0; i < BMPROF_TOTAL_NFIELDS; i++)
		bmprof_put64(p + BMPROF_TOTALS_FIXED + 8 * i, v[i]);
	bmprof_emit_frame(out, BMPROF_FRAME_TOTALS, p, sizeof p);
}

void bmprof_drain(struct bmprof_cpu *c, const struct bmprof_out *out)
{
	if (!begin(c))
		return;
	send_full(c, out);
	end(c);
}

void bmprof_flush(struct bmprof_cpu *c, const struct bmprof_out *out)
{
	if (!begin(c))
		return;
	/* a sample that still arrives goes to an overflow buffer, never to the table being read */
	c->flushing = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	send_full(c, out);
	send_filling(c, out);
	send_table(c, out);
	send_full(c, out);
	send_filling(c, out);
	send_totals(c, out);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	c->flushing = 0;
	end(c);
}
