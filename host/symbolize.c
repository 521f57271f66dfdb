/* The symbolizer's public API: opening an ELF, per-address lookups with a result cache,
 * batches, and the helpers annotate needs (function by name, bytes, line rows). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sym_internal.h"
#include "util.h"

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
	free(s->cus);
	free(s->cu_ranges);
	free(s->cu_range_maxhi);
	free(s->cu_norange);
	u64map_free(&s->name_cache);
	u64map_free(&s->abbrev_cache);
	vec_free(&s->abbrevs);
	vec_free(&s->names);
	vec_free(&s->scratch.rows);
	vec_free(&s->scratch.seqs);
	pthread_mutex_destroy(&s->lock);
	u64map_free(&s->cache);
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

size_t sym_candidate_cus(const struct symbolizer *s, uint64_t addr, uint32_t *out, size_t max)
{
	size_t lo = 0, hi = s->ncu_ranges, n = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->cu_ranges[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t j = lo; j-- > 0 && s->cu_range_maxhi[j] > addr;) {
		const struct sym_cu_range *r = &s->cu_ranges[j];
		if (addr >= r->hi || n == max)
			continue;
		bool dup = false;
		for (size_t k = 0; k < n; k++)
			dup |= out[k] == r->cu;
		if (!dup)
			out[n++] = r->cu;
	}
	/* insertion sort by unit order; n is tiny */
	for (size_t i = 1; i < n; i++)
		for (size_t k = i; k > 0 && out[k - 1] > out[k]; k--) {
			uint32_t t = out[k];
			out[k] = out[k - 1];
			out[k - 1] = t;
		}
	for (size_t i = 0; i < s->ncu_norange && n < max; i++)
		out[n++] = s->cu_norange[i];
	return n;
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
static int symtab_frame(struct symbolizer *s, uint64_t addr, const struct sym_section *sec,
			struct sym_result *r)
{
	const struct sym_fallback *fb = sym_fallback_at(s, addr, sec->index);
	if (!fb)
		return 0;
	struct sym_frame *f = arena_alloc(&s->arena, sizeof(*f));
	if (!f)
		return -1;
	*f = (struct sym_frame){ fb->name[0] ? fb->name : "??", fb->file ? fb->file : "??", 0, 0,
				 0 };
	r->frames = f;
	r->nframes = 1;
	return 0;
}

/* The innermost function (line row li, function DIE fi) and its inlining callers. */
static int dwarf_frames(struct symbolizer *s, const struct sym_cu *cu, uint32_t li, uint32_t fi,
			uint64_t addr, const struct sym_section *sec, struct sym_result *r)
{
	unsigned n = 1;
	for (uint32_t x = fi; x != SYM_NONE && cu->fns[x].inlined && cu->fns[x].parent != SYM_NONE;
	     x = cu->fns[x].parent)
		n++;
	struct sym_frame *f = arena_alloc(&s->arena, n * sizeof(*f));
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
static int resolve_frames(struct symbolizer *s, uint64_t addr, struct sym_result *r)
{
	const struct sym_section *sec = sym_section_at(s, addr);
	if (!sec)
		return 0;
	if (ensure_index(s) < 0)
		return -1;
	uint32_t li = SYM_NONE, fi = SYM_NONE;
	const struct sym_cu *cu = find_cu(s, addr, &li, &fi);
	return cu ? dwarf_frames(s, cu, li, fi, addr, sec, r) : symtab_frame(s, addr, sec, r);
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

/* The answer for addr into r (frames in the arena). */
static int answer(struct symbolizer *s, uint64_t addr, struct sym_result *r)
{
	const struct sym_func *fn = sym_func_at(s, addr);
	if (fn) {
		r->symbol = fn->name;
		r->sym_start = fn->addr;
		r->sym_size = fn->size;
	}
	return resolve_frames(s, addr, r);
}

/* Fill result id for addr (passed in: reading the result first would be a cache miss). */
static int resolve(struct symbolizer *s, uint32_t id, uint64_t addr)
{
	struct sym_result r = { .addr = addr, .id = id };
	if (answer(s, addr, &r) < 0)
		return -1;
	((struct sym_result *)s->results.data)[id] = r;
	return 0;
}

int symbolizer_lookup_span(struct symbolizer *s, uint64_t addr, struct sym_result *out,
			   uint64_t *until)
{
	*out = (struct sym_result){ .addr = addr, .id = SYM_NONE };
	if (answer(s, addr, out) < 0)
		return -1;
	*until = sym_span_end(s, addr);
	return 0;
}

/* The cache maps each address looked up to its result id. */
static int lookup_one(struct symbolizer *s, uint64_t addr, uint32_t *id)
{
	uint32_t *slot = u64map_find(&s->cache, addr);
	if (slot) {
		*id = *slot;
		return 0;
	}
	slot = u64map_slot(&s->cache, addr);
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

/* Decode, in parallel, the CUs whose ranges hold any of the n sorted new addresses. */
static int decode_needed(struct symbolizer *s, const struct sym_key *k, size_t n)
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
			if (k[mid].key < r->lo)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < n && k[lo].key < r->hi && !want[r->cu] && !s->cus[r->cu].decoded) {
			want[r->cu] = true;
			list[nl++] = r->cu;
		}
	}
	sym_decode_cus(s, list, nl);
	free(want);
	free(list);
	return 0;
}

/* Undo a failed batch: results from first on were added by it. */
static void drop_results(struct symbolizer *s, size_t first, const struct sym_key *k, size_t n)
{
	for (size_t i = 0; i < n; i++)
		u64map_remove(&s->cache, k[i].key);
	s->results.n = first;
}

int symbolizer_lookup_ids(struct symbolizer *s, const uint64_t *addrs, size_t n,
			  uint32_t *ids)
{
	/* New addresses are numbered in order of appearance, then sorted, given ids in
	 * address order and resolved in that order: each CU is decoded once, its tables stay
	 * warm, and results sit in memory in the order they are filled. */
	size_t first = s->results.n;
	struct vec miss = { .elem = sizeof(struct sym_key) };
	uint32_t *rank = NULL;
	int rc = -1;
	for (size_t i = 0; i < n; i++) {
		if (i + 16 < n)
			u64map_prefetch(&s->cache, addrs[i + 16]);
		uint32_t *slot = u64map_slot(&s->cache, addrs[i]);
		if (!slot)
			goto fail;
		if (*slot == SYM_NONE) {
			struct sym_key *k = first + miss.n < SYM_NONE - 1 ? vec_push(&miss) : NULL;
			if (!k) {
				u64map_remove(&s->cache, addrs[i]);
				goto fail;
			}
			*k = (struct sym_key){ addrs[i], (uint32_t)(miss.n - 1) };
			*slot = (uint32_t)(first + miss.n - 1);
		}
		ids[i] = *slot;
	}
	struct sym_key *k = miss.data;
	rank = malloc((miss.n ? miss.n : 1) * sizeof(*rank));
	if (!rank)
		goto fail;
	sym_sort_keys(k, miss.n);
	for (size_t r = 0; r < miss.n; r++) {
		uint32_t id = new_result(s, k[r].key);
		if (id == SYM_NONE)
			goto fail;
		rank[k[r].val] = id;
		if (r + 16 < miss.n)
			u64map_prefetch(&s->cache, k[r + 16].key);
		*u64map_find(&s->cache, k[r].key) = id;
	}
	for (size_t i = 0; i < n; i++)
		if (ids[i] >= first)
			ids[i] = rank[ids[i] - first];
	if (decode_needed(s, k, miss.n) < 0)
		goto fail;
	for (size_t r = 0; r < miss.n; r++)
		if (resolve(s, (uint32_t)(first + r), k[r].key) < 0)
			goto fail;
	rc = 0;
	goto out;
fail:
	drop_results(s, first, miss.data, miss.n);
out:
	free(rank);
	vec_free(&miss);
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

int symbolizer_read(struct symbolizer *s, uint64_t addr, void *buf, size_t len)
{
	size_t fsize;
	const uint8_t *file = (const uint8_t *)elf_rawfile(s->elf, &fsize);
	uint8_t *dst = buf;
	while (len) {
		const struct sym_section *hit = NULL;
		for (size_t i = 0; i < s->nsecs && !hit; i++) {
			const struct sym_section *sec = &s->secs[i];
			if ((sec->flags & SHF_ALLOC) && !(sec->flags & SHF_TLS) &&
			    addr >= sec->addr && addr - sec->addr < sec->size)
				hit = sec;
		}
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
