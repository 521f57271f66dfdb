/* SPDX-License-Identifier: BSD-2-Clause */
/* The raw samples of a run that never ended (recover.h): each CPU's raw ring read from the
 * target's memory (descriptor version 3), its records not yet sent turned into the
 * RAW_SAMPLES frames its final flush would have sent, and its raw counters into TOTALS.
 * Everything read is checked: a ring whose bounds or counts do not add up is not read,
 * its records are counted lost, and the CPU is flagged. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/recover.h"
#include "run/recover_internal.h"
#include "wire.h"

#define FRAME_PAYLOAD 4096u      /* RAW_SAMPLES payload the host builds */
#define RECORD_MAX (1 + (3 + 1 + BMPROF_RAW_REGS_MAX) * BMPROF_VARINT_MAX)
#define RAWREC_MAX 4096u         /* bytes of one record believed */

static void flag(struct recover_cpu *c, const char *what)
{
	if (!c->problem[0])
		snprintf(c->problem, sizeof c->problem, "%s", what);
}

/* The counts the ring's state gives: its records, and whether they add up. */
static int ring_adds_up(const struct recover_cpu *c)
{
	uint32_t pending = c->raw_head - c->raw_tail;
	uint64_t lost = c->raw_lost_full + c->raw_lost_transport;

	return pending <= c->raw_cap && c->raw_sending <= pending &&
	       c->raw_delivered <= c->raw_taken && lost <= c->raw_taken - c->raw_delivered &&
	       c->raw_taken - c->raw_delivered - lost == pending &&
	       (!c->raw_sending || c->raw_frames);
}

int recover_parse_raw(struct recover *r, struct recover_cpu *c, unsigned idx, const uint8_t *b,
		      char *err, size_t errlen)
{
	uint64_t cap = recover_get(r, b, BMPROF_DF_RAW_CAP);
	uint64_t nregs = recover_get(r, b, BMPROF_DF_RAW_NREGS);
	uint32_t roff = r->field[BMPROF_DF_RAWREC_R] & 0xffff;

	if (r->version < 3 || !cap)
		return 0;
	if (cap > RECOVER_MAX_RAW || r->rawrec_size > RAWREC_MAX) {
		snprintf(err, errlen, "cpu %u: the recovery descriptor gives it a raw ring of %"
			 PRIu64 " records of %" PRIu32 " bytes, more than bmprof reads back", idx, cap,
			 r->rawrec_size);
		return -1;
	}
	c->raw_cap = (uint32_t)cap;
	c->raw_slot = recover_get(r, b, BMPROF_DF_RAW_SLOT);
	c->raw_arch = (uint8_t)recover_get(r, b, BMPROF_DF_RAW_ARCH);
	c->raw_nregs = (uint8_t)nregs;
	c->raw_head = (uint32_t)recover_get(r, b, BMPROF_DF_RAW_HEAD);
	c->raw_tail = (uint32_t)recover_get(r, b, BMPROF_DF_RAW_TAIL);
	c->raw_sending = (uint32_t)recover_get(r, b, BMPROF_DF_RAW_SENDING);
	c->raw_frames = (uint32_t)recover_get(r, b, BMPROF_DF_RAW_FRAMES);
	c->raw_taken = recover_get(r, b, BMPROF_DF_RAW_TAKEN);
	c->raw_delivered = recover_get(r, b, BMPROF_DF_RAW_DELIVERED);
	c->raw_lost_full = recover_get(r, b, BMPROF_DF_RAW_LOST_FULL);
	c->raw_lost_transport = recover_get(r, b, BMPROF_DF_RAW_LOST_TRANSPORT);
	if (nregs < 1 || nregs > BMPROF_RAW_REGS_MAX ||
	    roff + 8ull * nregs > r->rawrec_size) {
		flag(c, "its raw ring's registers do not fit its records");
		return 0;
	}
	if (c->raw_arch != BMPROF_ARCH_X86_64 && c->raw_arch != BMPROF_ARCH_AARCH64 &&
	    c->raw_arch != BMPROF_ARCH_RISCV64) {
		flag(c, "its raw ring names no architecture bmprof knows");
		return 0;
	}
	if (!ring_adds_up(c)) {
		char why[200];

		snprintf(why, sizeof why, "its raw ring does not add up (taken %" PRIu64 ", delivered %"
			 PRIu64 ", lost %" PRIu64 ", records %" PRIu32 " to %" PRIu32 " of %" PRIu32
			 ")", c->raw_taken, c->raw_delivered, c->raw_lost_full + c->raw_lost_transport,
			 c->raw_tail, c->raw_head, c->raw_cap);
		flag(c, why);
		return 0;
	}
	if (c->raw_head != c->raw_tail && !c->raw_slot) {
		flag(c, "its raw ring holds records at address 0");
		return 0;
	}
	c->raw_ok = 1;
	return 0;
}

static void parse_record(const struct recover *r, const struct recover_cpu *c, const uint8_t *b,
			 struct recover_raw *out)
{
	unsigned roff = r->field[BMPROF_DF_RAWREC_R] & 0xffff;

	memset(out, 0, sizeof *out);
	out->pc = recover_get(r, b, BMPROF_DF_RAWREC_PC);
	out->data_addr = recover_get(r, b, BMPROF_DF_RAWREC_DATA_ADDR);
	out->valid = (uint32_t)recover_get(r, b, BMPROF_DF_RAWREC_VALID);
	out->event = (uint16_t)recover_get(r, b, BMPROF_DF_RAWREC_EVENT);
	out->flags = (uint8_t)recover_get(r, b, BMPROF_DF_RAWREC_FLAGS);
	for (unsigned i = 0; i < c->raw_nregs; i++)
		out->r[i] = recover_le(b + roff + 8 * i, 8);
}

int recover_read_raw(struct recover *r, const struct recover_mem *m, struct recover_cpu *c,
		     char *err, size_t errlen)
{
	uint32_t n = c->raw_head - c->raw_tail, per;
	uint8_t *buf;
	int rc = -1;

	if (!c->raw_ok || !n)
		return 0;
	per = RECOVER_CHUNK / r->rawrec_size;
	buf = malloc((size_t)per * r->rawrec_size);
	c->raw = calloc(n, sizeof *c->raw);
	if (!buf || !c->raw) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	/* runs of slots that are contiguous in the ring, a chunk at a time */
	for (uint32_t i = 0; i < n;) {
		uint32_t slot = (c->raw_tail + i) % c->raw_cap, k = n - i;

		if (k > c->raw_cap - slot)
			k = c->raw_cap - slot;
		if (k > per)
			k = per;
		if (recover_rd(r, m, c->raw_slot + (uint64_t)slot * r->rawrec_size, buf,
			       (size_t)k * r->rawrec_size, "a raw ring", err, errlen))
			goto out;
		for (uint32_t j = 0; j < k; j++)
			parse_record(r, c, buf + (size_t)j * r->rawrec_size, &c->raw[i + j]);
		i += k;
	}
	c->nraw = n;
	rc = 0;
out:
	free(buf);
	return rc;
}

static unsigned put_raw(uint8_t *p, const struct recover_raw *s, unsigned nregs)
{
	return bmprof_put_raw_record(p, s->event, s->flags, s->valid, s->pc, s->data_addr, s->r,
				     nregs);
}

static int send_frame(const struct recover_cpu *c, unsigned cpu, uint8_t *buf, unsigned len,
		      unsigned n, uint32_t *seq, recover_emit_fn emit, void *ctx)
{
	bmprof_put16(buf, (uint16_t)cpu);
	bmprof_put16(buf + 2, (uint16_t)n);
	bmprof_put32(buf + 4, (*seq)++);
	buf[8] = c->raw_arch;
	buf[9] = c->raw_nregs;
	bmprof_put16(buf + 10, 0);
	return emit(ctx, BMPROF_FRAME_RAW_SAMPLES, buf, (uint16_t)len);
}

/* The frame being written arrived when the host holds a RAW_SAMPLES frame of its number. */
static int raw_arrived(const struct profile *p, unsigned cpu, uint32_t seq)
{
	const struct profile_cpu *pc = cpu < PROFILE_MAX_CPUS ? &p->cpus[cpu] : NULL;

	return pc && pc->raw_frames && pc->raw_next_seq > seq;
}

int recover_send_raw(const struct recover_cpu *c, unsigned cpu, const struct profile *p,
		     uint64_t *v, recover_emit_fn emit, void *ctx, struct recover_result *res)
{
	int came = c->raw_ok && c->raw_sending && raw_arrived(p, cpu, c->raw_frames - 1);
	uint32_t seq = c->raw_ok && c->raw_sending && !came ? c->raw_frames - 1 : c->raw_frames;
	uint64_t unread = 0, lost = c->raw_lost_full + c->raw_lost_transport;
	uint8_t buf[FRAME_PAYLOAD], one[RECORD_MAX];
	unsigned len = BMPROF_RAW_FIXED, n = 0;
	size_t from = came ? c->raw_sending : 0;
	int rc;

	res->raw_cpus++;
	for (size_t i = from; i < c->nraw; i++) {
		unsigned k = put_raw(one, &c->raw[i], c->raw_nregs);

		if (len + k > sizeof buf) {
			if ((rc = send_frame(c, cpu, buf, len, n, &seq, emit, ctx)))
				return rc;
			len = BMPROF_RAW_FIXED;
			n = 0;
		}
		memcpy(buf + len, one, k);
		len += k;
		n++;
	}
	if (n && (rc = send_frame(c, cpu, buf, len, n, &seq, emit, ctx)))
		return rc;
	/* a ring that was not read: what it should hold never reached the host */
	if (!c->raw_ok && c->raw_taken > c->raw_delivered + lost && lost <= c->raw_taken)
		unread = c->raw_taken - c->raw_delivered - lost;
	res->raw_samples += c->nraw - from;
	res->raw_unread += unread;
	res->raw_arrived += came;
	v[BMPROF_TOTAL_RAW_TAKEN] = c->raw_taken;
	v[BMPROF_TOTAL_RAW_DELIVERED] = c->raw_delivered + c->nraw;
	v[BMPROF_TOTAL_RAW_LOST_FULL] = c->raw_lost_full;
	v[BMPROF_TOTAL_RAW_LOST_TRANSPORT] = c->raw_lost_transport + unread;
	v[BMPROF_TOTAL_RAW_FRAMES] = seq;
	return 0;
}
