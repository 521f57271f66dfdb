/* SPDX-License-Identifier: BSD-2-Clause */
/* A profile as gzipped pprof (export_pprof.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "profile/export_pprof.h"
#include "profile/gzip_out.h"
#include "symbol/elf_segments.h"
#include "profile.pb-c.h"
#include "symbol/symname.h"
#include "util/util.h"
#include "report/callchain.h"

/* The profile's string table (index 0 is ""), with a hash index so each string is stored
 * once. */
struct strtab {
	char **s;
	size_t n, cap;
	size_t *slot;                /* string index + 1; 0 empty */
	size_t nslots;               /* a power of two, kept above 2n */
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;   /* FNV-1a */

	while (*s)
		h = (h ^ (uint8_t)*s++) * 0x100000001b3ull;
	return h;
}

static void strtab_rehash(struct strtab *t)
{
	free(t->slot);
	t->nslots = t->nslots ? 2 * t->nslots : 256;
	t->slot = bm_calloc(t->nslots, sizeof *t->slot);
	for (size_t i = 1; i < t->n; i++) {
		size_t k = hash_str(t->s[i]) & (t->nslots - 1);
		while (t->slot[k])
			k = (k + 1) & (t->nslots - 1);
		t->slot[k] = i + 1;
	}
}

static int64_t str_id(struct strtab *t, const char *s)
{
	if (!s || !*s)
		return 0;
	if (2 * (t->n + 1) >= t->nslots)
		strtab_rehash(t);
	size_t k = hash_str(s) & (t->nslots - 1);
	for (; t->slot[k]; k = (k + 1) & (t->nslots - 1))
		if (!strcmp(t->s[t->slot[k] - 1], s))
			return (int64_t)(t->slot[k] - 1);
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->s = bm_realloc(t->s, t->cap * sizeof *t->s);
	}
	t->s[t->n] = bm_strdup(s);
	t->slot[k] = t->n + 1;
	return (int64_t)t->n++;
}

/* What the messages point at: the string table and the functions, kept to the end. */
struct pp {
	struct strtab st;
	Perftools__Profiles__Function **funcs;
	size_t nfuncs;
	size_t *fslot, nfslots;      /* hash index over funcs: function index + 1; 0 empty */
	const char *last_name, *last_file;   /* the last pair function_id was asked for */
	uint64_t last_id;
};

static uint64_t fhash(int64_t name, int64_t file)
{
	return ((uint64_t)name * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)file * 0xc2b2ae3d27d4eb4full);
}

/* The Function of (name, file), made once (a hash index over the pair of string ids; the
 * last pair asked for, by pointer, first: millions of pcs outside the image are one). Its
 * system_name is the symbol as the ELF has it; its name the function as a reader knows it
 * (symname.h): demangled, and a GCC clone (foo.constprop.0) named as its function (foo),
 * so pprof, which groups by name, adds a function's clones to it. */
static uint64_t function_id(struct pp *pp, const char *name, const char *file)
{
	if (pp->last_id && name == pp->last_name && file == pp->last_file)
		return pp->last_id;
	pp->last_name = name;
	pp->last_file = file;
	int64_t n = str_id(&pp->st, name ? name : "??"), f = str_id(&pp->st, file);
	char shown[1024];

	if (2 * (pp->nfuncs + 1) >= pp->nfslots) {
		free(pp->fslot);
		pp->nfslots = pp->nfslots ? 2 * pp->nfslots : 256;
		pp->fslot = bm_calloc(pp->nfslots, sizeof *pp->fslot);
		for (size_t i = 0; i < pp->nfuncs; i++) {
			size_t k = fhash(pp->funcs[i]->system_name, pp->funcs[i]->filename) &
				   (pp->nfslots - 1);
			while (pp->fslot[k])
				k = (k + 1) & (pp->nfslots - 1);
			pp->fslot[k] = i + 1;
		}
	}
	size_t k = fhash(n, f) & (pp->nfslots - 1);
	for (; pp->fslot[k]; k = (k + 1) & (pp->nfslots - 1)) {
		const Perftools__Profiles__Function *fn = pp->funcs[pp->fslot[k] - 1];
		if (fn->system_name == n && fn->filename == f)
			return pp->last_id = fn->id;
	}
	pp->funcs = bm_realloc(pp->funcs, (pp->nfuncs + 1) * sizeof *pp->funcs);
	Perftools__Profiles__Function *fn = bm_malloc(sizeof *fn);
	perftools__profiles__function__init(fn);
	fn->id = pp->nfuncs + 1;
	fn->system_name = n;
	fn->name = name ? str_id(&pp->st, symname_base(shown, sizeof shown, name)) : n;
	fn->filename = f;
	pp->funcs[pp->nfuncs++] = fn;
	pp->fslot[k] = pp->nfuncs;
	return pp->last_id = fn->id;
}

/* The symbolizer's last answer and the span of addresses it holds for. */
struct span_cache {
	uint64_t lo, until;
	struct sym_result res;
};

/* The frames of a location at addr: the symbolizer's, innermost first (pprof's order: the
 * last is the caller the others were inlined into); none (0) when only the symbol is known.
 * The frames are those of the span of addresses sp holds, looked up again when addr leaves
 * it. The count, or -1 (out of memory). */
static long frames_at(const struct loaded_run *lr, struct span_cache *sp,
		      const struct flat_pcinfo *in, uint64_t addr, const struct sym_frame **fr)
{
	if (in->outside || !lr->r.sym)
		return 0;
	if (addr < sp->lo || addr >= sp->until) {
		if (symbolizer_lookup_span(lr->r.sym, addr, &sp->res, &sp->until))
			return -1;
		sp->lo = addr;
	}
	*fr = sp->res.frames;
	return sp->res.symbol ? (long)sp->res.nframes : 0;
}

/* The location's lines, (function id, line), into l[0..max(n, 1)): the n frames, else the
 * symbol alone. */
static void fill_lines(struct pp *pp, const struct flat_pcinfo *in, const struct sym_frame *fr,
		       size_t n, uint64_t (*l)[2])
{
	for (size_t i = 0; i < (n ? n : 1); i++) {
		if (n) {
			const char *file = strcmp(fr[i].file, "??") ? fr[i].file : NULL;
			l[i][0] = function_id(pp, strcmp(fr[i].function, "??") ? fr[i].function
					      : in->symbol, file);
			l[i][1] = fr[i].line;
		} else {
			l[i][0] = function_id(pp, in->symbol ? in->symbol : in->outside
					      ? "[firmware]" : "[unknown]", in->file);
			l[i][1] = in->line;
		}
	}
}

/* The second sample value and the profile's period: for the timer at a known rate, the time
 * (cpu/nanoseconds, the period the nanoseconds between samples); for a PMU event sampled
 * every N events, the events (NAME/events, N; samples of a multiplexed event count for
 * enabled / running as many); else none (per_sample 0). */
struct measure {
	const char *type, *unit;
	double per_sample;
	int64_t period;
};

static struct measure measured(const struct loaded_run *lr)
{
	const struct profile *p = &lr->prof;
	const struct profile_event *e = NULL;
	struct measure m = { 0 };

	if (lr->event != FLAT_ALL_EVENTS)
		e = profile_event(p, (uint16_t)lr->event);
	else if (p->nevents == 1)
		e = &p->events[0];
	if (!e || !e->period || (e->flags & BMPROF_EVENT_COUNTING))
		return m;
	if (e->source == BMPROF_SOURCE_TIMER) {
		if (!p->hello.timebase_hz)
			return m;
		m.type = "cpu";
		m.unit = "nanoseconds";
		m.per_sample = 1e9 * (double)e->period / (double)p->hello.timebase_hz;
		m.period = (int64_t)(m.per_sample + 0.5);
	} else if (e->name[0]) {
		m.type = e->name;
		m.unit = "events";
		m.per_sample = (double)e->period * profile_event_scale(p, e->id);
		m.period = (int64_t)e->period;
	}
	return m;
}

/* The gzip stream the message is packed into, part by part. */
struct gz {
	ProtobufCBuffer base;
	struct gzip_out *out;
	int failed;
};

static void gz_append(ProtobufCBuffer *b, size_t len, const uint8_t *data)
{
	struct gz *g = (struct gz *)b;

	if (!g->failed && gzip_out_write(g->out, data, len))
		g->failed = 1;
}

/* A Profile message holding some of the fields: the protobuf encoding of a message is
 * its fields one after the other, so packing the fields in field-number order, a few
 * repeated elements at a time, gives the bytes one pack of the whole message gives. */
static void emit(struct gz *g, const Perftools__Profiles__Profile *part)
{
	perftools__profiles__profile__pack_to_buffer(part, &g->base);
}

static void pp_free(struct pp *pp)
{
	for (size_t i = 0; i < pp->nfuncs; i++)
		free(pp->funcs[i]);
	free(pp->funcs);
	free(pp->fslot);
	for (size_t i = 0; i < pp->st.n; i++)
		free(pp->st.s[i]);
	free(pp->st.s);
	free(pp->st.slot);
}

/* The sampled pcs with samples of the event, in order: each with its count, and its count
 * on each CPU that has some (cpus[0..ncpus), ascending; cpu_count by CPU). */
struct pcs {
	const struct profile_sample *s;
	size_t n, i;
	int event;
	uint64_t *cpu_count;         /* UINT16_MAX + 1 */
	uint16_t *cpus;
	unsigned ncpus;
};

static void pcs_open(struct pcs *it, const struct profile_sample *s, size_t n, int event)
{
	*it = (struct pcs){ s, n, 0, event, bm_calloc(UINT16_MAX + 1u, sizeof *it->cpu_count),
			    bm_calloc(UINT16_MAX + 1u, sizeof *it->cpus), 0 };
}

static void pcs_close(struct pcs *it)
{
	free(it->cpu_count);
	free(it->cpus);
}

/* The next pc with samples of the event: 1 with pc and count, or 0 at the end. */
static int next_pc(struct pcs *it, uint64_t *pc, uint64_t *count)
{
	while (it->i < it->n) {
		uint64_t c = 0, at = it->s[it->i].pc;
		for (unsigned k = 0; k < it->ncpus; k++)
			it->cpu_count[it->cpus[k]] = 0;
		it->ncpus = 0;
		for (; it->i < it->n && it->s[it->i].pc == at; it->i++) {
			const struct profile_sample *x = &it->s[it->i];
			if ((it->event != FLAT_ALL_EVENTS && x->event != it->event) || !x->count)
				continue;
			if (!it->cpu_count[x->cpu]) {
				unsigned k = it->ncpus++;
				for (; k && it->cpus[k - 1] > x->cpu; k--)
					it->cpus[k] = it->cpus[k - 1];
				it->cpus[k] = x->cpu;
			}
			it->cpu_count[x->cpu] += x->count;
			c += x->count;
		}
		if (c) {
			*pc = at;
			*count = c;
			return 1;
		}
	}
	return 0;
}

/* The per-pc messages (Sample, Location) are encoded here rather than by protobuf-c: there
 * are millions of them, and the encoding is a few varints. Fields in field-number order,
 * zeros left out, packed repeated scalars: the bytes protobuf-c's pack gives. */

/* Profile's fields, Sample's and Location's, Line's: (number << 3) | wire type. */
enum {
	PROFILE_SAMPLE = 2 << 3 | 2, PROFILE_LOCATION = 4 << 3 | 2,
	SAMPLE_LOCATION_ID = 1 << 3 | 2, SAMPLE_VALUE = 2 << 3 | 2, SAMPLE_LABEL = 3 << 3 | 2,
	LABEL_KEY = 1 << 3, LABEL_NUM = 3 << 3, LABEL_NUM_UNIT = 4 << 3,
	LOCATION_ID = 1 << 3, LOCATION_MAPPING_ID = 2 << 3, LOCATION_ADDRESS = 3 << 3,
	LOCATION_LINE = 4 << 3 | 2, LINE_FUNCTION_ID = 1 << 3, LINE_LINE = 2 << 3,
};

static size_t varint_len(uint64_t v)
{
	size_t n = 1;
	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static uint8_t *put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* A varint field, left out when zero. */
static uint8_t *put_field(uint8_t *p, uint8_t tag, uint64_t v)
{
	if (!v)
		return p;
	*p++ = tag;
	return put_varint(p, v);
}

static size_t field_len(uint64_t v)
{
	return v ? 1 + varint_len(v) : 0;
}

/* Bytes of encoded messages, written out when full. */
struct chunk {
	uint8_t *p;
	size_t n, cap;
};

#define CHUNK_BYTES ((size_t)1 << 18)

/* Room for need more bytes (the chunk written out first when full). 0 or -1. */
static int chunk_room(struct gz *g, struct chunk *c, size_t need)
{
	if (c->n + need <= c->cap)
		return 0;
	if (c->n)
		gz_append(&g->base, c->n, c->p);
	c->n = 0;
	if (need <= c->cap)
		return 0;
	size_t cap = need > CHUNK_BYTES ? need : CHUNK_BYTES;
	uint8_t *p = realloc(c->p, cap);
	if (!p)
		return -1;
	c->p = p;
	c->cap = cap;
	return 0;
}

/* One Sample: the location, the values, the label cpu=N. */
static int put_sample(struct gz *g, struct chunk *c, uint64_t id, const uint64_t *v,
		      size_t nvalues, int64_t key, uint16_t cpu, int64_t unit)
{
	size_t lid = varint_len(id), lv = 0;
	size_t ll = field_len((uint64_t)key) + field_len(cpu) + field_len((uint64_t)unit);

	for (size_t i = 0; i < nvalues; i++)
		lv += varint_len(v[i]);
	size_t inner = 1 + varint_len(lid) + lid + 1 + varint_len(lv) + lv + 1 + varint_len(ll) + ll;
	if (chunk_room(g, c, 1 + 10 + inner))
		return -1;
	uint8_t *p = c->p + c->n;
	*p++ = PROFILE_SAMPLE;
	p = put_varint(p, inner);
	*p++ = SAMPLE_LOCATION_ID;
	p = put_varint(p, lid);
	p = put_varint(p, id);
	*p++ = SAMPLE_VALUE;
	p = put_varint(p, lv);
	for (size_t i = 0; i < nvalues; i++)
		p = put_varint(p, v[i]);
	*p++ = SAMPLE_LABEL;
	p = put_varint(p, ll);
	p = put_field(p, LABEL_KEY, (uint64_t)key);
	p = put_field(p, LABEL_NUM, cpu);
	p = put_field(p, LABEL_NUM_UNIT, (uint64_t)unit);
	c->n = (size_t)(p - c->p);
	return 0;
}

/* Samples: one per sampled pc and CPU, its location's id the pc's rank, labelled with the
 * CPU. 0 or -1. */
static int emit_samples(struct gz *g, struct pp *pp, struct pcs *it, size_t nvalues,
			double per_sample)
{
	struct chunk c = { 0 };
	int64_t key = str_id(&pp->st, "cpu"), unit = str_id(&pp->st, "cpu");
	uint64_t pc, count, id = 0;
	int rc = -1;

	while (next_pc(it, &pc, &count)) {
		id++;
		for (unsigned k = 0; k < it->ncpus; k++) {
			uint64_t n = it->cpu_count[it->cpus[k]];
			uint64_t v[2] = { n, (uint64_t)((double)n * per_sample + 0.5) };
			if (put_sample(g, &c, id, v, nvalues, key, it->cpus[k], unit))
				goto out;
		}
	}
	if (c.n)
		gz_append(&g->base, c.n, c.p);
	rc = 0;
out:
	free(c.p);
	return rc;
}

/* The entry of info that stands for pc (cursor *j moves forward only), or one with only pc. */
static struct flat_pcinfo info_at(const struct resolved *r, size_t *j, uint64_t pc)
{
	struct flat_pcinfo in = { .pc = pc, .addr = pc };

	while (*j < r->ninfo && (r->info[*j].pc_last > r->info[*j].pc ? r->info[*j].pc_last :
				  r->info[*j].pc) < pc)
		(*j)++;
	if (*j < r->ninfo && r->info[*j].pc <= pc) {
		in = r->info[*j];
		in.addr = flat_info_addr(&r->info[*j], pc);
		in.pc = pc;
	}
	return in;
}

/* One Location: id, mapping, address, and its lines (function id, line). */
static int put_location(struct gz *g, struct chunk *c, uint64_t id, uint64_t mapping,
			uint64_t address, const uint64_t (*lines)[2], size_t nl)
{
	size_t inner = field_len(id) + field_len(mapping) + field_len(address);

	for (size_t i = 0; i < nl; i++) {
		size_t l = field_len(lines[i][0]) + field_len(lines[i][1]);
		inner += 1 + varint_len(l) + l;
	}
	if (chunk_room(g, c, 1 + 10 + inner))
		return -1;
	uint8_t *p = c->p + c->n;
	*p++ = PROFILE_LOCATION;
	p = put_varint(p, inner);
	p = put_field(p, LOCATION_ID, id);
	p = put_field(p, LOCATION_MAPPING_ID, mapping);
	p = put_field(p, LOCATION_ADDRESS, address);
	for (size_t i = 0; i < nl; i++) {
		*p++ = LOCATION_LINE;
		p = put_varint(p, field_len(lines[i][0]) + field_len(lines[i][1]));
		p = put_field(p, LINE_FUNCTION_ID, lines[i][0]);
		p = put_field(p, LINE_LINE, lines[i][1]);
	}
	c->n = (size_t)(p - c->p);
	return 0;
}

/* The image's Mappings: one per loadable segment that holds code, as a process's memory map
 * would have it (start and file offset rounded down to the page), so an address maps to the
 * ELF's file as pprof's own symbolizer expects; the image's whole loaded range when its
 * segments cannot be read. How many (at most MAX_MAPPINGS). */
#define MAX_MAPPINGS 8
#define PAGE 0x1000u

static size_t mappings(const struct resolved *r, Perftools__Profiles__Mapping *m)
{
	struct elf_segment seg[MAX_MAPPINGS];
	long n = elf_code_segments(r->elf, seg, MAX_MAPPINGS);
	size_t k = 0;

	for (long i = 0; i < n; i++) {
		uint64_t skew = seg[i].vaddr % PAGE == seg[i].offset % PAGE ? seg[i].vaddr % PAGE : 0;
		perftools__profiles__mapping__init(&m[k]);
		m[k].memory_start = seg[i].vaddr - skew + r->load_bias;
		m[k].memory_limit = seg[i].vaddr + seg[i].memsz + r->load_bias;
		m[k].file_offset = seg[i].offset - skew;
		k++;
	}
	if (!k) {
		perftools__profiles__mapping__init(&m[0]);
		if (r->have_span) {
			m[0].memory_start = r->span_lo + r->load_bias;
			m[0].memory_limit = r->span_hi + r->load_bias;
		}
		k = 1;
	}
	for (size_t i = 0; i < k; i++)
		m[i].id = i + 1;
	return k;
}

/* The mapping of a pc in the image: the one that holds it, else the first. */
static uint64_t mapping_of(const Perftools__Profiles__Mapping *m, size_t n, uint64_t pc)
{
	for (size_t i = 0; i < n; i++)
		if (pc >= m[i].memory_start && pc < m[i].memory_limit)
			return m[i].id;
	return 1;
}

/* Locations: one per sampled pc, with its lines. 0, or -1 (out of memory). */
static int emit_locations(struct gz *g, struct pp *pp, const struct loaded_run *lr,
			  struct pcs *it, const Perftools__Profiles__Mapping *map, size_t nmap)
{
	struct chunk c = { 0 };
	struct span_cache sp = { 0 };
	uint64_t pc, count, id = 0, (*lines)[2] = NULL;
	size_t j = 0, cap = 0;
	int rc = -1;

	while (next_pc(it, &pc, &count)) {
		struct flat_pcinfo in = info_at(&lr->r, &j, pc);
		const struct sym_frame *fr = NULL;
		long nf = frames_at(lr, &sp, &in, in.addr, &fr);
		size_t nl = nf > 0 ? (size_t)nf : 1;
		if (nf < 0)
			goto out;
		if (nl > cap) {
			free(lines);
			cap = nl;
			if (!(lines = malloc(cap * sizeof *lines)))
				goto out;
		}
		fill_lines(pp, &in, fr, nf > 0 ? (size_t)nf : 0, lines);
		if (put_location(g, &c, ++id, in.outside ? 0 : mapping_of(map, nmap, pc), pc,
				 (const uint64_t (*)[2])lines, nl))
			goto out;
	}
	if (c.n)
		gz_append(&g->base, c.n, c.p);
	rc = 0;
out:
	free(lines);
	free(c.p);
	return rc;
}

/* ---- with call stacks: a Sample per chain, its Location list leaf first ---- */

struct chains {
	uint64_t *addr;            /* every chain's addresses, one after the other */
	size_t naddr, cap;
	uint32_t *len;             /* per sample: how many */
	uint64_t *count;
	uint16_t *cpu;
	size_t n;
	uint64_t *uniq;            /* the distinct addresses, sorted: location id = rank + 1 */
	size_t nuniq;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static int chains_collect(struct chains *c, const struct loaded_run *lr)
{
	const struct profile *p = &lr->prof;
	uint64_t a[1 + BMPROF_STACK_DEPTH_WIRE_MAX];

	c->len = malloc((p->nstack_samples ? p->nstack_samples : 1) * sizeof *c->len);
	c->count = malloc((p->nstack_samples ? p->nstack_samples : 1) * sizeof *c->count);
	c->cpu = malloc((p->nstack_samples ? p->nstack_samples : 1) * sizeof *c->cpu);
	if (!c->len || !c->count || !c->cpu)
		return -1;
	for (size_t i = 0; i < p->nstack_samples; i++) {
		const struct profile_stack_sample *s = &p->stack_samples[i];
		if (lr->event != FLAT_ALL_EVENTS && s->event != lr->event)
			continue;
		unsigned k = stacks_chain_addrs(p, (struct resolved *)&lr->r, s, a);
		if (c->naddr + k > c->cap) {
			size_t cap = c->cap ? 2 * c->cap : 4096;
			while (cap < c->naddr + k)
				cap *= 2;
			uint64_t *v = realloc(c->addr, cap * sizeof *v);
			if (!v)
				return -1;
			c->addr = v;
			c->cap = cap;
		}
		memcpy(c->addr + c->naddr, a, k * sizeof *a);
		c->naddr += k;
		c->len[c->n] = k;
		c->cpu[c->n] = s->cpu;
		c->count[c->n++] = s->count;
	}
	if (!(c->uniq = malloc((c->naddr ? c->naddr : 1) * sizeof *c->uniq)))
		return -1;
	memcpy(c->uniq, c->addr, c->naddr * sizeof *c->uniq);
	qsort(c->uniq, c->naddr, sizeof *c->uniq, cmp_u64);
	for (size_t i = 0; i < c->naddr; i++)
		if (!c->nuniq || c->uniq[c->nuniq - 1] != c->uniq[i])
			c->uniq[c->nuniq++] = c->uniq[i];
	return 0;
}

static void chains_free(struct chains *c)
{
	free(c->addr);
	free(c->len);
	free(c->count);
	free(c->cpu);
	free(c->uniq);
}

static uint64_t location_of(const struct chains *c, uint64_t addr)
{
	const uint64_t *u = bsearch(&addr, c->uniq, c->nuniq, sizeof *u, cmp_u64);

	return u ? (uint64_t)(u - c->uniq) + 1 : 0;
}

/* Samples: one per chain and CPU, its Location list leaf first, labelled with the CPU. */
static int emit_chain_samples(struct gz *g, struct pp *pp, const struct chains *ch,
			      size_t nvalues, double per_sample)
{
	struct chunk c = { 0 };
	const uint64_t *a = ch->addr;
	int64_t key = str_id(&pp->st, "cpu"), unit = key;

	for (size_t i = 0; i < ch->n; a += ch->len[i], i++) {
		uint64_t v[2] = { ch->count[i],
				  (uint64_t)((double)ch->count[i] * per_sample + 0.5) };
		size_t lid = 0, lv = varint_len(v[0]);
		for (uint32_t k = 0; k < ch->len[i]; k++)
			lid += varint_len(location_of(ch, a[k]));
		if (nvalues > 1)
			lv += varint_len(v[1]);
		size_t ll = field_len((uint64_t)key) + field_len(ch->cpu[i]) +
			    field_len((uint64_t)unit);
		size_t inner = 1 + varint_len(lid) + lid + 1 + varint_len(lv) + lv + 1 +
			       varint_len(ll) + ll;
		if (chunk_room(g, &c, 1 + 10 + inner))
			goto fail;
		uint8_t *p = c.p + c.n;
		*p++ = PROFILE_SAMPLE;
		p = put_varint(p, inner);
		*p++ = SAMPLE_LOCATION_ID;
		p = put_varint(p, lid);
		for (uint32_t k = 0; k < ch->len[i]; k++)
			p = put_varint(p, location_of(ch, a[k]));
		*p++ = SAMPLE_VALUE;
		p = put_varint(p, lv);
		for (size_t k = 0; k < nvalues; k++)
			p = put_varint(p, v[k]);
		*p++ = SAMPLE_LABEL;
		p = put_varint(p, ll);
		p = put_field(p, LABEL_KEY, (uint64_t)key);
		p = put_field(p, LABEL_NUM, ch->cpu[i]);
		p = put_field(p, LABEL_NUM_UNIT, (uint64_t)unit);
		c.n = (size_t)(p - c.p);
	}
	if (c.n)
		gz_append(&g->base, c.n, c.p);
	free(c.p);
	return 0;
fail:
	free(c.p);
	return -1;
}

/* A Location per distinct address of the chains, with its inlined functions. */
static int emit_chain_locations(struct gz *g, struct pp *pp, const struct loaded_run *lr,
				const struct chains *ch, const Perftools__Profiles__Mapping *map,
				size_t nmap)
{
	struct chunk c = { 0 };
	uint64_t (*lines)[2] = NULL;
	size_t cap = 0;
	int rc = -1;

	for (size_t i = 0; i < ch->nuniq; i++) {
		uint64_t pc = ch->uniq[i];
		struct flat_pcinfo in = { .pc = pc, .addr = pc - lr->r.load_bias,
					  .outside = resolve_outside(&lr->r, pc) };
		struct sym_result res = { 0 };
		size_t nf = 0;
		if (!in.outside && lr->r.sym) {
			if (symbolizer_lookup(lr->r.sym, in.addr, &res))
				goto out;
			in.symbol = res.symbol;
			nf = res.symbol ? res.nframes : 0;
		}
		size_t nl = nf ? nf : 1;
		if (nl > cap) {
			free(lines);
			cap = nl;
			if (!(lines = malloc(cap * sizeof *lines)))
				goto out;
		}
		fill_lines(pp, &in, res.frames, nf, lines);
		if (put_location(g, &c, i + 1, in.outside ? 0 : mapping_of(map, nmap, pc), pc,
				 (const uint64_t (*)[2])lines, nl))
			goto out;
	}
	if (c.n)
		gz_append(&g->base, c.n, c.p);
	rc = 0;
out:
	free(lines);
	free(c.p);
	return rc;
}

int export_pprof(FILE *f, const struct loaded_run *lr, char *err, size_t errlen)
{
	const struct profile *p = &lr->prof;
	const struct resolved *r = &lr->r;
	struct profile_sample *copy;
	size_t n, nmap;
	const struct profile_sample *s = profile_ordered(p, &n, &copy);
	struct pp pp;
	struct gz gz = { .base = { .append = gz_append } }, *g = &gz;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct measure ms = measured(lr);
	Perftools__Profiles__ValueType types[2], period_type, *type_ptrs[2] = { &types[0], &types[1] };
	Perftools__Profiles__Mapping map[MAX_MAPPINGS], *map_ptr[MAX_MAPPINGS];
	Perftools__Profiles__Profile part;
	struct pcs it;
	struct chains ch = { 0 };
	int rc = -1, stacks = profile_has_stacks(p);

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memset(&pp, 0, sizeof pp);
	pp.st.cap = 64;
	pp.st.s = bm_malloc(pp.st.cap * sizeof *pp.st.s);
	pp.st.s[pp.st.n++] = bm_strdup("");    /* string_table[0] */
	/* fast compression on every CPU: a profile of millions of pcs packs to hundreds of MB */
	g->out = gzip_out_open(f, Z_BEST_SPEED, cpus > 1 ? (unsigned)cpus : 1);
	if (!g->out) {
		snprintf(err, errlen, "out of memory");
		pp_free(&pp);
		free(copy);
		return -1;
	}
	pcs_open(&it, s, n, lr->event);
	for (int i = 0; i < 2; i++)
		perftools__profiles__value_type__init(&types[i]);
	types[0].type = str_id(&pp.st, "samples");
	types[0].unit = str_id(&pp.st, "count");
	if (ms.type) {
		types[1].type = str_id(&pp.st, ms.type);
		types[1].unit = str_id(&pp.st, ms.unit);
	}
	perftools__profiles__profile__init(&part);
	part.sample_type = type_ptrs;
	part.n_sample_type = ms.type ? 2 : 1;
	emit(g, &part);

	if (stacks ? chains_collect(&ch, lr) ||
		     emit_chain_samples(g, &pp, &ch, part.n_sample_type, ms.per_sample) :
		     emit_samples(g, &pp, &it, part.n_sample_type, ms.per_sample)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}

	/* the image */
	char id[2 * BMPROF_BUILD_ID_MAX + 1] = "";
	nmap = mappings(r, map);
	if (p->hello.build_id_len)
		bm_hex(id, sizeof id, p->hello.build_id, p->hello.build_id_len);
	for (size_t i = 0; i < nmap; i++) {
		map[i].filename = str_id(&pp.st, r->elf);
		map[i].build_id = str_id(&pp.st, id);
		map[i].has_functions = r->sym != NULL;
		map[i].has_filenames = map[i].has_line_numbers = map[i].has_inline_frames =
			r->has_dwarf;
		map_ptr[i] = &map[i];
	}
	perftools__profiles__profile__init(&part);
	part.mapping = map_ptr;
	part.n_mapping = nmap;
	emit(g, &part);

	it.i = 0;
	if (stacks ? emit_chain_locations(g, &pp, lr, &ch, map, nmap) :
		     emit_locations(g, &pp, lr, &it, map, nmap)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	perftools__profiles__profile__init(&part);
	part.function = pp.funcs;
	part.n_function = pp.nfuncs;
	emit(g, &part);
	perftools__profiles__profile__init(&part);
	part.string_table = pp.st.s;
	part.n_string_table = pp.st.n;
	emit(g, &part);
	if (ms.type) {
		perftools__profiles__value_type__init(&period_type);
		period_type.type = types[1].type;
		period_type.unit = types[1].unit;
		perftools__profiles__profile__init(&part);
		part.period_type = &period_type;
		part.period = ms.period;
		emit(g, &part);
	}
	rc = 0;
out:
	if (gzip_out_close(g->out) || g->failed) {
		if (!rc)
			snprintf(err, errlen, "writing the compressed profile failed");
		rc = -1;
	}
	pcs_close(&it);
	chains_free(&ch);
	pp_free(&pp);
	free(copy);
	return rc;
}
