/* SPDX-License-Identifier: BSD-2-Clause */
/* The symbolizer's public API: opening an ELF, per-address lookups with a result cache,
 * batches, and the helpers annotate needs (function by name, bytes, line rows). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbol/sym_internal.h"
#include "util/util.h"

/* Why an ELF gives libdw no DWARF: its sections cannot be named (a damaged e_shstrndx
 * hides every .debug_* section), its DWARF is there but unreadable, or there is none. */
static void no_dwarf_why(struct symbolizer *s, int dw_errno)
{
	size_t unnamed = 0, debug = 0;

	for (size_t i = 0; i < s->nsecs; i++) {
		const char *n = s->secs[i].name;

		unnamed += !n[0] && s->secs[i].type != SHT_NULL;
		debug += !strncmp(n, ".debug_", 7) || !strncmp(n, ".zdebug_", 8);
	}
	if (s->bad_shstrtab || (s->nsecs && unnamed == s->nsecs))
		snprintf(s->no_dwarf, sizeof s->no_dwarf, "its section names cannot be read (the "
			 "ELF header's e_shstrndx is damaged), so its DWARF sections cannot be "
			 "found: copy or rebuild the ELF");
	else if (debug)
		snprintf(s->no_dwarf, sizeof s->no_dwarf, "its DWARF sections cannot be read "
			 "(%s)", dwarf_errmsg(dw_errno));
	else
		snprintf(s->no_dwarf, sizeof s->no_dwarf, "it has no DWARF line information "
			 "(build with -g)");
}

struct symbolizer *symbolizer_open(const char *elf_path, char *err, size_t errlen)
{
	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(err, errlen, "libelf is unusable: %s", elf_errmsg(-1));
		return NULL;
	}
	int fd = bm_open_regular(elf_path, "an ELF file", err, errlen);
	if (fd < 0)
		return NULL;
	struct symbolizer *s = calloc(1, sizeof(*s));
	if (!s) {
		close(fd);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->fd = fd;
	pthread_mutexattr_t ma;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&s->lock, &ma);
	pthread_mutexattr_destroy(&ma);
	s->results.elem = sizeof(struct sym_result);
	char why[200];
	if (sym_elf_check(fd, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s: %s", elf_path, why);
		goto fail;
	}
	s->elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!s->elf) {
		snprintf(err, errlen, "%s: corrupt ELF file (%s)", elf_path, elf_errmsg(-1));
		goto fail;
	}
	if (sym_elf_load(s, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s: %s", elf_path, why);
		goto fail;
	}
	/* No DWARF is not an error: lookups then give symbols only. */
	s->dw = dwarf_begin_elf(s->elf, DWARF_C_READ, NULL);
	if (!s->dw)
		no_dwarf_why(s, dwarf_errno());
	if (s->dw) {
		s->debug_line = sym_section_data(s, ".debug_line", &s->debug_line_len);
		s->debug_line_str = sym_section_data(s, ".debug_line_str", &s->debug_line_str_len);
		s->debug_str = sym_section_data(s, ".debug_str", &s->debug_str_len);
		s->debug_info = sym_section_data(s, ".debug_info", &s->debug_info_len);
		s->debug_abbrev = sym_section_data(s, ".debug_abbrev", &s->debug_abbrev_len);
		s->debug_ranges = sym_section_data(s, ".debug_ranges", &s->debug_ranges_len);
		s->debug_rnglists = sym_section_data(s, ".debug_rnglists", &s->debug_rnglists_len);
		s->debug_addr = sym_section_data(s, ".debug_addr", &s->debug_addr_len);
		s->debug_str_offsets = sym_section_data(s, ".debug_str_offsets",
							&s->debug_str_offsets_len);
	}
	return s;
fail:
	symbolizer_close(s);
	return NULL;
}

void symbolizer_close(struct symbolizer *s)
{
	if (!s)
		return;
	if (s->dw)
		dwarf_end(s->dw);
	if (s->elf)
		elf_end(s->elf);
	close(s->fd);
	free(s->secs);
	free(s->funcs);
	free(s->byname);
	free(s->fb);
	free(s->armmap);
	free(s->cus);
	free(s->cu_ranges);
	free(s->cu_range_maxhi);
	free(s->cu_iv_lo);
	free(s->cu_iv_first);
	free(s->cu_iv_cus);
	free(s->sec_iv_lo);
	free(s->sec_iv);
	free(s->cu_norange);
	u64map_free(&s->name_cache);
	u64map_free(&s->abbrev_cache);
	vec_free(&s->abbrevs);
	vec_free(&s->names);
	vec_free(&s->scratch.rows);
	vec_free(&s->scratch.seqs);
	pthread_mutex_destroy(&s->lock);
	u64map_free(&s->cache);
	free(s->runs);
	vec_free(&s->results);
	arena_free(&s->arena);
	free(s);
}

void symbolizer_build_id(const struct symbolizer *s, const uint8_t **id, size_t *len)
{
	*id = s->build_id;
	*len = s->build_id_len;
}

int symbolizer_has_dwarf(const struct symbolizer *s)
{
	return s->dw != NULL;
}

const char *symbolizer_no_dwarf_why(const struct symbolizer *s)
{
	return s->dw ? NULL : s->no_dwarf;
}

int symbolizer_has_symbols(const struct symbolizer *s)
{
	return s->nfuncs > 0;
}

int symbolizer_machine(const struct symbolizer *s)
{
	return s->machine;
}

static int ensure_index(struct symbolizer *s)
{
	if (!s->dw || s->cus_indexed)
		return 0;
	return sym_cu_index(s);
}


static const char *cu_file(const struct sym_cu *cu, uint32_t idx)
{
	if (idx == SYM_NONE)
		return NULL;
	return idx < cu->nfiles ? cu->files[idx] : "<unknown>";
}

/* The first CU, in addr2line's order, with a line row or a function at addr. */
static struct sym_cu *find_cu(struct symbolizer *s, uint64_t addr, uint32_t *li, uint32_t *fi)
{
	uint32_t cand[SYM_MAX_CANDIDATES];
	size_t nc = s->dw ? sym_candidate_cus(s, addr, cand, SYM_MAX_CANDIDATES) : 0;
	for (size_t i = 0; i < nc; i++) {
		struct sym_cu *c = &s->cus[cand[i]];
		if (sym_cu_decode(s, c) < 0)
			continue;
		*li = sym_line_find(c, addr);
		*fi = sym_die_find(c, addr);
		if (*li != SYM_NONE || *fi != SYM_NONE)
			return c;
	}
	return NULL;
}

/* No DWARF at addr: addr2line names the symbol-table function it falls in, if any. */
int sym_symtab_frame(struct symbolizer *s, struct arena *a, uint64_t addr,
		     const struct sym_section *sec, struct sym_result *r)
{
	const struct sym_fallback *fb = sym_fallback_at(s, addr, sec->index);
	if (!fb)
		return 0;
	struct sym_frame *f = arena_alloc(a, sizeof(*f));
	if (!f)
		return -1;
	*f = (struct sym_frame){ fb->name[0] ? fb->name : "??", fb->file ? fb->file : "??", 0, 0,
				 0 };
	r->frames = f;
	r->nframes = 1;
	return 0;
}

/* The innermost function (line row li, function DIE fi) and its inlining callers. */
int sym_dwarf_frames(struct symbolizer *s, struct arena *a, const struct sym_cu *cu,
		     uint32_t li, uint32_t fi, uint64_t addr, const struct sym_section *sec,
		     struct sym_result *r)
{
	unsigned n = 1;
	for (uint32_t x = fi; x != SYM_NONE && cu->fns[x].inlined && cu->fns[x].parent != SYM_NONE;
	     x = cu->fns[x].parent)
		n++;
	struct sym_frame *f = arena_alloc(a, n * sizeof(*f));
	if (!f)
		return -1;
	/* addr2line takes the symbol table's name where DWARF has no function or no linkage
	 * name for it */
	const struct sym_fn *fn = fi != SYM_NONE ? &cu->fns[fi] : NULL;
	const char *name = fn ? fn->name : NULL;
	if (!fn || !fn->linkage) {
		const struct sym_fallback *fb = sym_fallback_at(s, addr, sec->index);
		if (fb)
			name = fb->name;
	}
	f[0] = (struct sym_frame){ .function = name };
	if (li != SYM_NONE) {
		const struct sym_row *row = &cu->rows[li];
		f[0].file = cu_file(cu, row->file);
		f[0].line = row->line;
		f[0].column = row->column;
		f[0].discriminator = row->discr;
	}
	unsigned k = 1;
	for (uint32_t x = fi; k < n; x = cu->fns[x].parent, k++) {
		const struct sym_fn *in = &cu->fns[x];
		f[k] = (struct sym_frame){ cu->fns[in->parent].name, cu_file(cu, in->call_file),
					   in->call_line, in->call_column, 0 };
	}
	for (k = 0; k < n; k++) {
		if (!f[k].function || !f[k].function[0])
			f[k].function = "??";
		if (!f[k].file)
			f[k].file = "??";
	}
	r->frames = f;
	r->nframes = n;
	return 0;
}

/* What addr2line -f -i prints for addr, as frames (nframes 0: "??" / "??:0"). */
static int resolve_frames(struct symbolizer *s, struct arena *a, uint64_t addr,
			  struct sym_result *r)
{
	const struct sym_section *sec = sym_section_at(s, addr);
	if (!sec)
		return 0;
	if (ensure_index(s) < 0)
		return -1;
	uint32_t li = SYM_NONE, fi = SYM_NONE;
	const struct sym_cu *cu = find_cu(s, addr, &li, &fi);
	return cu ? sym_dwarf_frames(s, a, cu, li, fi, addr, sec, r) :
		    sym_symtab_frame(s, a, addr, sec, r);
}

/* A new, unresolved result for addr: its id, or SYM_NONE when out of memory. */
static uint32_t new_result(struct symbolizer *s, uint64_t addr)
{
	if (s->results.n >= SYM_NONE - 1)
		return SYM_NONE;
	struct sym_result *r = vec_push(&s->results);
	if (!r)
		return SYM_NONE;
	*r = (struct sym_result){ .addr = addr, .id = (uint32_t)(s->results.n - 1) };
	return r->id;
}

/* The answer for addr into r (frames in arena a). */
static int answer(struct symbolizer *s, struct arena *a, uint64_t addr, struct sym_result *r)
{
	const struct sym_func *fn = sym_func_at(s, addr);
	if (fn) {
		r->symbol = fn->name;
		r->sym_start = fn->addr;
		r->sym_size = fn->size;
	}
	return resolve_frames(s, a, addr, r);
}

/* Fill result id for addr (passed in: reading the result first would be a cache miss). */
static int resolve(struct symbolizer *s, uint32_t id, uint64_t addr)
{
	struct sym_result r = { .addr = addr, .id = id };
	if (answer(s, &s->arena, addr, &r) < 0)
		return -1;
	((struct sym_result *)s->results.data)[id] = r;
	return 0;
}

int symbolizer_lookup_span(struct symbolizer *s, uint64_t addr, struct sym_result *out,
			   uint64_t *until)
{
	*out = (struct sym_result){ .addr = addr, .id = SYM_NONE };
	if (answer(s, &s->arena, addr, out) < 0)
		return -1;
	*until = sym_span_end(s, addr);
	return 0;
}

/* The id of a result for addr, if one was made: in the cache of single lookups, or in a
 * batch's sorted run of results. */
static int known_id(const struct symbolizer *s, uint64_t addr, uint32_t *id)
{
	const struct sym_result *res = s->results.data;
	uint32_t *slot = s->cache.n || s->cache.has_max ? u64map_find((struct u64map *)&s->cache,
								     addr) : NULL;

	if (slot) {
		*id = *slot;
		return 1;
	}
	for (size_t i = 0; i < s->nruns; i++) {
		size_t lo = s->runs[i].first, hi = lo + s->runs[i].n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (res[mid].addr < addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < s->runs[i].first + s->runs[i].n && res[lo].addr == addr) {
			*id = (uint32_t)lo;
			return 1;
		}
	}
	return 0;
}

/* The cache maps each address looked up to its result id. */
static int lookup_one(struct symbolizer *s, uint64_t addr, uint32_t *id)
{
	if (known_id(s, addr, id))
		return 0;
	uint32_t *slot = u64map_slot(&s->cache, addr);
	uint32_t nid = slot ? new_result(s, addr) : SYM_NONE;
	if (nid == SYM_NONE || resolve(s, nid, addr) < 0) {
		if (nid != SYM_NONE) {
			s->results.n--;
			u64map_remove(&s->cache, addr);
		}
		return -1;
	}
	*slot = nid;
	*id = nid;
	return 0;
}

int symbolizer_lookup(struct symbolizer *s, uint64_t addr, struct sym_result *out)
{
	uint32_t id;
	if (lookup_one(s, addr, &id) < 0)
		return -1;
	*out = ((struct sym_result *)s->results.data)[id];
	return 0;
}

/* Decode, in parallel, the CUs the lookups of the n sorted new addresses may try: those
 * whose ranges hold any of them, and those without ranges. */
static int decode_needed(struct symbolizer *s, const uint64_t *addr, size_t n)
{
	if (!s->dw || !n)
		return 0;
	if (ensure_index(s) < 0)
		return -1;
	bool *want = calloc(s->ncus ? s->ncus : 1, sizeof(*want));
	uint32_t *list = malloc((s->ncus ? s->ncus : 1) * sizeof(*list));
	if (!want || !list) {
		free(want);
		free(list);
		return -1;
	}
	size_t nl = 0;
	for (size_t i = 0; i < s->ncu_ranges; i++) {
		const struct sym_cu_range *r = &s->cu_ranges[i];
		size_t lo = 0, hi = n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (addr[mid] < r->lo)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < n && addr[lo] < r->hi && !want[r->cu] && !s->cus[r->cu].decoded) {
			want[r->cu] = true;
			list[nl++] = r->cu;
		}
	}
	for (size_t i = 0; i < s->ncu_norange; i++) {
		uint32_t cu = s->cu_norange[i];
		if (!want[cu] && !s->cus[cu].decoded) {
			want[cu] = true;
			list[nl++] = cu;
		}
	}
	sym_decode_cus(s, list, nl);
	free(want);
	free(list);
	return 0;
}

/* Resolving a slice of a batch's new addresses, sorted, one span of like answers at a
 * time, into results first.. (frames in the slice's own arena). */
struct slice {
	struct symbolizer *s;
	const uint64_t *addr;
	size_t n;
	uint32_t first;
	struct arena arena;
	int rc;
};

static void resolve_slice(struct slice *sl)
{
	struct sym_result *res = (struct sym_result *)sl->s->results.data + sl->first;
	struct sym_walk w;

	sl->rc = sym_walk_init(&w, sl->s);
	for (size_t i = 0; i < sl->n && !sl->rc; i++) {
		res[i] = (struct sym_result){ .addr = sl->addr[i], .id = sl->first + (uint32_t)i };
		sl->rc = sym_walk_answer(sl->s, &w, &sl->arena, sl->addr[i], &res[i]);
	}
	sym_walk_free(&w);
}

static void *slice_worker(void *arg)
{
	resolve_slice(arg);
	return NULL;
}

#define MAX_SLICES 8
#define SLICE_MIN 20000

/* Resolve the n new sorted addresses into results first..: on several threads when there
 * are many (the CUs they need are decoded: nothing shared is written but the results,
 * each thread its own). 0 or -1. */
static int resolve_sorted(struct symbolizer *s, const uint64_t *addr, size_t n, uint32_t first)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t ns = cpus > 1 ? (size_t)cpus : 1;
	struct slice sl[MAX_SLICES];
	pthread_t tid[MAX_SLICES];
	size_t started = 0;
	int rc = 0;

	size_t per = s->slice_min ? s->slice_min : SLICE_MIN;
	ns = ns > MAX_SLICES ? MAX_SLICES : ns;
	ns = ns > n / per ? (n / per ? n / per : 1) : ns;
	for (size_t i = 0; i < ns; i++) {
		size_t from = n * i / ns, to = n * (i + 1) / ns;
		sl[i] = (struct slice){ s, addr + from, to - from, first + (uint32_t)from, { 0 }, 0 };
	}
	for (size_t i = 1; i < ns; i++, started++)
		if (pthread_create(&tid[i], NULL, slice_worker, &sl[i]))
			break;
	resolve_slice(&sl[0]);
	for (size_t i = 1; i <= started; i++)
		pthread_join(tid[i], NULL);
	for (size_t i = started + 1; i < ns; i++)
		resolve_slice(&sl[i]);   /* a thread that did not start */
	for (size_t i = 0; i < ns; i++) {
		rc |= sl[i].rc;
		arena_adopt(&s->arena, &sl[i].arena);
	}
	return rc;
}

/* Results for a batch of new addresses are kept in address order as a run the lookups
 * search; a small batch's go into the hash map instead. */
#define RUN_MIN 4096

static int remember(struct symbolizer *s, uint32_t first, size_t n)
{
	const struct sym_result *res = s->results.data;

	if (n >= RUN_MIN) {
		struct sym_run *r = realloc(s->runs, (s->nruns + 1) * sizeof(*r));
		if (!r)
			return -1;
		s->runs = r;
		s->runs[s->nruns++] = (struct sym_run){ first, n };
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t *slot = u64map_slot(&s->cache, res[first + i].addr);
		if (!slot) {
			for (size_t k = 0; k < i; k++)
				u64map_remove(&s->cache, res[first + k].addr);
			return -1;
		}
		*slot = first + (uint32_t)i;
	}
	return 0;
}

int symbolizer_lookup_ids(struct symbolizer *s, const uint64_t *addrs, size_t n,
			  uint32_t *ids)
{
	/* The addresses are sorted (with their places), those not looked up before get ids
	 * in address order and are resolved in that order, a span of like answers at a time:
	 * each CU is decoded once, its tables stay warm, and results sit in memory in the
	 * order they are filled. */
	size_t first = s->results.n, nfresh = 0;
	struct sym_key *k = malloc((n ? n : 1) * sizeof(*k));
	uint64_t *fresh = malloc((n ? n : 1) * sizeof(*fresh));
	int rc = -1;

	if (!k || !fresh)
		goto out;
	bool sorted = true, seen = s->cache.n || s->cache.has_max || s->nruns;
	for (size_t i = 0; i < n; i++) {
		k[i] = (struct sym_key){ addrs[i], (uint32_t)i };
		sorted &= !i || addrs[i - 1] <= addrs[i];
	}
	if (!sorted)
		sym_sort_keys(k, n);
	for (size_t i = 0, j; i < n; i = j) {
		uint32_t id;
		if (!seen || !known_id(s, k[i].key, &id)) {
			if (first + nfresh >= SYM_NONE - 1)
				goto out;
			id = (uint32_t)(first + nfresh);
			fresh[nfresh++] = k[i].key;
		}
		for (j = i; j < n && k[j].key == k[i].key; j++)
			ids[k[j].val] = id;
	}
	free(k);
	k = NULL;
	if (nfresh && first + nfresh > s->results.cap) {
		void *d = realloc(s->results.data, (first + nfresh) * sizeof(struct sym_result));
		if (!d)
			goto out;
		s->results.data = d;
		s->results.cap = first + nfresh;
	}
	if (decode_needed(s, fresh, nfresh) < 0)
		goto out;
	s->results.n = first + nfresh;
	if (resolve_sorted(s, fresh, nfresh, (uint32_t)first) < 0 ||
	    remember(s, (uint32_t)first, nfresh) < 0) {
		s->results.n = first;
		goto out;
	}
	rc = 0;
out:
	free(k);
	free(fresh);
	return rc;
}

int symbolizer_lookup_batch(struct symbolizer *s, const uint64_t *addrs, size_t n,
			    struct sym_result *out)
{
	uint32_t *ids = malloc((n ? n : 1) * sizeof(*ids));
	if (!ids || symbolizer_lookup_ids(s, addrs, n, ids) < 0) {
		free(ids);
		return -1;
	}
	const struct sym_result *res = s->results.data;
	for (size_t i = 0; i < n; i++)
		out[i] = res[ids[i]];
	free(ids);
	return 0;
}

int symbolizer_result(const struct symbolizer *s, uint32_t id, struct sym_result *out)
{
	if (id >= s->results.n)
		return -1;
	*out = ((const struct sym_result *)s->results.data)[id];
	return 0;
}

int symbolizer_find_function(struct symbolizer *s, const char *name, uint64_t *start,
			     uint64_t *size)
{
	const struct sym_func *f = sym_func_named(s, name);
	if (!f)
		return -1;
	*start = f->addr;
	*size = f->size;
	return 0;
}

size_t symbolizer_nfunctions(const struct symbolizer *s)
{
	return s->nfuncs;
}

int symbolizer_function(const struct symbolizer *s, size_t i, const char **name,
			uint64_t *start, uint64_t *size)
{
	if (i >= s->nfuncs)
		return -1;
	*name = s->funcs[i].name;
	*start = s->funcs[i].addr;
	*size = s->funcs[i].size;
	return 0;
}

/* The allocated section holding addr, or NULL. */
static const struct sym_section *loaded_section(const struct symbolizer *s, uint64_t addr)
{
	for (size_t i = 0; i < s->nsecs; i++) {
		const struct sym_section *sec = &s->secs[i];
		if ((sec->flags & SHF_ALLOC) && !(sec->flags & SHF_TLS) &&
		    addr >= sec->addr && addr - sec->addr < sec->size)
			return sec;
	}
	return NULL;
}

int symbolizer_in_file(struct symbolizer *s, uint64_t addr, uint64_t len)
{
	size_t fsize;

	if (!elf_rawfile(s->elf, &fsize))
		return 0;
	while (len) {
		const struct sym_section *hit = loaded_section(s, addr);
		if (!hit || hit->type == SHT_NOBITS)
			return 0;
		uint64_t off = addr - hit->addr, n = hit->size - off < len ? hit->size - off : len;
		if (hit->offset > fsize || off > fsize - hit->offset ||
		    n > fsize - hit->offset - off)
			return 0;
		addr += n;
		len -= n;
	}
	return 1;
}

int symbolizer_read(struct symbolizer *s, uint64_t addr, void *buf, size_t len)
{
	size_t fsize;
	const uint8_t *file = (const uint8_t *)elf_rawfile(s->elf, &fsize);
	uint8_t *dst = buf;
	while (len) {
		const struct sym_section *hit = loaded_section(s, addr);
		if (!hit)
			return -1;
		uint64_t off = addr - hit->addr;
		size_t n = hit->size - off < len ? (size_t)(hit->size - off) : len;
		if (hit->type == SHT_NOBITS)
			memset(dst, 0, n);
		else if (file && hit->offset + off + n <= fsize)
			memcpy(dst, file + hit->offset + off, n);
		else
			return -1;
		dst += n;
		addr += n;
		len -= n;
	}
	return 0;
}

struct line_hit {
	uint64_t addr;
	const char *file;
	unsigned line;
	size_t order;
};

static int cmp_line_hit(const void *a, const void *b)
{
	const struct line_hit *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int collect_lines(struct sym_cu *cu, uint64_t lo, uint64_t hi, struct vec *out)
{
	uint32_t first = sym_line_find(cu, lo);
	size_t i = first;
	if (first == SYM_NONE) {
		/* first row at or after lo */
		size_t a = 0, b = cu->nrows;
		while (a < b) {
			size_t mid = a + (b - a) / 2;
			if (cu->row_addr[mid] < lo)
				a = mid + 1;
			else
				b = mid;
		}
		i = a;
	}
	for (; i < cu->nrows && cu->row_addr[i] < hi; i++) {
		if (cu->rows[i].end)
			continue;
		struct line_hit *h = vec_push(out);
		if (!h)
			return -1;
		uint64_t a = cu->row_addr[i] < lo ? lo : cu->row_addr[i];
		*h = (struct line_hit){ a, cu_file(cu, cu->rows[i].file), cu->rows[i].line, out->n };
	}
	return 0;
}

int symbolizer_lines(struct symbolizer *s, uint64_t lo, uint64_t hi,
		     void (*fn)(void *ctx, uint64_t addr, const char *file, unsigned line),
		     void *ctx)
{
	if (ensure_index(s) < 0)
		return -1;
	bool *want = calloc(s->ncus ? s->ncus : 1, sizeof(*want));
	if (!want)
		return -1;
	for (size_t k = 0; k < s->ncu_ranges; k++)
		if (s->cu_ranges[k].lo < hi && s->cu_ranges[k].hi > lo)
			want[s->cu_ranges[k].cu] = true;
	for (size_t k = 0; k < s->ncu_norange; k++)
		want[s->cu_norange[k]] = true;
	struct vec hits = { .elem = sizeof(struct line_hit) };
	int rc = 0;
	for (size_t i = 0; i < s->ncus && !rc; i++)
		if (want[i] && sym_cu_decode(s, &s->cus[i]) == 0)
			rc = collect_lines(&s->cus[i], lo, hi, &hits);
	free(want);
	struct line_hit *h = hits.data;
	if (!rc && hits.n) {
		qsort(h, hits.n, sizeof(*h), cmp_line_hit);
		for (size_t i = 0; i < hits.n; i++)
			fn(ctx, h[i].addr, h[i].file ? h[i].file : "??", h[i].line);
	}
	vec_free(&hits);
	return rc;
}
