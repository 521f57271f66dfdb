/* A profile as gzipped pprof (export_pprof.h). */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "export_pprof.h"
#include "profile.pb-c.h"
#include "util.h"

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

/* Everything the message points at, to free at the end. */
struct pp {
	struct strtab st;
	Perftools__Profiles__Profile prof;
	Perftools__Profiles__ValueType types[2], period_type;
	Perftools__Profiles__ValueType *type_ptrs[2];
	Perftools__Profiles__Mapping map;
	Perftools__Profiles__Mapping *map_ptr;
	Perftools__Profiles__Sample *samples;
	Perftools__Profiles__Sample **sample_ptrs;
	Perftools__Profiles__Location *locs;
	Perftools__Profiles__Location **loc_ptrs;
	Perftools__Profiles__Function **funcs;
	size_t nfuncs;
	size_t *fslot, nfslots;      /* hash index over funcs: function index + 1; 0 empty */
	uint64_t *loc_ids;           /* one per location (its sample's location_id) */
	int64_t *values;             /* 2 per sample */
};

static uint64_t fhash(int64_t name, int64_t file)
{
	return ((uint64_t)name * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)file * 0xc2b2ae3d27d4eb4full);
}

/* The Function of (name, file), made once (a hash index over the pair of string ids). */
static uint64_t function_id(struct pp *pp, const char *name, const char *file)
{
	int64_t n = str_id(&pp->st, name ? name : "??"), f = str_id(&pp->st, file);

	if (2 * (pp->nfuncs + 1) >= pp->nfslots) {
		free(pp->fslot);
		pp->nfslots = pp->nfslots ? 2 * pp->nfslots : 256;
		pp->fslot = bm_calloc(pp->nfslots, sizeof *pp->fslot);
		for (size_t i = 0; i < pp->nfuncs; i++) {
			size_t k = fhash(pp->funcs[i]->name, pp->funcs[i]->filename) & (pp->nfslots - 1);
			while (pp->fslot[k])
				k = (k + 1) & (pp->nfslots - 1);
			pp->fslot[k] = i + 1;
		}
	}
	size_t k = fhash(n, f) & (pp->nfslots - 1);
	for (; pp->fslot[k]; k = (k + 1) & (pp->nfslots - 1)) {
		const Perftools__Profiles__Function *fn = pp->funcs[pp->fslot[k] - 1];
		if (fn->name == n && fn->filename == f)
			return fn->id;
	}
	pp->funcs = bm_realloc(pp->funcs, (pp->nfuncs + 1) * sizeof *pp->funcs);
	Perftools__Profiles__Function *fn = bm_malloc(sizeof *fn);
	perftools__profiles__function__init(fn);
	fn->id = pp->nfuncs + 1;
	fn->name = n;
	fn->system_name = n;
	fn->filename = f;
	pp->funcs[pp->nfuncs++] = fn;
	pp->fslot[k] = pp->nfuncs;
	return fn->id;
}

/* The location's lines: the symbolizer's frames, innermost first (pprof's order: the last
 * is the caller the others were inlined into); else the symbol alone. */
static void location_lines(struct pp *pp, const struct loaded_run *lr,
			   const struct flat_pcinfo *in, Perftools__Profiles__Location *loc)
{
	struct sym_result res;
	unsigned n = 0;
	const struct sym_frame *fr = NULL;

	if (!in->outside && lr->r.sym && !symbolizer_lookup(lr->r.sym, in->addr, &res) &&
	    res.symbol && res.nframes) {
		n = res.nframes;
		fr = res.frames;
	}
	loc->n_line = n ? n : 1;
	loc->line = bm_calloc(loc->n_line, sizeof *loc->line);
	for (size_t i = 0; i < loc->n_line; i++) {
		Perftools__Profiles__Line *l = bm_malloc(sizeof *l);
		perftools__profiles__line__init(l);
		if (n) {
			const char *file = strcmp(fr[i].file, "??") ? fr[i].file : NULL;
			l->function_id = function_id(pp, strcmp(fr[i].function, "??") ? fr[i].function
						     : in->symbol, file);
			l->line = fr[i].line;
		} else {
			l->function_id = function_id(pp, in->symbol ? in->symbol : in->outside
						     ? "[firmware]" : "[unknown]", in->file);
			l->line = in->line;
		}
		loc->line[i] = l;
	}
}

/* Nanoseconds per sample when the event is the timer and its rate is known; else 0. */
static double ns_per_sample(const struct loaded_run *lr)
{
	const struct profile *p = &lr->prof;
	const struct profile_event *e = NULL;

	if (lr->event != FLAT_ALL_EVENTS)
		e = profile_event(p, (uint16_t)lr->event);
	else if (p->nevents == 1)
		e = &p->events[0];
	if (!e || e->source != BMPROF_SOURCE_TIMER || !e->period || !p->hello.timebase_hz)
		return 0;
	return 1e9 * (double)e->period / (double)p->hello.timebase_hz;
}

static int gzip_write(FILE *f, const uint8_t *buf, size_t len, char *err, size_t errlen)
{
	z_stream z;
	uint8_t out[16384];
	int rc;

	memset(&z, 0, sizeof z);
	/* 15 + 16: a gzip header and trailer instead of zlib's */
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY)) {
		snprintf(err, errlen, "zlib: cannot start compressing");
		return -1;
	}
	z.next_in = (Bytef *)buf;
	z.avail_in = (uInt)len;
	do {
		z.next_out = out;
		z.avail_out = sizeof out;
		rc = deflate(&z, Z_FINISH);
		size_t have = sizeof out - z.avail_out;
		if (have && fwrite(out, 1, have, f) != have) {
			deflateEnd(&z);
			snprintf(err, errlen, "write failed");
			return -1;
		}
	} while (rc == Z_OK);
	deflateEnd(&z);
	if (rc != Z_STREAM_END) {
		snprintf(err, errlen, "zlib: compression failed");
		return -1;
	}
	return 0;
}

static void pp_free(struct pp *pp, size_t nlocs)
{
	for (size_t i = 0; i < nlocs; i++) {
		for (size_t k = 0; k < pp->locs[i].n_line; k++)
			free(pp->locs[i].line[k]);
		free(pp->locs[i].line);
	}
	for (size_t i = 0; i < pp->nfuncs; i++)
		free(pp->funcs[i]);
	free(pp->funcs);
	free(pp->fslot);
	for (size_t i = 0; i < pp->st.n; i++)
		free(pp->st.s[i]);
	free(pp->st.s);
	free(pp->st.slot);
	free(pp->samples);
	free(pp->sample_ptrs);
	free(pp->locs);
	free(pp->loc_ptrs);
	free(pp->loc_ids);
	free(pp->values);
}

int export_pprof(FILE *f, const struct loaded_run *lr, char *err, size_t errlen)
{
	const struct profile *p = &lr->prof;
	const struct resolved *r = &lr->r;
	struct pp pp;
	size_t n = 0, cap = r->ninfo ? r->ninfo : 1;
	double ns = ns_per_sample(lr);
	uint64_t *counts = bm_calloc(cap, sizeof *counts);
	int rc;

	memset(&pp, 0, sizeof pp);
	pp.st.cap = 64;
	pp.st.s = bm_malloc(pp.st.cap * sizeof *pp.st.s);
	pp.st.s[pp.st.n++] = bm_strdup("");    /* string_table[0] */
	/* samples of the event per distinct pc (info is sorted by pc, unique) */
	for (size_t i = 0; i < p->nsamples; i++) {
		const struct profile_sample *s = &p->samples[i];
		if (lr->event != FLAT_ALL_EVENTS && s->event != lr->event)
			continue;
		size_t lo = 0, hi = r->ninfo;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (r->info[mid].pc < s->pc)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < r->ninfo && r->info[lo].pc == s->pc)
			counts[lo] += s->count;
	}
	perftools__profiles__profile__init(&pp.prof);
	for (int i = 0; i < 2; i++) {
		perftools__profiles__value_type__init(&pp.types[i]);
		pp.type_ptrs[i] = &pp.types[i];
	}
	pp.types[0].type = str_id(&pp.st, "samples");
	pp.types[0].unit = str_id(&pp.st, "count");
	pp.types[1].type = str_id(&pp.st, "cpu");
	pp.types[1].unit = str_id(&pp.st, "nanoseconds");
	pp.prof.sample_type = pp.type_ptrs;
	pp.prof.n_sample_type = ns > 0 ? 2 : 1;
	if (ns > 0) {
		perftools__profiles__value_type__init(&pp.period_type);
		pp.period_type.type = pp.types[1].type;
		pp.period_type.unit = pp.types[1].unit;
		pp.prof.period_type = &pp.period_type;
		pp.prof.period = (int64_t)(ns + 0.5);
	}
	/* the image */
	char id[2 * BMPROF_BUILD_ID_MAX + 1] = "";
	perftools__profiles__mapping__init(&pp.map);
	pp.map.id = 1;
	if (r->have_span) {
		pp.map.memory_start = r->span_lo + r->load_bias;
		pp.map.memory_limit = r->span_hi + r->load_bias;
	}
	pp.map.filename = str_id(&pp.st, r->elf);
	if (p->hello.build_id_len)
		bm_hex(id, sizeof id, p->hello.build_id, p->hello.build_id_len);
	pp.map.build_id = str_id(&pp.st, id);
	pp.map.has_functions = r->sym != NULL;
	pp.map.has_filenames = pp.map.has_line_numbers = pp.map.has_inline_frames = r->has_dwarf;
	pp.map_ptr = &pp.map;
	pp.prof.mapping = &pp.map_ptr;
	pp.prof.n_mapping = 1;
	/* a location and a sample per sampled pc */
	pp.locs = bm_calloc(cap, sizeof *pp.locs);
	pp.loc_ptrs = bm_calloc(cap, sizeof *pp.loc_ptrs);
	pp.samples = bm_calloc(cap, sizeof *pp.samples);
	pp.sample_ptrs = bm_calloc(cap, sizeof *pp.sample_ptrs);
	pp.loc_ids = bm_calloc(cap, sizeof *pp.loc_ids);
	pp.values = bm_calloc(2 * cap, sizeof *pp.values);
	for (size_t i = 0; i < r->ninfo; i++) {
		const struct flat_pcinfo *in = &r->info[i];
		if (!counts[i])
			continue;
		Perftools__Profiles__Location *loc = &pp.locs[n];
		perftools__profiles__location__init(loc);
		loc->id = n + 1;
		loc->mapping_id = in->outside ? 0 : 1;
		loc->address = in->pc;
		location_lines(&pp, lr, in, loc);
		pp.loc_ptrs[n] = loc;
		Perftools__Profiles__Sample *s = &pp.samples[n];
		perftools__profiles__sample__init(s);
		pp.loc_ids[n] = loc->id;
		s->location_id = &pp.loc_ids[n];
		s->n_location_id = 1;
		pp.values[2 * n] = (int64_t)counts[i];
		pp.values[2 * n + 1] = (int64_t)((double)counts[i] * ns + 0.5);
		s->value = &pp.values[2 * n];
		s->n_value = pp.prof.n_sample_type;
		pp.sample_ptrs[n] = s;
		n++;
	}
	free(counts);
	pp.prof.location = pp.loc_ptrs;
	pp.prof.n_location = n;
	pp.prof.sample = pp.sample_ptrs;
	pp.prof.n_sample = n;
	pp.prof.function = pp.funcs;
	pp.prof.n_function = pp.nfuncs;
	pp.prof.string_table = pp.st.s;
	pp.prof.n_string_table = pp.st.n;

	size_t len = perftools__profiles__profile__get_packed_size(&pp.prof);
	uint8_t *buf = bm_malloc(len ? len : 1);
	perftools__profiles__profile__pack(&pp.prof, buf);
	rc = gzip_write(f, buf, len, err, errlen);
	free(buf);
	pp_free(&pp, n);
	return rc;
}
