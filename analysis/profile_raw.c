/* SPDX-License-Identifier: BSD-2-Clause */
/* Raw samples in the profile model: RAW_SAMPLES frames (transport/wire.h) decoded into
 * struct profile_raw, whose struct regfile the data-space analyses read as it is. A frame
 * is checked whole before any record of it is kept. */
#include <stdlib.h>
#include <string.h>
#include "profile.h"
#include "profile_raw.h"

struct raw_hdr {
	uint16_t cpu, n;
	uint32_t seq;
	uint8_t arch, nregs;
};

/* One varint: bytes used, 0 if truncated or wider than 64 bits. */
static unsigned varint(const uint8_t *q, const uint8_t *end, uint64_t *v)
{
	unsigned k = bmprof_get_varint(q, end, v);

	return k == BMPROF_VARINT_MAX && q[k - 1] > 1 ? 0 : k;
}

/* One record at q into *out (when out is not NULL): bytes used, 0 if malformed. */
static size_t one_record(const struct raw_hdr *h, const uint8_t *q, const uint8_t *end,
			 struct profile_raw *out)
{
	const uint8_t *start = q;
	struct profile_raw r = { .cpu = h->cpu };
	uint64_t ev, valid, v;
	unsigned k;

	if (!(k = varint(q, end, &ev)) || ev > UINT16_MAX)
		return 0;
	q += k;
	if (q >= end || (*q & ~BMPROF_RAWF_KNOWN))
		return 0;
	r.flags = *q++;
	if (!(k = varint(q, end, &valid)) || (h->nregs < 64 && valid >> h->nregs))
		return 0;
	q += k;
	if (!(k = varint(q, end, &r.regs.pc)))
		return 0;
	q += k;
	if (r.flags & BMPROF_RAWF_DATA_ADDR) {
		if (!(k = varint(q, end, &r.data_addr)))
			return 0;
		q += k;
	}
	for (unsigned i = 0; i < h->nregs; i++) {
		if (!(valid >> i & 1))
			continue;
		if (!(k = varint(q, end, &v)))
			return 0;
		q += k;
		r.regs.r[i] = v;
	}
	r.event = (uint16_t)ev;
	r.regs.arch = h->arch;
	r.regs.n = h->nregs;
	r.regs.valid = (uint32_t)valid;
	if (out)
		*out = r;
	return (size_t)(q - start);
}

/* Every record of the frame well-formed: 0, else -1. */
static int check(const struct raw_hdr *h, const uint8_t *q, const uint8_t *end)
{
	for (uint16_t i = 0; i < h->n; i++) {
		size_t k = one_record(h, q, end, NULL);
		if (!k)
			return -1;
		q += k;
	}
	return 0;
}

static int room(struct profile *p, size_t n)
{
	size_t cap = p->raw_cap ? p->raw_cap : 64;
	struct profile_raw *a;

	if (p->nraw + n <= p->raw_cap)
		return 0;
	while (cap < p->nraw + n)
		cap *= 2;
	if (!(a = realloc(p->raw, cap * sizeof *a)))
		return -1;
	p->raw = a;
	p->raw_cap = cap;
	return 0;
}

static void count_frame(struct profile *p, const struct raw_hdr *h)
{
	struct profile_cpu *c = &p->cpus[h->cpu];

	c->seen = 1;
	c->raw_frames++;
	c->raw_received += h->n;
	if (h->seq >= c->raw_next_seq)
		c->raw_seq_gaps += h->seq - c->raw_next_seq;
	else
		c->raw_seq_repeats++;
	c->raw_next_seq = h->seq + 1;
	if (h->cpu >= p->ncpus_seen)
		p->ncpus_seen = h->cpu + 1u;
}

int profile_apply_raw(struct profile *p, const uint8_t *b, uint16_t len)
{
	const uint8_t *q = b + BMPROF_RAW_FIXED, *end = b + len;
	struct raw_hdr h;
	size_t keep;

	if (len < BMPROF_RAW_FIXED)
		return -1;
	h = (struct raw_hdr){ .cpu = bmprof_get16(b), .n = bmprof_get16(b + 2),
			      .seq = bmprof_get32(b + 4), .arch = b[8], .nregs = b[9] };
	/* each record takes at least four bytes */
	if (h.cpu >= PROFILE_MAX_CPUS || h.nregs < 1 || h.nregs > REGFILE_MAX ||
	    (size_t)h.n * 4 > (size_t)(len - BMPROF_RAW_FIXED) || check(&h, q, end))
		return -1;
	keep = h.n;
	if (p->max_entries && p->nraw + keep > p->max_entries)
		keep = p->nraw < p->max_entries ? p->max_entries - p->nraw : 0;
	if (room(p, keep))
		return -1;
	for (size_t i = 0; i < keep; i++)
		q += one_record(&h, q, end, &p->raw[p->nraw++]);
	p->raw_over_cap += h.n - keep;
	count_frame(p, &h);
	return 0;
}
