/* SPDX-License-Identifier: BSD-2-Clause */
/* The profile model: frame decoding and the sample store. See profile.h. */
#include "profile.h"
#include "profile_phase.h"
#include "profile_raw.h"
#include "profile_stacks.h"
#include "profile_store.h"
#include "run_mode.h"
#include "events.h"

#include <stdlib.h>
#include <string.h>

/* A target's display strings (vendor, event names) are text from a device or a file a
 * user hands over: a control byte would reach a terminal. Kept printable, '?' for the
 * rest (a NUL ends the string as before). */
static void printable(char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			s[i] = '?';
}

void profile_init(struct profile *p)
{
	memset(p, 0, sizeof(*p));
	p->first_event = -1;
}

void profile_free(struct profile *p)
{
	size_t i;

	for (i = 0; i < p->nmeta; i++) {
		free(p->meta[i].key);
		free(p->meta[i].value);
	}
	free(p->meta);
	for (i = 0; i < p->nlogs; i++)
		free(p->logs[i].text);
	free(p->logs);
	free(p->counts);
	free(p->samples);
	profile_stacks_free(p);
	profile_phases_free(p);
	free(p->raw);
	profile_init(p);
}

/* ---- samples (stored by profile_store.c) ---- */

int profile_add(struct profile *p, uint16_t cpu, uint16_t event, uint64_t pc, uint64_t count)
{
	if (p->total + count < p->total || profile_store_room(p, 1))
		return -1;
	p->total += count;
	if (!p->over_cap)
		profile_store_append(p, cpu, event, pc, count);
	return 0;
}

/* ---- meta ---- */

const char *profile_meta(const struct profile *p, const char *key)
{
	size_t i;

	for (i = 0; i < p->nmeta; i++)
		if (!strcmp(p->meta[i].key, key))
			return p->meta[i].value;
	return NULL;
}

static char *dup_mem(const void *s, size_t n)
{
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = 0;
	}
	return d;
}

static int set_meta_n(struct profile *p, const char *key, size_t klen, const char *val,
		      size_t vlen)
{
	struct profile_meta_kv *kv;
	char *v = dup_mem(val, vlen);
	size_t i;

	if (!v)
		return -1;
	for (i = 0; i < p->nmeta; i++) {
		if (strlen(p->meta[i].key) == klen && !memcmp(p->meta[i].key, key, klen)) {
			free(p->meta[i].value);
			p->meta[i].value = v;
			return 0;
		}
	}
	if (p->nmeta >= PROFILE_MAX_META) {
		free(v);
		return -1;
	}
	kv = realloc(p->meta, (p->nmeta + 1) * sizeof(*kv));
	if (!kv) {
		free(v);
		return -1;
	}
	p->meta = kv;
	kv[p->nmeta].key = dup_mem(key, klen);
	if (!kv[p->nmeta].key) {
		free(v);
		return -1;
	}
	kv[p->nmeta++].value = v;
	return 0;
}

int profile_set_meta(struct profile *p, const char *key, const char *value)
{
	return set_meta_n(p, key, strlen(key), value, strlen(value));
}

const struct profile_event *profile_event(const struct profile *p, uint16_t id)
{
	unsigned i;

	for (i = 0; i < p->nevents; i++)
		if (p->events[i].id == id)
			return &p->events[i];
	return NULL;
}

uint64_t profile_cpu_lost_in_transit(const struct profile_cpu *c)
{
	uint64_t d;

	if (!c->have_totals || c->ntotals <= BMPROF_TOTAL_DELIVERED)
		return 0;
	d = c->totals[BMPROF_TOTAL_DELIVERED];
	return d > c->received ? d - c->received : 0;
}

/* ---- frame decoding: each returns 0, or -1 if the payload is malformed ---- */

static int apply_hello(struct profile *p, const uint8_t *b, uint16_t len)
{
	struct profile_hello h;

	if (len < BMPROF_HELLO_FIXED)
		return -1;
	memset(&h, 0, sizeof(h));
	h.build_id_len = b[56];
	if (h.build_id_len > BMPROF_BUILD_ID_MAX || len < BMPROF_HELLO_FIXED + h.build_id_len)
		return -1;
	h.version = bmprof_get16(b);
	h.arch = b[2];
	h.source = b[3];
	h.ncpus = bmprof_get16(b + 4);
	h.timebase_hz = bmprof_get64(b + 8);
	h.load_bias = bmprof_get64(b + 16);
	memcpy(h.vendor, b + 24, 16);
	printable(h.vendor, 16);
	h.family = bmprof_get32(b + 40);
	h.model = bmprof_get32(b + 44);
	h.stepping = bmprof_get32(b + 48);
	h.signature = bmprof_get32(b + 52);
	memcpy(h.build_id, b + BMPROF_HELLO_FIXED, h.build_id_len);
	if (len >= BMPROF_HELLO_FIXED + h.build_id_len + BMPROF_HELLO_CORE_HZ)
		h.core_hz = bmprof_get64(b + BMPROF_HELLO_FIXED + h.build_id_len);

	p->hellos++;
	if (!p->have_hello) {
		p->hello = h;
		p->have_hello = 1;
	} else if (h.arch != p->hello.arch || h.build_id_len != p->hello.build_id_len ||
		   memcmp(h.build_id, p->hello.build_id, h.build_id_len)) {
		p->hello_mismatch++;
	}
	return 0;
}

static uint8_t kind_of_source(uint8_t source)
{
	switch (source) {
	case BMPROF_SOURCE_TIMER: return BMPROF_CTR_TIMER;
	case BMPROF_SOURCE_PMU: return BMPROF_CTR_GP;
	case BMPROF_SOURCE_PMU_FIXED: return BMPROF_CTR_FIXED;
	default: return BMPROF_CTR_NONE;
	}
}

/* The fields appended after the name (wire 1.1), or their defaults when absent. */
static void event_status(struct profile_event *e, const uint8_t *b, const uint8_t *end)
{
	enum { NSTATUS = 6 };

	e->status = BMPROF_EVST_ACTIVE;
	e->reason = BMPROF_EVR_NONE;
	e->counter_kind = kind_of_source(e->source);
	e->counter = 0xff;
	e->group = 0xff;
	e->ngroups = 1;
	e->precise = BMPROF_PRECISE_NONE;
	if (end - b < NSTATUS)
		return;
	e->have_status = 1;
	e->status = b[0];
	e->reason = b[1];
	e->counter_kind = b[2];
	e->counter = b[3];
	e->group = b[4];
	e->ngroups = b[5];
	if (end - b > NSTATUS)        /* appended in 3.1 */
		e->precise = b[6];
}

static int apply_event(struct profile *p, const uint8_t *b, uint16_t len)
{
	struct profile_event e, *slot;
	unsigned nlen;

	if (len < BMPROF_EVENT_FIXED + 1)
		return -1;
	nlen = b[BMPROF_EVENT_FIXED];
	if (len < BMPROF_EVENT_FIXED + 1 + nlen || memchr(b + BMPROF_EVENT_FIXED + 1, 0, nlen))
		return -1;
	memset(&e, 0, sizeof(e));
	e.id = bmprof_get16(b);
	e.source = b[2];
	e.flags = b[3];
	e.encoding = bmprof_get64(b + 4);
	e.period = bmprof_get64(b + 12);
	e.jitter = bmprof_get64(b + 20);
	memcpy(e.name, b + BMPROF_EVENT_FIXED + 1, nlen);
	printable(e.name, nlen);
	event_status(&e, b + BMPROF_EVENT_FIXED + 1 + nlen, b + len);

	for (slot = p->events; slot < p->events + p->nevents && slot->id != e.id; slot++)
		;
	if (slot == p->events + p->nevents) {
		if (p->nevents == PROFILE_MAX_EVENTS)
			return -1;
		p->nevents++;
	}
	*slot = e;
	return 0;
}

/* One varint of a SAMPLES entry: bytes used, 0 if truncated or if its value does not fit
 * 64 bits (a tenth byte above 1). */
static unsigned get_varint(const uint8_t *p, const uint8_t *end, uint64_t *v)
{
	unsigned k = bmprof_get_varint(p, end, v);

	return k == BMPROF_VARINT_MAX && p[k - 1] > 1 ? 0 : k;
}

/* Walk the entries of a SAMPLES payload: check them and sum their counts into *sum; with
 * add set, append them too as they come (room made; the caller takes them back if this
 * fails). Addresses
 * are modulo 2^64, as the target computes the deltas: a jump from a low to a high half
 * address is a small negative delta. */
static int walk_samples(struct profile *p, const uint8_t *b, uint16_t len, int add,
			int stacks, uint64_t *sum)
{
	const uint8_t *q = b + BMPROF_SAMPLES_FIXED, *end = b + len;
	uint16_t cpu = bmprof_get16(b), n = bmprof_get16(b + 2), i;
	uint64_t pc = 0;

	*sum = 0;
	for (i = 0; i < n; i++) {
		uint64_t ev, z, count;
		unsigned k;

		if (!(k = get_varint(q, end, &ev)))
			return -1;
		q += k;
		if (!(k = get_varint(q, end, &z)))
			return -1;
		q += k;
		if (!(k = get_varint(q, end, &count)))
			return -1;
		q += k;
		/* version 3: the phase above the event id */
		if (ev >> 16 > PROFILE_MAX_PHASES || count == 0 || *sum + count < *sum)
			return -1;
		uint16_t phase = (uint16_t)(ev >> 16);
		ev &= UINT16_MAX;
		*sum += count;
		pc += (uint64_t)bmprof_unzigzag(z);
		if (stacks) {
			uint64_t id;
			if (!(k = get_varint(q, end, &id)) || id > UINT16_MAX)
				return -1;
			q += k;
			if (add == 2 && profile_add_stack_sample(p, cpu, (uint16_t)ev, pc, count, id,
								 phase))
				return -1;
		}
		if (add && !(add == 2 && p->over_cap))
			profile_store_append(p, cpu, (uint16_t)ev, pc, count);
		if (add && phase && !p->over_cap &&
		    profile_add_phase_sample(p, cpu, (uint16_t)ev, pc, count, phase))
			return -1;
	}
	return 0;
}

static int apply_samples(struct profile *p, const uint8_t *b, uint16_t len, int stacks)
{
	struct profile_cpu *c;
	uint16_t cpu, n;
	uint32_t seq;
	uint64_t sum;

	if (len < BMPROF_SAMPLES_FIXED)
		return -1;
	cpu = bmprof_get16(b);
	n = bmprof_get16(b + 2);
	seq = bmprof_get32(b + 4);
	/* each entry takes at least three bytes */
	if (cpu >= PROFILE_MAX_CPUS || (size_t)n * 3 > (size_t)(len - BMPROF_SAMPLES_FIXED))
		return -1;
	/* one pass: the entries are appended as they decode, and taken back if the frame
	 * turns out malformed */
	if (profile_store_room(p, n))
		return -1;
	profile_phase_room(p);
	size_t mark = p->nsamples, phase_mark = p->nphase_samples;
	int first = p->first_event;
	/* with chains, a first pass checks the frame so that a malformed one adds nothing */
	if ((stacks && walk_samples(p, b, len, 0, 1, &sum)) ||
	    walk_samples(p, b, len, stacks ? 2 : !p->over_cap, stacks, &sum) ||
	    p->total + sum < p->total) {
		p->nsamples = mark;
		p->nphase_samples = phase_mark;
		p->first_event = first;
		return -1;
	}
	p->total += sum;

	c = &p->cpus[cpu];
	c->seen = 1;
	c->frames++;
	c->received += sum;
	if (seq >= c->next_seq)
		c->seq_gaps += seq - c->next_seq;
	else
		c->seq_repeats++;
	c->next_seq = seq + 1;
	if (cpu >= p->ncpus_seen)
		p->ncpus_seen = cpu + 1u;
	return 0;
}

static int apply_totals(struct profile *p, const uint8_t *b, uint16_t len)
{
	struct profile_cpu *c;
	uint16_t cpu, nf;
	unsigned i;

	if (len < BMPROF_TOTALS_FIXED)
		return -1;
	cpu = bmprof_get16(b);
	nf = bmprof_get16(b + 2);
	if (cpu >= PROFILE_MAX_CPUS || (size_t)len < BMPROF_TOTALS_FIXED + 8 * (size_t)nf)
		return -1;
	c = &p->cpus[cpu];
	memset(c->totals, 0, sizeof(c->totals));
	for (i = 0; i < nf && i < BMPROF_TOTAL_NFIELDS; i++)
		c->totals[i] = bmprof_get64(b + BMPROF_TOTALS_FIXED + 8 * i);
	c->ntotals = nf;
	c->have_totals = 1;
	c->seen = 1;
	if (cpu >= p->ncpus_seen)
		p->ncpus_seen = cpu + 1u;
	return 0;
}

static int apply_end(struct profile *p, const uint8_t *b, uint16_t len)
{
	if (len < BMPROF_END_FIXED)
		return -1;
	p->end.exit_code = (int32_t)bmprof_get32(b);
	p->end.reason = b[4];
	p->end.fault_pc = bmprof_get64(b + 8);
	p->end.vector = bmprof_get32(b + 16);
	p->end.fault_addr = bmprof_get64(b + 24);
	p->have_end = 1;
	return 0;
}

static struct profile_count *find_count(const struct profile *p, uint16_t cpu, uint16_t ev)
{
	for (size_t i = 0; i < p->ncounts; i++)
		if (p->counts[i].cpu == cpu && p->counts[i].event == ev)
			return &p->counts[i];
	return NULL;
}

/* Room for n more records, so the frame is applied whole once it decodes. */
static int reserve_counts(struct profile *p, size_t n)
{
	struct profile_count *c;
	size_t cap = p->counts_cap ? p->counts_cap : 16;

	if (p->ncounts + n <= p->counts_cap)
		return 0;
	while (cap < p->ncounts + n)
		cap *= 2;
	c = realloc(p->counts, cap * sizeof(*c));
	if (!c)
		return -1;
	p->counts = c;
	p->counts_cap = cap;
	return 0;
}

static int apply_counts(struct profile *p, const uint8_t *b, uint16_t len)
{
	uint16_t cpu, n;

	if (len < BMPROF_COUNTS_FIXED)
		return -1;
	cpu = bmprof_get16(b);
	n = bmprof_get16(b + 2);
	if (cpu >= PROFILE_MAX_CPUS ||
	    (size_t)len < BMPROF_COUNTS_FIXED + (size_t)n * BMPROF_COUNTS_RECORD ||
	    p->ncounts + n > PROFILE_MAX_COUNTS || reserve_counts(p, n))
		return -1;
	for (uint16_t i = 0; i < n; i++) {
		const uint8_t *r = b + BMPROF_COUNTS_FIXED + (size_t)i * BMPROF_COUNTS_RECORD;
		struct profile_count c = {
			.cpu = cpu, .event = bmprof_get16(r), .flags = bmprof_get16(r + 2),
			.value = bmprof_get64(r + 8), .enabled = bmprof_get64(r + 16),
			.running = bmprof_get64(r + 24),
		};
		struct profile_count *slot = find_count(p, cpu, c.event);

		*(slot ? slot : &p->counts[p->ncounts++]) = c;
	}
	p->cpus[cpu].seen = 1;
	if (cpu >= p->ncpus_seen)
		p->ncpus_seen = cpu + 1u;
	return 0;
}

int profile_event_count(const struct profile *p, uint16_t id, int cpu,
			struct profile_count_sum *s)
{
	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < p->ncounts; i++) {
		const struct profile_count *c = &p->counts[i];

		if (c->event != id || (cpu >= 0 && c->cpu != cpu))
			continue;
		s->value += c->value;
		s->enabled += c->enabled;
		s->running += c->running;
		s->ncpus++;
	}
	return s->ncpus ? 0 : -1;
}

double profile_count_scaled(const struct profile_count_sum *s)
{
	if (!s->running || s->running >= s->enabled)
		return (double)s->value;
	return (double)s->value * ((double)s->enabled / (double)s->running);
}

double profile_event_scale(const struct profile *p, uint16_t id)
{
	struct profile_count_sum s;

	if (profile_event_count(p, id, -1, &s) || !s.running || s.running >= s.enabled)
		return 1.0;
	return (double)s.enabled / (double)s.running;
}

/* Entries { u8 klen, key, u16 vlen, value }. Checked whole before any is stored. */
static int apply_meta(struct profile *p, const uint8_t *b, uint16_t len)
{
	size_t off = 0;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		for (off = 0; off < len;) {
			const uint8_t *k, *v;
			size_t kl, vl;

			kl = b[off];
			if (off + 1 + kl + 2 > len)
				return -1;
			k = b + off + 1;
			vl = bmprof_get16(k + kl);
			v = k + kl + 2;
			if (off + 3 + kl + vl > len || !kl || memchr(k, 0, kl) || memchr(v, 0, vl))
				return -1;
			if (pass && set_meta_n(p, (const char *)k, kl, (const char *)v, vl))
				return -1;
			off += 3 + kl + vl;
		}
	}
	return 0;
}

int profile_log_decode(const uint8_t *b, uint16_t len, uint8_t *level, const char **text,
		       size_t *n)
{
	if (len < BMPROF_LOG_FIXED || len - BMPROF_LOG_FIXED < bmprof_get16(b + 2))
		return -1;
	*level = b[0];
	*n = bmprof_get16(b + 2);
	*text = (const char *)b + BMPROF_LOG_FIXED;
	return 0;
}

static int apply_log(struct profile *p, const uint8_t *b, uint16_t len)
{
	struct profile_log *l, *logs;
	const char *text;
	size_t n;
	uint8_t level;

	if (profile_log_decode(b, len, &level, &text, &n))
		return -1;
	if (p->nlogs == PROFILE_MAX_LOGS) {
		p->logs_dropped++;
		return 0;
	}
	logs = realloc(p->logs, (p->nlogs + 1) * sizeof(*logs));
	if (!logs)
		return -1;
	p->logs = logs;
	l = &logs[p->nlogs];
	l->cut = n > PROFILE_LOG_TEXT_MAX;
	l->len = l->cut ? PROFILE_LOG_TEXT_MAX : n;
	l->level = level;
	l->text = dup_mem(text, l->len);
	if (!l->text)
		return -1;
	p->nlogs++;
	return 0;
}

static int apply_stream(struct profile *p, const uint8_t *b, uint16_t len)
{
	if (len < 40)
		return -1;
	p->frames_ok += bmprof_get64(b);
	p->frames_bad_crc += bmprof_get64(b + 8);
	p->frames_unknown += bmprof_get64(b + 16);
	p->bytes_skipped += bmprof_get64(b + 24);
	if (bmprof_get64(b + 32))
		p->truncated = 1;
	p->have_stream = 1;
	return 0;
}

int profile_apply_frame(struct profile *p, uint8_t type, const uint8_t *payload, uint16_t len)
{
	int r;

	switch (type) {
	case BMPROF_FRAME_HELLO: r = apply_hello(p, payload, len); break;
	case BMPROF_FRAME_EVENT: r = apply_event(p, payload, len); break;
	case BMPROF_FRAME_SAMPLES: r = apply_samples(p, payload, len, 0); break;
	case BMPROF_FRAME_STACK_SAMPLES: r = apply_samples(p, payload, len, 1); break;
	case BMPROF_FRAME_STACKS: r = profile_apply_stacks(p, payload, len); break;
	case BMPROF_FRAME_PHASE: r = profile_apply_phase(p, payload, len); break;
	case BMPROF_FRAME_RAW_SAMPLES: r = profile_apply_raw(p, payload, len); break;
	case BMPROF_FRAME_TOTALS: r = apply_totals(p, payload, len); break;
	case BMPROF_FRAME_END: r = apply_end(p, payload, len); break;
	case BMPROF_FRAME_COUNTS: r = apply_counts(p, payload, len); break;
	case BMPROF_FRAME_LOG: r = apply_log(p, payload, len); break;
	case BMPROF_FRAME_HOST_META: r = apply_meta(p, payload, len); break;
	case BMPROF_FRAME_HOST_STREAM: r = apply_stream(p, payload, len); break;
	default: return 1;
	}
	if (r)
		p->frames_malformed++;
	return r;
}

/* The mean of a period drawn uniformly in [period - jitter, period]. */
static double mean_period(const struct profile_event *e)
{
	uint64_t j = e->jitter < e->period ? e->jitter : (e->period ? e->period - 1 : 0);

	return (double)e->period - (double)j / 2.0;
}

/* A PMU event counting core cycles: the event table's cycles (or an alias of it). */
static int is_cycles_event(const struct profile_event *e)
{
	const struct event_def *d = events_lookup(e->name);

	return d && d->word && !strcmp(d->word, "cycles");
}

uint64_t profile_event_samples(const struct profile *p, uint16_t id)
{
	uint64_t n = 0;

	for (size_t i = 0; i < p->nsamples; i++)
		if (p->samples[i].event == id)
			n += p->samples[i].count;
	return n;
}

double profile_cycles_per_sample(const struct profile *p, uint16_t id)
{
	const struct profile_event *e = profile_event(p, id);
	uint64_t ticks = 0, samples = 0;
	unsigned cpu;
	struct run_mode m;
	double per_tick;

	if (!e || !e->period)
		return -1;
	/* a PMU event the timer stands in for is sampled by the timer */
	if ((e->source == BMPROF_SOURCE_PMU || e->source == BMPROF_SOURCE_PMU_FIXED) &&
	    e->status != BMPROF_EVST_FALLBACK)
		return is_cycles_event(e) ? mean_period(e) : -1;
	/* under -icount a cycle is an instruction (the tcg model): ticks are exact
	 * instruction counts, and the core clock the target measured means nothing */
	run_mode_of(p, &m);
	per_tick = run_mode_insns_per_tick(&m, p);
	if (!m.icount && p->have_hello && p->hello.core_hz && p->hello.timebase_hz)
		per_tick = (double)p->hello.core_hz / (double)p->hello.timebase_hz;
	if (e->status == BMPROF_EVST_UNAVAILABLE || !per_tick)
		return -1;
	/* every CPU that sent samples of the event must say how long it ran */
	samples = profile_event_samples(p, id);
	for (cpu = 0; cpu < p->ncpus_seen; cpu++) {
		const struct profile_cpu *c = &p->cpus[cpu];

		if (!c->received)
			continue;
		if (!c->have_totals || c->ntotals <= BMPROF_TOTAL_SAMPLED_TICKS ||
		    !c->totals[BMPROF_TOTAL_SAMPLED_TICKS])
			return -1;
		ticks += c->totals[BMPROF_TOTAL_SAMPLED_TICKS];
	}
	if (!samples || !ticks)
		return -1;
	return (double)ticks * per_tick / (double)samples;
}

double profile_sample_rate(const struct profile *p, uint16_t id, double *expected)
{
	const struct profile_event *e = profile_event(p, id);
	struct profile_count_sum cs;
	double want = 0;

	*expected = 0;
	if (!e || !e->period || (e->flags & BMPROF_EVENT_COUNTING) ||
	    e->status == BMPROF_EVST_UNAVAILABLE)
		return -1;
	if (e->source == BMPROF_SOURCE_TIMER || e->status == BMPROF_EVST_FALLBACK) {
		/* every CPU that sampled must say how long it did */
		for (unsigned cpu = 0; cpu < p->ncpus_seen; cpu++) {
			const struct profile_cpu *c = &p->cpus[cpu];

			if (!c->received)
				continue;
			if (!c->have_totals || c->ntotals <= BMPROF_TOTAL_ENABLED_TICKS ||
			    !c->totals[BMPROF_TOTAL_ENABLED_TICKS])
				return -1;
			want += (double)c->totals[BMPROF_TOTAL_ENABLED_TICKS];
		}
		want /= mean_period(e);
	} else if (!profile_event_count(p, id, -1, &cs)) {
		want = (double)cs.value / mean_period(e);
	}
	if (want < 1)
		return -1;
	*expected = want;
	return (double)profile_event_samples(p, id) / want;
}

