/* SPDX-License-Identifier: BSD-2-Clause */
/* Recovery from target memory: see recover.h and docs/wire-format.md "Recovery". */
#include "run/recover.h"
#include "run/recover_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

#define FRAME_PAYLOAD 4096u      /* SAMPLES payload the host builds */

/* ---- reading ---- */

int rd(struct recover *r, const struct recover_mem *m, uint64_t addr, void *buf,
	      size_t len, const char *what, char *err, size_t errlen)
{
	if (addr + len < addr) {
		snprintf(err, errlen, "%s at 0x%" PRIx64 " wraps around the address space", what,
			 addr);
		return -1;
	}
	if (len > r->limit - r->bytes) {
		snprintf(err, errlen, "%s would take the read past %" PRIu64 " MiB: the descriptor's "
			 "sizes are not believable", what, r->limit >> 20);
		return -1;
	}
	r->bytes += len;
	if (m->read(m->ctx, addr, buf, len, err, errlen) == 0)
		return 0;
	return -1;
}

static uint64_t le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

static unsigned fsize(const struct recover *r, enum bmprof_desc_field f)
{
	return r->field[f] >> 16 & 0xff;
}

static unsigned foff(const struct recover *r, enum bmprof_desc_field f)
{
	return r->field[f] & 0xffff;
}

/* A field of the struct at base (already checked to lie inside it); 0 when absent. */
static uint64_t get(const struct recover *r, const uint8_t *base, enum bmprof_desc_field f)
{
	return fsize(r, f) ? le(base + foff(r, f), fsize(r, f)) : 0;
}

/* for recover_stacks.c (recover_internal.h) */
int recover_rd(struct recover *r, const struct recover_mem *m, uint64_t addr, void *buf,
	       size_t len, const char *what, char *err, size_t errlen)
{
	return rd(r, m, addr, buf, len, what, err, errlen);
}

uint64_t recover_le(const uint8_t *p, unsigned n)
{
	return le(p, n);
}

uint64_t recover_get(const struct recover *r, const uint8_t *base, enum bmprof_desc_field f)
{
	return get(r, base, f);
}

/* ---- the descriptor ---- */

enum home { H_CPU, H_OVF, H_ENTRY, H_SDEF, H_RAWREC };
enum kind { K_INT, K_PTR, K_OVF, K_STRUCT, K_STRIDE };

static const struct {
	enum bmprof_desc_field f;
	uint8_t home, kind;     /* the struct it lies in; K_INT: 1, 2, 4 or 8 bytes */
	uint8_t version;        /* required from this layout version on (0: never) */
	const char *name;
} fields[] = {
	{ BMPROF_DF_TABLE, H_CPU, K_PTR, 1, "table" }, { BMPROF_DF_MASK, H_CPU, K_INT, 1, "mask" },
	{ BMPROF_DF_TAKEN, H_CPU, K_INT, 1, "taken" }, { BMPROF_DF_HITS, H_CPU, K_INT, 0, "hits" },
	{ BMPROF_DF_IN_RECORD, H_CPU, K_INT, 1, "in_record" },
	{ BMPROF_DF_FLUSHING, H_CPU, K_INT, 0, "flushing" },
	{ BMPROF_DF_OVF, H_CPU, K_OVF, 1, "ovf" }, { BMPROF_DF_MISSES, H_CPU, K_INT, 0, "misses" },
	{ BMPROF_DF_EVICTIONS, H_CPU, K_INT, 0, "evictions" },
	{ BMPROF_DF_LOST_FULL, H_CPU, K_INT, 1, "lost_full" },
	{ BMPROF_DF_DELIVERED, H_CPU, K_INT, 1, "delivered" },
	{ BMPROF_DF_LOST_TRANSPORT, H_CPU, K_INT, 1, "lost_transport" },
	{ BMPROF_DF_FRAMES, H_CPU, K_INT, 1, "frames" },
	{ BMPROF_DF_CPU_ID, H_CPU, K_INT, 0, "cpu_id" },
	{ BMPROF_DF_SAMPLED_TICKS, H_CPU, K_INT, 0, "sampled_ticks" },
	{ BMPROF_DF_IN_DRAIN, H_CPU, K_INT, 1, "in_drain" },
	{ BMPROF_DF_XFER_SRC, H_CPU, K_INT, 1, "xfer.src" },
	{ BMPROF_DF_XFER_N, H_CPU, K_INT, 1, "xfer.n" },
	{ BMPROF_DF_XFER_DONE, H_CPU, K_INT, 1, "xfer.done" },
	{ BMPROF_DF_XFER_END, H_CPU, K_INT, 1, "xfer.end" },
	{ BMPROF_DF_XFER_SEQ, H_CPU, K_INT, 1, "xfer.seq" },
	{ BMPROF_DF_XFER_SAMPLES, H_CPU, K_INT, 1, "xfer.samples" },
	{ BMPROF_DF_FLUSHES, H_CPU, K_INT, 0, "flushes" },
	{ BMPROF_DF_OVF_SLOT, H_OVF, K_PTR, 1, "ovf.slot" },
	{ BMPROF_DF_OVF_CAP, H_OVF, K_INT, 1, "ovf.cap" },
	{ BMPROF_DF_OVF_FILL, H_OVF, K_INT, 1, "ovf.fill" },
	{ BMPROF_DF_OVF_STATE, H_OVF, K_INT, 1, "ovf.state" },
	{ BMPROF_DF_ENTRY_PC, H_ENTRY, K_PTR, 1, "entry.pc" },
	{ BMPROF_DF_ENTRY_COUNT, H_ENTRY, K_INT, 1, "entry.count" },
	{ BMPROF_DF_ENTRY_EVENT, H_ENTRY, K_INT, 1, "entry.event" },
	{ BMPROF_DF_ENTRY_STACK, H_ENTRY, K_INT, 2, "entry.stack" },
	{ BMPROF_DF_STK_INDEX, H_CPU, K_PTR, 0, "stacks.index" },
	{ BMPROF_DF_STK_DEF, H_CPU, K_PTR, 2, "stacks.def" },
	{ BMPROF_DF_STK_FRAMES, H_CPU, K_PTR, 2, "stacks.frames" },
	{ BMPROF_DF_STK_MASK, H_CPU, K_INT, 0, "stacks.mask" },
	{ BMPROF_DF_STK_MAX_IDS, H_CPU, K_INT, 2, "stacks.max_ids" },
	{ BMPROF_DF_STK_FRAMES_CAP, H_CPU, K_INT, 2, "stacks.frames_cap" },
	{ BMPROF_DF_STK_FRAMES_USED, H_CPU, K_INT, 2, "stacks.frames_used" },
	{ BMPROF_DF_STK_N, H_CPU, K_INT, 2, "stacks.n" },
	{ BMPROF_DF_STK_SENT, H_CPU, K_INT, 0, "stacks.sent" },
	{ BMPROF_DF_STK_DEPTH, H_CPU, K_INT, 2, "stacks.depth" },
	{ BMPROF_DF_STK_FULL, H_CPU, K_INT, 0, "stacks.full" },
	{ BMPROF_DF_SDEF, H_SDEF, K_STRUCT, 2, "stack_def" },
	{ BMPROF_DF_SDEF_OFF, H_SDEF, K_INT, 2, "stack_def.off" },
	{ BMPROF_DF_SDEF_DEPTH, H_SDEF, K_INT, 2, "stack_def.depth" },
	{ BMPROF_DF_SDEF_FLAGS, H_SDEF, K_INT, 2, "stack_def.flags" },
	{ BMPROF_DF_RAW_SLOT, H_CPU, K_PTR, 3, "raw.slot" },
	{ BMPROF_DF_RAW_CAP, H_CPU, K_INT, 3, "raw.cap" },
	{ BMPROF_DF_RAW_ARCH, H_CPU, K_INT, 3, "raw.arch" },
	{ BMPROF_DF_RAW_NREGS, H_CPU, K_INT, 3, "raw.nregs" },
	{ BMPROF_DF_RAW_HEAD, H_CPU, K_INT, 3, "raw.head" },
	{ BMPROF_DF_RAW_TAIL, H_CPU, K_INT, 3, "raw.tail" },
	{ BMPROF_DF_RAW_SENDING, H_CPU, K_INT, 3, "raw.sending" },
	{ BMPROF_DF_RAW_FRAMES, H_CPU, K_INT, 3, "raw.frames" },
	{ BMPROF_DF_RAW_TAKEN, H_CPU, K_INT, 3, "raw.taken" },
	{ BMPROF_DF_RAW_DELIVERED, H_CPU, K_INT, 3, "raw.delivered" },
	{ BMPROF_DF_RAW_LOST_FULL, H_CPU, K_INT, 3, "raw.lost_full" },
	{ BMPROF_DF_RAW_LOST_TRANSPORT, H_CPU, K_INT, 3, "raw.lost_transport" },
	{ BMPROF_DF_RAWREC, H_RAWREC, K_STRIDE, 3, "raw record" },
	{ BMPROF_DF_RAWREC_PC, H_RAWREC, K_PTR, 3, "raw record pc" },
	{ BMPROF_DF_RAWREC_DATA_ADDR, H_RAWREC, K_PTR, 3, "raw record data_addr" },
	{ BMPROF_DF_RAWREC_VALID, H_RAWREC, K_INT, 3, "raw record valid" },
	{ BMPROF_DF_RAWREC_EVENT, H_RAWREC, K_INT, 3, "raw record event" },
	{ BMPROF_DF_RAWREC_FLAGS, H_RAWREC, K_INT, 3, "raw record flags" },
	{ BMPROF_DF_RAWREC_R, H_RAWREC, K_PTR, 3, "raw record r" },
};

_Static_assert(sizeof fields / sizeof fields[0] == BMPROF_DF_COUNT, "a field not checked");

static uint32_t home_size(const struct recover *r, unsigned home)
{
	switch (home) {
	case H_OVF: return r->ovf_size;
	case H_ENTRY: return r->entry_size;
	case H_SDEF: return r->def_size;
	case H_RAWREC: return r->rawrec_size;
	}
	return r->cpu_size;
}

/* A pointer is the target's (ptr_size) or held in a uint64_t (an entry's pc, on every
 * target). */
static int bad_size(const struct recover *r, unsigned kind, unsigned sz)
{
	switch (kind) {
	case K_PTR: return sz != 8 && sz != r->ptr_size;
	case K_OVF: return sz < 2 * r->ovf_size;
	case K_STRUCT: return 0;
	case K_STRIDE: return sz != 1;
	}
	return (sz & (sz - 1)) || sz > 8;
}

static int check_fields(struct recover *r, char *err, size_t errlen)
{
	r->def_size = fsize(r, BMPROF_DF_SDEF);
	r->rawrec_size = fsize(r, BMPROF_DF_RAWREC) ? foff(r, BMPROF_DF_RAWREC) : 0;
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		enum bmprof_desc_field f = fields[i].f;
		unsigned sz = fsize(r, f);

		if (!sz) {
			if (!fields[i].version || fields[i].version > r->version)
				continue;
			snprintf(err, errlen, "the recovery descriptor has no field %s", fields[i].name);
			return -1;
		}
		if (bad_size(r, fields[i].kind, sz)) {
			snprintf(err, errlen, "the recovery descriptor gives field %s a size of %u "
				 "bytes", fields[i].name, sz);
			return -1;
		}
		if (fields[i].kind == K_STRIDE)
			continue;
		if (foff(r, f) + sz > home_size(r, fields[i].home)) {
			snprintf(err, errlen, "the recovery descriptor puts field %s (offset %u, %u "
				 "bytes) outside its %" PRIu32 "-byte struct", fields[i].name,
				 foff(r, f), sz, home_size(r, fields[i].home));
			return -1;
		}
	}
	return 0;
}

static int read_header(struct recover *r, const struct recover_mem *m, char *err, size_t errlen)
{
	uint8_t h[BMPROF_DESC_HDR];
	uint64_t magic;

	if (rd(r, m, r->addr, h, sizeof h, "the recovery descriptor", err, errlen))
		return -1;
	magic = le(h, 8);
	if (magic != BMPROF_DESC_MAGIC) {
		snprintf(err, errlen, "no bmprof recovery descriptor at 0x%" PRIx64 " (magic %016"
			 PRIx64 "): the image's bmprof predates recovery, or the address is wrong",
			 r->addr, magic);
		return -1;
	}
	r->version = (uint16_t)le(h + 8, 2);
	r->nfields = (uint16_t)le(h + 10, 2);
	r->max_cpus = (uint32_t)le(h + 12, 2);
	r->ncpus = (uint32_t)le(h + 16, 4);
	r->unregistered = (uint32_t)le(h + 20, 4);
	r->self = le(h + 24, 8);
	r->cpu_size = (uint32_t)le(h + 32, 4);
	r->ovf_size = (uint32_t)le(h + 36, 4);
	r->entry_size = (uint32_t)le(h + 40, 2);
	r->ways = (uint16_t)le(h + 42, 2);
	r->cpus_off = (uint32_t)le(h + 44, 4);
	if (r->version < 1 || r->version > BMPROF_DESC_VERSION) {
		snprintf(err, errlen, "recovery descriptor layout version %u: this bmprof reads "
			 "versions 1 to %d (update bmprof)", r->version, BMPROF_DESC_VERSION);
		return -1;
	}
	r->ptr_size = (uint16_t)le(h + 14, 2);
	if (r->ptr_size != 8 && r->ptr_size != 4) {
		snprintf(err, errlen, "the recovery descriptor says pointers are %u bytes; "
			 "bmprof reads 32- and 64-bit targets", r->ptr_size);
		return -1;
	}
	if (r->self != r->addr) {
		snprintf(err, errlen, "the recovery descriptor at 0x%" PRIx64 " says it is at 0x%"
			 PRIx64 ": the load bias is wrong", r->addr, r->self);
		return -1;
	}
	if (!r->nfields || r->nfields > RECOVER_MAX_FIELDS || !r->cpu_size ||
	    r->cpu_size > RECOVER_MAX_STRUCT || !r->ovf_size || r->ovf_size > 4096 ||
	    r->entry_size < 14 || r->entry_size > 4096 || !r->ways || r->ways > 64 ||
	    r->ncpus > r->max_cpus || r->cpus_off < BMPROF_DESC_HDR + 4u * r->nfields ||
	    r->cpus_off > RECOVER_MAX_STRUCT) {
		snprintf(err, errlen, "the recovery descriptor's sizes are not believable (%u "
			 "fields, %" PRIu32 " of %" PRIu32 " CPUs, structs of %" PRIu32 ", %" PRIu32
			 " and %" PRIu32 " bytes, %u ways, CPU list at +%" PRIu32 ")", r->nfields,
			 r->ncpus, r->max_cpus, r->cpu_size, r->ovf_size, r->entry_size, r->ways,
			 r->cpus_off);
		return -1;
	}
	return 0;
}

static int read_fields(struct recover *r, const struct recover_mem *m, char *err, size_t errlen)
{
	/* a layout has the fields of its version: later ones are another build's */
	unsigned known = r->version == 1 ? BMPROF_DF_V1_COUNT :
			 r->version == 2 ? BMPROF_DF_V2_COUNT : BMPROF_DF_COUNT;
	unsigned n = r->nfields < known ? r->nfields : known;
	uint8_t b[4 * BMPROF_DF_COUNT];

	memset(r->field, 0, sizeof r->field);
	if (rd(r, m, r->addr + BMPROF_DESC_HDR, b, 4u * n, "the descriptor's fields", err, errlen))
		return -1;
	for (unsigned i = 0; i < n; i++)
		r->field[i] = (uint32_t)le(b + 4 * i, 4);
	return check_fields(r, err, errlen);
}

/* ---- one CPU's state ---- */

static void problem(struct recover_cpu *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void problem(struct recover_cpu *c, const char *fmt, ...)
{
	va_list ap;

	if (c->problem[0])
		return;
	va_start(ap, fmt);
	vsnprintf(c->problem, sizeof c->problem, fmt, ap);
	va_end(ap);
}

/* Entries in the transfer's source, or UINT64_MAX for none. */
static uint64_t src_size(const struct recover_cpu *c)
{
	switch (c->xsrc) {
	case BMPROF_XFER_TABLE: return c->table_entries;
	case BMPROF_XFER_OVF0: return c->ovf[0].fill;
	case BMPROF_XFER_OVF1: return c->ovf[1].fill;
	}
	return UINT64_MAX;
}

/* The CPU's stack table (version 2): its bounds must be the target's own, else nothing of
 * it is believed. */
static int parse_stacks(struct recover *r, unsigned idx, const uint8_t *b, char *err,
			size_t errlen)
{
	struct recover_cpu *c = &r->cpu[idx];
	uint64_t depth = get(r, b, BMPROF_DF_STK_DEPTH), n = get(r, b, BMPROF_DF_STK_N);
	uint64_t max_ids = get(r, b, BMPROF_DF_STK_MAX_IDS);
	uint64_t cap = get(r, b, BMPROF_DF_STK_FRAMES_CAP);
	uint64_t used = get(r, b, BMPROF_DF_STK_FRAMES_USED);

	if (!fsize(r, BMPROF_DF_STK_DEPTH) || !depth)
		return 0;
	if (depth > BMPROF_STACK_DEPTH_WIRE_MAX || max_ids > BMPROF_STACK_IDS_MAX ||
	    n > max_ids || used > cap) {
		snprintf(err, errlen, "cpu %u: its stack table is not believable (depth %" PRIu64
			 ", %" PRIu64 " of %" PRIu64 " chains, %" PRIu64 " of %" PRIu64 " frames)",
			 idx, depth, n, max_ids, used, cap);
		return -1;
	}
	if (max_ids * r->def_size > RECOVER_MAX_REGION || cap * 8 > RECOVER_MAX_REGION) {
		snprintf(err, errlen, "cpu %u: the recovery descriptor gives it a stack table of %"
			 PRIu64 " chains and %" PRIu64 " frames, more than bmprof reads back", idx,
			 max_ids, cap);
		return -1;
	}
	c->stk_depth = (uint32_t)depth;
	c->stk_n = (uint32_t)n;
	c->stk_max_ids = (uint32_t)max_ids;
	c->stk_frames_cap = (uint32_t)cap;
	c->stk_frames_used = (uint32_t)used;
	c->stk_def = get(r, b, BMPROF_DF_STK_DEF);
	c->stk_frames = get(r, b, BMPROF_DF_STK_FRAMES);
	c->stk_full = get(r, b, BMPROF_DF_STK_FULL);
	return 0;
}

static int parse_cpu(struct recover *r, unsigned idx, const uint8_t *b, char *err,
		     size_t errlen)
{
	struct recover_cpu *c = &r->cpu[idx];
	uint64_t mask = get(r, b, BMPROF_DF_MASK);

	c->taken = get(r, b, BMPROF_DF_TAKEN);
	c->hits = get(r, b, BMPROF_DF_HITS);
	c->misses = get(r, b, BMPROF_DF_MISSES);
	c->evictions = get(r, b, BMPROF_DF_EVICTIONS);
	c->delivered = get(r, b, BMPROF_DF_DELIVERED);
	c->lost_full = get(r, b, BMPROF_DF_LOST_FULL);
	c->lost_transport = get(r, b, BMPROF_DF_LOST_TRANSPORT);
	c->frames = get(r, b, BMPROF_DF_FRAMES);
	c->sampled_ticks = get(r, b, BMPROF_DF_SAMPLED_TICKS);
	c->flushes = get(r, b, BMPROF_DF_FLUSHES);
	c->in_record = (uint32_t)get(r, b, BMPROF_DF_IN_RECORD);
	c->in_drain = (uint32_t)get(r, b, BMPROF_DF_IN_DRAIN);
	c->table = get(r, b, BMPROF_DF_TABLE);
	c->table_entries = (mask + 1) * r->ways;
	if (mask >= (1ull << 32) || c->table_entries * r->entry_size > RECOVER_MAX_REGION) {
		snprintf(err, errlen, "cpu %u: the recovery descriptor gives it a table of %" PRIu64
			 " buckets, more than bmprof reads back (%llu MiB)", idx, mask + 1,
			 RECOVER_MAX_REGION >> 20);
		return -1;
	}
	for (int i = 0; i < 2; i++) {
		const uint8_t *o = b + foff(r, BMPROF_DF_OVF) + (size_t)i * r->ovf_size;
		struct recover_ovf *v = &c->ovf[i];

		v->slot = get(r, o, BMPROF_DF_OVF_SLOT);
		v->cap = (uint32_t)get(r, o, BMPROF_DF_OVF_CAP);
		v->fill = (uint32_t)get(r, o, BMPROF_DF_OVF_FILL);
		v->state = (uint32_t)get(r, o, BMPROF_DF_OVF_STATE);
		if ((uint64_t)v->cap * r->entry_size > RECOVER_MAX_REGION) {
			snprintf(err, errlen, "cpu %u: the recovery descriptor gives it overflow buffers "
				 "of %" PRIu32 " entries, more than bmprof reads back", idx, v->cap);
			return -1;
		}
		if (v->fill > v->cap || v->state > BMPROF_OVF_FULL) {
			snprintf(err, errlen, "cpu %u: overflow buffer %d is not believable (state %"
				 PRIu32 ", %" PRIu32 " of %" PRIu32 " entries used)", idx, i, v->state,
				 v->fill, v->cap);
			return -1;
		}
	}
	c->xsrc = (uint32_t)get(r, b, BMPROF_DF_XFER_SRC);
	c->xn = (uint32_t)get(r, b, BMPROF_DF_XFER_N);
	c->xdone = (uint32_t)get(r, b, BMPROF_DF_XFER_DONE);
	c->xend = (uint32_t)get(r, b, BMPROF_DF_XFER_END);
	c->xseq = (uint32_t)get(r, b, BMPROF_DF_XFER_SEQ);
	c->xsamples = get(r, b, BMPROF_DF_XFER_SAMPLES);
	if (c->xsrc > BMPROF_XFER_TABLE) {
		snprintf(err, errlen, "cpu %u: unknown transfer source %" PRIu32, idx, c->xsrc);
		return -1;
	}
	if (parse_stacks(r, idx, b, err, errlen) || recover_parse_raw(r, c, idx, b, err, errlen))
		return -1;
	if (fsize(r, BMPROF_DF_CPU_ID) && get(r, b, BMPROF_DF_CPU_ID) != idx)
		problem(c, "its state says it is cpu %" PRIu64, get(r, b, BMPROF_DF_CPU_ID));
	if (c->xsrc == BMPROF_XFER_NONE || c->in_drain)
		return 0;
	/* a frame is on its way: its bounds must hold, else nothing of it is believed */
	if (c->xn > src_size(c) || c->xdone > c->xend || c->xend > c->xn ||
	    c->frames != (uint64_t)c->xseq + 1) {
		problem(c, "its transfer record does not add up (entries %" PRIu32 "..%" PRIu32 " of "
			"%" PRIu32 ", frame %" PRIu32 " of %" PRIu64 ")", c->xdone, c->xend, c->xn,
			c->xseq, c->frames);
		c->xsrc = BMPROF_XFER_NONE;
		return 0;
	}
	c->inflight = 1;
	return 0;
}

static int read_cpus(struct recover *r, const struct recover_mem *m, char *err, size_t errlen)
{
	uint8_t *b = malloc(r->cpu_size), ptr[8];
	int rc = -1;

	r->cpu = calloc(r->ncpu ? r->ncpu : 1, sizeof *r->cpu);
	if (!b || !r->cpu) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (unsigned i = 0; i < r->ncpu; i++) {
		struct recover_cpu *c = &r->cpu[i];

		if (rd(r, m, r->addr + r->cpus_off + 8ull * i, ptr, 8, "the CPU list", err, errlen))
			goto out;
		c->addr = le(ptr, 8);
		if (!c->addr)
			continue;
		if (rd(r, m, c->addr, b, r->cpu_size, "a CPU's state", err, errlen) ||
		    parse_cpu(r, i, b, err, errlen))
			goto out;
		c->present = 1;
	}
	rc = 0;
out:
	free(b);
	return rc;
}

int recover_read(struct recover *r, const struct recover_mem *m, uint64_t addr, char *err,
		 size_t errlen)
{
	memset(r, 0, sizeof *r);
	r->addr = addr;
	r->limit = RECOVER_MAX_TOTAL;
	if (read_header(r, m, err, errlen) || read_fields(r, m, err, errlen))
		return -1;
	r->ncpu = r->ncpus < RECOVER_MAX_CPUS ? r->ncpus : RECOVER_MAX_CPUS;
	return read_cpus(r, m, err, errlen);
}

unsigned recover_busy(const struct recover *r)
{
	unsigned n = 0;

	for (unsigned i = 0; i < r->ncpu; i++)
		n += r->cpu[i].present && (r->cpu[i].in_record || r->cpu[i].in_drain);
	return n;
}

/* ---- entries ---- */

struct list {
	struct recover_entry *e;
	size_t n, cap;
	uint64_t samples;
};

static int push(struct list *l, const struct recover_entry *e)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 256;
		struct recover_entry *p = realloc(l->e, cap * sizeof *p);

		if (!p)
			return -1;
		l->e = p;
		l->cap = cap;
	}
	l->e[l->n++] = *e;
	l->samples += e->count;
	return 0;
}

/* Entries [from, to) of the array at addr: the used ones into held, those in [fly_lo,
 * fly_hi) into flying instead. */
static int read_array(struct recover *r, const struct recover_mem *m, uint64_t addr,
		      uint64_t from, uint64_t to, uint64_t fly_lo, uint64_t fly_hi,
		      struct list *held, struct list *flying, char *err, size_t errlen)
{
	size_t per = RECOVER_CHUNK / r->entry_size;
	uint8_t *buf = malloc(per * r->entry_size);
	int rc = -1;

	if (!buf) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (uint64_t i = from; i < to;) {
		uint64_t k = to - i < per ? to - i : per;

		if (rd(r, m, addr + i * r->entry_size, buf, (size_t)(k * r->entry_size),
		       "a table or buffer", err, errlen))
			goto out;
		for (uint64_t j = 0; j < k; j++, i++) {
			const uint8_t *b = buf + j * r->entry_size;
			struct recover_entry e = {
				.pc = get(r, b, BMPROF_DF_ENTRY_PC),
				.count = (uint32_t)get(r, b, BMPROF_DF_ENTRY_COUNT),
				.event = (uint16_t)get(r, b, BMPROF_DF_ENTRY_EVENT),
				.stack = (uint16_t)get(r, b, BMPROF_DF_ENTRY_STACK),
			};

			if (e.count && push(i >= fly_lo && i < fly_hi ? flying : held, &e)) {
				snprintf(err, errlen, "out of memory");
				goto out;
			}
		}
	}
	rc = 0;
out:
	free(buf);
	return rc;
}

/* One table or buffer of n entries: with the transfer on it, [0, done) was counted and
 * [done, end) is in flight. */
static int read_source(struct recover *r, const struct recover_mem *m, struct recover_cpu *c,
		       uint32_t src, uint64_t addr, uint64_t n, struct list *held,
		       struct list *flying, char *err, size_t errlen)
{
	uint64_t from = 0, lo = 0, hi = 0;

	if (c->xsrc == src) {
		from = c->xdone < n ? c->xdone : n;
		if (c->inflight) {
			lo = c->xdone;
			hi = c->xend;
		}
	}
	if (n && !addr) {
		snprintf(err, errlen, "a table or buffer of %" PRIu64 " entries at address 0", n);
		return -1;
	}
	return read_array(r, m, addr, from, n, lo, hi, held, flying, err, errlen);
}

static int read_cpu_entries(struct recover *r, const struct recover_mem *m,
			    struct recover_cpu *c, char *err, size_t errlen)
{
	struct list held = { 0 }, flying = { 0 };
	int rc = read_source(r, m, c, BMPROF_XFER_TABLE, c->table, c->table_entries, &held,
			     &flying, err, errlen);

	for (int i = 0; i < 2 && !rc; i++) {
		const struct recover_ovf *o = &c->ovf[i];

		if (o->state != BMPROF_OVF_EMPTY)
			rc = read_source(r, m, c, (uint32_t)(BMPROF_XFER_OVF0 + i), o->slot, o->fill,
					 &held, &flying, err, errlen);
	}
	if (!rc)
		rc = recover_read_chains(r, m, c, held.e, held.n, flying.e, flying.n, err, errlen);
	c->held = held.e;
	c->nheld = held.n;
	c->held_samples = held.samples;
	c->flying = flying.e;
	c->nflying = flying.n;
	c->flying_samples = flying.samples;
	c->have_entries = !rc;
	if (!rc && c->inflight && flying.samples != c->xsamples)
		problem(c, "the frame it was sending holds %" PRIu64 " samples, its record says %"
			PRIu64, flying.samples, c->xsamples);
	return rc;
}

int recover_read_entries(struct recover *r, const struct recover_mem *m, char *err,
			 size_t errlen)
{
	for (unsigned i = 0; i < r->ncpu; i++) {
		struct recover_cpu *c = &r->cpu[i];

		if (!c->present)
			continue;
		if (read_cpu_entries(r, m, c, err, errlen) || recover_read_raw(r, m, c, err, errlen)) {
			char tmp[256];

			snprintf(tmp, sizeof tmp, "cpu %u: %s", i, err);
			snprintf(err, errlen, "%s", tmp);
			return -1;
		}
		if (c->in_record || c->in_drain)
			problem(c, "it was stopped inside the sampler (%s), so a sample or an entry "
				"in motion may be counted once too often or not at all",
				c->in_record ? "recording a sample" : "sending or sorting entries");
	}
	return 0;
}

void recover_free(struct recover *r)
{
	if (r->cpu)
		for (unsigned i = 0; i < r->ncpu; i++) {
			free(r->cpu[i].held);
			free(r->cpu[i].flying);
			free(r->cpu[i].chains);
			free(r->cpu[i].raw);
		}
	free(r->cpu);
	memset(r, 0, sizeof *r);
}

/* ---- frames ---- */

typedef recover_emit_fn emit_fn;

static int by_pc(const void *a, const void *b)
{
	const struct recover_entry *x = a, *y = b;

	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	if (x->event != y->event)
		return x->event < y->event ? -1 : 1;
	return (x->stack > y->stack) - (x->stack < y->stack);
}

static unsigned encode_entry(uint8_t *p, const struct recover_entry *e, uint64_t prev,
			     int stacks)
{
	unsigned k = bmprof_put_varint(p, bmprof_key_wire_event(e->event));

	k += bmprof_put_varint(p + k, bmprof_zigzag((int64_t)(e->pc - prev)));
	k += bmprof_put_varint(p + k, e->count);
	if (stacks)
		k += bmprof_put_varint(p + k, e->stack);
	return k;
}

/* The entries as SAMPLES (stacks: STACK_SAMPLES) frames from sequence number *seq on. */
static int send_entries(unsigned cpu, const struct recover_entry *e, size_t n, int stacks,
			uint32_t *seq, emit_fn emit, void *ctx)
{
	uint8_t buf[FRAME_PAYLOAD], one[4 * BMPROF_VARINT_MAX];
	unsigned len = BMPROF_SAMPLES_FIXED, count = 0;
	uint64_t prev = 0;
	int rc;

	for (size_t i = 0; i <= n; i++) {
		unsigned k = i < n ? encode_entry(one, &e[i], prev, stacks) : 0;

		if (count && (i == n || len + k > sizeof buf)) {
			bmprof_put16(buf, (uint16_t)cpu);
			bmprof_put16(buf + 2, (uint16_t)count);
			bmprof_put32(buf + 4, (*seq)++);
			if ((rc = emit(ctx, stacks ? BMPROF_FRAME_STACK_SAMPLES : BMPROF_FRAME_SAMPLES,
				       buf, (uint16_t)len)))
				return rc;
			len = BMPROF_SAMPLES_FIXED;
			count = 0;
			if (i < n)
				k = encode_entry(one, &e[i], 0, stacks);
		}
		if (i == n)
			break;
		memcpy(buf + len, one, k);
		len += k;
		count++;
		prev = e[i].pc;
	}
	return 0;
}

static int send_totals(unsigned cpu, const uint64_t *v, emit_fn emit, void *ctx)
{
	uint8_t p[BMPROF_TOTALS_FIXED + 8 * BMPROF_TOTAL_NFIELDS];

	bmprof_put16(p, (uint16_t)cpu);
	bmprof_put16(p + 2, BMPROF_TOTAL_NFIELDS);
	for (unsigned i = 0; i < BMPROF_TOTAL_NFIELDS; i++)
		bmprof_put64(p + BMPROF_TOTALS_FIXED + 8 * i, v[i]);
	return emit(ctx, BMPROF_FRAME_TOTALS, p, sizeof p);
}

/* The in-flight frame arrived when the host holds a SAMPLES frame of its number. */
static int arrived(const struct profile *p, unsigned cpu, uint32_t seq)
{
	const struct profile_cpu *pc = cpu < PROFILE_MAX_CPUS ? &p->cpus[cpu] : NULL;

	return pc && pc->frames && pc->next_seq > seq;
}

static int cpu_frames(struct recover_cpu *c, unsigned cpu, const struct profile *p,
		      emit_fn emit, void *ctx, struct recover_result *res)
{
	int came = c->inflight && arrived(p, cpu, c->xseq), stacks = c->stk_depth != 0;
	size_t n = c->nheld + (c->inflight && !came ? c->nflying : 0);
	struct recover_entry *all = malloc((n ? n : 1) * sizeof *all);
	uint32_t seq = c->inflight && !came ? c->xseq : (uint32_t)c->frames;
	uint64_t v[BMPROF_TOTAL_NFIELDS] = { 0 }, sent = 0, accounted;
	int rc = 0;

	if (!all)
		return -1;
	if (c->nheld)
		memcpy(all, c->held, c->nheld * sizeof *all);
	if (n > c->nheld)
		memcpy(all + c->nheld, c->flying, c->nflying * sizeof *all);
	for (size_t i = 0; i < n; i++)
		sent += all[i].count;
	qsort(all, n, sizeof *all, by_pc);
	if (stacks) {
		/* before the STACKS frames below make p know their ids */
		res->unchained += recover_unchained(c, cpu, p, all, n);
		res->stack_cpus++;
		rc = recover_send_chains(c, cpu, p, emit, ctx, res);
	}
	if (!rc)
		rc = send_entries(cpu, all, n, stacks, &seq, emit, ctx);
	free(all);
	if (rc)
		return rc;
	res->samples += sent;
	res->arrived += c->inflight && came;
	res->resent += c->inflight && !came;
	v[BMPROF_TOTAL_TAKEN] = c->taken;
	v[BMPROF_TOTAL_HITS] = c->hits;
	v[BMPROF_TOTAL_MISSES] = c->misses;
	v[BMPROF_TOTAL_EVICTIONS] = c->evictions;
	v[BMPROF_TOTAL_DELIVERED] = c->delivered + (came ? c->xsamples : 0) + sent;
	v[BMPROF_TOTAL_LOST_FULL] = c->lost_full;
	v[BMPROF_TOTAL_LOST_TRANSPORT] = c->lost_transport;
	v[BMPROF_TOTAL_FRAMES] = seq;
	v[BMPROF_TOTAL_SAMPLED_TICKS] = c->sampled_ticks;
	v[BMPROF_TOTAL_STACK_FULL] = c->stk_full;
	v[BMPROF_TOTAL_STACKS] = c->stk_n;
	if (c->raw_cap && (rc = recover_send_raw(c, cpu, p, v, emit, ctx, res)))
		return rc;
	accounted = v[BMPROF_TOTAL_DELIVERED] + c->lost_full + c->lost_transport;
	if (accounted != c->taken)
		problem(c, "taken %" PRIu64 " but %" PRIu64 " accounted for", c->taken, accounted);
	res->inexact += c->problem[0] != 0;
	res->cpus++;
	return send_totals(cpu, v, emit, ctx);
}

int recover_frames(struct recover *r, const struct profile *p, emit_fn emit, void *ctx,
		   struct recover_result *res)
{
	memset(res, 0, sizeof *res);
	for (unsigned i = 0; i < r->ncpu; i++) {
		struct recover_cpu *c = &r->cpu[i];
		int rc;

		if (!c->present || !c->have_entries)
			continue;
		if ((rc = cpu_frames(c, i, p, emit, ctx, res)))
			return rc;
	}
	return 0;
}
