/* SPDX-License-Identifier: BSD-2-Clause */
/* Target side of the wire format: build a frame (transport/wire.h) and hand it to the
 * integrator's sink, plus the HELLO, EVENT, END and COUNTS payloads. Freestanding. */
#include "bmprof.h"
#include "wire.h"

/* Payloads up to this size go out in one write() from a stack buffer; larger ones as
 * header, payload and CRC in three writes. */
#define ONE_WRITE_MAX 1024u

static void copy(uint8_t *d, const uint8_t *s, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		d[i] = s[i];
}

int bmprof_emit_frame(const struct bmprof_out *out, uint8_t type, const void *payload, uint16_t len)
{
	if (!out || !out->write || (len && !payload))
		return -1;
	uint8_t hdr[BMPROF_FRAME_HDR], tail[BMPROF_FRAME_CRC];
	hdr[0] = BMPROF_MAGIC0;
	hdr[1] = BMPROF_MAGIC1;
	hdr[2] = BMPROF_MAGIC2;
	hdr[3] = BMPROF_MAGIC3;
	hdr[4] = type;
	hdr[5] = 0;
	bmprof_put16(hdr + 6, len);
	uint32_t crc = bmprof_crc32(0, hdr + 4, BMPROF_FRAME_HDR - 4);
	bmprof_put32(tail, bmprof_crc32(crc, payload, len));

	if (len <= ONE_WRITE_MAX) {
		uint8_t f[BMPROF_FRAME_HDR + ONE_WRITE_MAX + BMPROF_FRAME_CRC];
		copy(f, hdr, BMPROF_FRAME_HDR);
		copy(f + BMPROF_FRAME_HDR, payload, len);
		copy(f + BMPROF_FRAME_HDR + len, tail, BMPROF_FRAME_CRC);
		return out->write(out->ctx, f, BMPROF_FRAME_HDR + len + BMPROF_FRAME_CRC);
	}
	int r = out->write(out->ctx, hdr, BMPROF_FRAME_HDR);
	if (r == 0)
		r = out->write(out->ctx, payload, len);
	if (r == 0)
		r = out->write(out->ctx, tail, BMPROF_FRAME_CRC);
	return r;
}

/* -1 (nothing written) if build_id_len is over BMPROF_BUILD_ID_MAX. */
int bmprof_emit_hello(const struct bmprof_out *out, const struct bmprof_hello *h)
{
	if (!h)
		return -1;
	uint8_t p[BMPROF_HELLO_FIXED + BMPROF_BUILD_ID_MAX + BMPROF_HELLO_CORE_HZ] = { 0 };
	unsigned idlen = h->build_id ? h->build_id_len : 0;
	if (idlen > BMPROF_BUILD_ID_MAX)
		return -1;
	bmprof_put16(p, BMPROF_WIRE_VERSION);
	p[2] = h->arch;
	p[3] = h->source;
	bmprof_put16(p + 4, h->ncpus);
	bmprof_put64(p + 8, h->timebase_hz);
	bmprof_put64(p + 16, h->load_bias);
	for (unsigned i = 0; i < sizeof h->vendor && h->vendor[i]; i++)
		p[24 + i] = (uint8_t)h->vendor[i];
	bmprof_put32(p + 40, h->family);
	bmprof_put32(p + 44, h->model);
	bmprof_put32(p + 48, h->stepping);
	bmprof_put32(p + 52, h->signature);
	p[56] = (uint8_t)idlen;
	copy(p + BMPROF_HELLO_FIXED, h->build_id, idlen);
	bmprof_put64(p + BMPROF_HELLO_FIXED + idlen, h->core_hz);
	return bmprof_emit_frame(out, BMPROF_FRAME_HELLO, p,
				 (uint16_t)(BMPROF_HELLO_FIXED + idlen + BMPROF_HELLO_CORE_HZ));
}

/* The name is cut at 255 bytes (its length is a u8). */
int bmprof_emit_event(const struct bmprof_out *out, const struct bmprof_event_desc *e)
{
	if (!e)
		return -1;
	uint8_t p[BMPROF_EVENT_FIXED + 1 + 255 + 7];
	unsigned n = 0;
	while (e->name && n < 255 && e->name[n])
		n++;
	bmprof_put16(p, e->id);
	p[2] = e->source;
	p[3] = e->flags;
	bmprof_put64(p + 4, e->encoding);
	bmprof_put64(p + 12, e->period);
	bmprof_put64(p + 20, e->jitter);
	p[28] = (uint8_t)n;
	copy(p + BMPROF_EVENT_FIXED + 1, (const uint8_t *)e->name, n);
	uint8_t *t = p + BMPROF_EVENT_FIXED + 1 + n;
	int on_counter = e->counter_kind == BMPROF_CTR_GP || e->counter_kind == BMPROF_CTR_FIXED;
	t[0] = e->status;
	t[1] = e->reason;
	t[2] = e->counter_kind;
	t[3] = on_counter ? e->counter : 0xff;
	t[4] = e->ngroups > 1 ? e->group : 0xff;
	t[5] = e->ngroups > 1 ? e->ngroups : 1;
	t[6] = e->precise;
	return bmprof_emit_frame(out, BMPROF_FRAME_EVENT, p, (uint16_t)(t + 7 - p));
}

int bmprof_emit_end(const struct bmprof_out *out, const struct bmprof_end *e)
{
	if (!e)
		return -1;
	uint8_t p[BMPROF_END_FIXED] = { 0 };
	bmprof_put32(p, (uint32_t)e->exit_code);
	p[4] = e->reason;
	bmprof_put64(p + 8, e->fault_pc);
	bmprof_put32(p + 16, e->vector);
	bmprof_put64(p + 24, e->fault_addr);
	return bmprof_emit_frame(out, BMPROF_FRAME_END, p, BMPROF_END_FIXED);
}

int bmprof_emit_phase(const struct bmprof_out *out, uint16_t id, uint64_t at, const char *name)
{
	uint8_t p[BMPROF_PHASE_FIXED + BMPROF_PHASE_NAME_MAX];
	unsigned n = 0;
	while (name && n < BMPROF_PHASE_NAME_MAX && name[n])
		n++;
	bmprof_put16(p, id);
	p[2] = (uint8_t)n;
	p[3] = 0;
	bmprof_put64(p + 4, at);
	copy(p + BMPROF_PHASE_FIXED, (const uint8_t *)name, n);
	return bmprof_emit_frame(out, BMPROF_FRAME_PHASE, p, (uint16_t)(BMPROF_PHASE_FIXED + n));
}

#define COUNTS_PER_FRAME ((ONE_WRITE_MAX - BMPROF_COUNTS_FIXED) / BMPROF_COUNTS_RECORD)

int bmprof_emit_counts(const struct bmprof_out *out, uint16_t cpu, const struct bmprof_count *r,
		       unsigned n)
{
	uint8_t p[BMPROF_COUNTS_FIXED + COUNTS_PER_FRAME * BMPROF_COUNTS_RECORD];
	unsigned done = 0;

	if (n && !r)
		return -1;
	do {
		unsigned k = n - done < COUNTS_PER_FRAME ? n - done : COUNTS_PER_FRAME;
		bmprof_put16(p, cpu);
		bmprof_put16(p + 2, (uint16_t)k);
		for (unsigned i = 0; i < k; i++) {
			const struct bmprof_count *c = &r[done + i];
			uint8_t *q = p + BMPROF_COUNTS_FIXED + i * BMPROF_COUNTS_RECORD;
			bmprof_put16(q, c->event);
			bmprof_put16(q + 2, c->flags);
			bmprof_put32(q + 4, 0);
			bmprof_put64(q + 8, c->value);
			bmprof_put64(q + 16, c->enabled);
			bmprof_put64(q + 24, c->running);
		}
		int rc = bmprof_emit_frame(out, BMPROF_FRAME_COUNTS, p,
					   (uint16_t)(BMPROF_COUNTS_FIXED + k * BMPROF_COUNTS_RECORD));
		if (rc)
			return rc;
		done += k;
	} while (done < n);
	return 0;
}
