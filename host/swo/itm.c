/* SPDX-License-Identifier: BSD-2-Clause */
/* The ITM/SWO packet decoder (itm.h). */
#include <string.h>
#include "itm.h"

enum { S_HDR, S_ZEROS, S_INST, S_HW, S_LTS, S_GTS1, S_GTS2, S_EXT };

#define SYNC_ZEROS 5     /* zero bytes before the 0x80 that ends a synchronization packet */

void itm_init(struct itm_decoder *d, unsigned port,
	      void (*out)(void *ctx, const uint8_t *data, size_t len), void *ctx)
{
	memset(d, 0, sizeof *d);
	d->port = port;
	d->out = out;
	d->ctx = ctx;
}

static void flush(struct itm_decoder *d)
{
	if (d->nbuf && d->out)
		d->out(d->ctx, d->buf, d->nbuf);
	d->nbuf = 0;
}

static void deliver(struct itm_decoder *d, unsigned port, const uint8_t *p, unsigned n)
{
	d->st.port_bytes[port] += n;
	if (port != d->port) {
		d->st.other_bytes += n;
		return;
	}
	d->st.delivered += n;
	for (unsigned i = 0; i < n; i++) {
		if (d->nbuf == sizeof d->buf)
			flush(d);
		d->buf[d->nbuf++] = p[i];
	}
}

/* A broken packet: its bytes so far are skipped. */
static void error(struct itm_decoder *d, uint64_t bytes)
{
	d->st.errors++;
	d->st.skipped += bytes;
	d->state = S_HDR;
}

/* Continuation-coded packets: at most this many bytes after the header. */
static unsigned cont_max(uint8_t state)
{
	switch (state) {
	case S_LTS: return 4;
	case S_GTS1: return 4;
	case S_GTS2: return 6;
	default: return 4;   /* extension: up to 32 bits of payload */
	}
}

static void header(struct itm_decoder *d, uint8_t c)
{
	static const uint8_t size[4] = { 0, 1, 2, 4 };

	d->hdr = c;
	d->have = 0;
	if (c & 3) {
		d->need = size[c & 3];
		d->state = (c & 4) ? S_HW : S_INST;
		return;
	}
	if (c == 0x00) {
		d->zeros = 1;
		d->state = S_ZEROS;
	} else if (c == 0x70) {
		d->st.overflows++;
	} else if ((c & 0x0F) == 0 && !(c & 0x80)) {
		d->st.local_ts++;            /* format 2: ttt 1..6, nothing follows */
	} else if ((c & 0xCF) == 0xC0) {
		d->st.local_ts++;            /* format 1: 1..4 bytes follow */
		d->state = S_LTS;
	} else if (c == 0x94) {
		d->st.global_ts++;
		d->state = S_GTS1;
	} else if (c == 0xB4) {
		d->st.global_ts++;
		d->state = S_GTS2;
	} else if (c & 0x08) {
		d->st.extensions++;
		if (c & 0x80)
			d->state = S_EXT;
		else if (!(c & 0x04))
			d->page = c >> 4 & 7;  /* stimulus port page */
	} else {
		error(d, 1);
	}
}

static void byte(struct itm_decoder *d, uint8_t c)
{
	switch (d->state) {
	case S_HDR:
		header(d, c);
		return;
	case S_ZEROS:
		if (c == 0x00) {
			d->zeros++;
		} else if (c == 0x80 && d->zeros >= SYNC_ZEROS) {
			d->st.syncs++;
			d->page = 0;
			d->state = S_HDR;
		} else {
			error(d, d->zeros);
			header(d, c);
		}
		return;
	case S_INST:
	case S_HW:
		d->payload[d->have++] = c;
		if (d->have < d->need)
			return;
		if (d->state == S_INST)
			deliver(d, (unsigned)(d->page * 32 + (d->hdr >> 3)), d->payload, d->need);
		else
			d->st.hw_packets++;
		d->state = S_HDR;
		return;
	default:
		d->have++;
		if (!(c & 0x80)) {
			d->state = S_HDR;
		} else if (d->have >= cont_max(d->state)) {
			error(d, 1u + d->have);
		}
		return;
	}
}

void itm_push(struct itm_decoder *d, const void *data, size_t len)
{
	const uint8_t *p = data;

	d->st.bytes += len;
	for (size_t i = 0; i < len; i++)
		byte(d, p[i]);
	flush(d);
}

void itm_finish(struct itm_decoder *d)
{
	switch (d->state) {
	case S_HDR:
		break;
	case S_ZEROS:
		/* zeros at the end: padding or a synchronization packet cut short */
		break;
	default:
		d->st.truncated = 1;
		d->st.skipped += 1u + d->have;
		break;
	}
	d->state = S_HDR;
	flush(d);
}
