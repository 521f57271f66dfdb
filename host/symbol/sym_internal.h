/* SPDX-License-Identifier: BSD-2-Clause */
/* Internal state of the symbolizer, shared by host/sym_*.c and host/symbol/symbolize.c. */
#ifndef BMPROF_SYM_INTERNAL_H
#define BMPROF_SYM_INTERNAL_H

#include <elfutils/libdw.h>
#include <gelf.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbol/symbolize.h"

#define SYM_NONE UINT32_MAX

/* Bump allocator: everything the symbolizer hands out lives until symbolizer_close. */
struct arena_chunk;
struct arena {
	struct arena_chunk *head;
	pthread_mutex_t *lock;  /* set while several threads allocate */
};
void *arena_alloc(struct arena *a, size_t n);
/* Move src's memory into dst (src is then empty): what a thread allocated on its own. */
void arena_adopt(struct arena *dst, struct arena *src);
char *arena_strdup(struct arena *a, const char *s);
char *arena_join(struct arena *a, const char *dir, const char *name);
void arena_free(struct arena *a);

/* Open-addressing map from 64-bit keys to 32-bit values (key and value side by side: one
 * cache miss per probe). */
struct u64map_entry {
	uint64_t key;
	uint32_t val;
};
struct u64map {
	struct u64map_entry *e;
	size_t cap, n;
	bool has_max;           /* UINT64_MAX marks empty slots; its value is kept aside */
	uint32_t max_val;
};
uint32_t *u64map_find(struct u64map *m, uint64_t key);
/* The slot for key, inserted with value SYM_NONE if absent; NULL when out of memory. */
uint32_t *u64map_slot(struct u64map *m, uint64_t key);
void u64map_remove(struct u64map *m, uint64_t key);
void u64map_free(struct u64map *m);

/* Growable array of fixed-size elements. */
struct vec {
	void *data;
	size_t n, cap, elem;
};
void *vec_grow_push(struct vec *v);
void vec_free(struct vec *v);

/* Room for one more element at the end: a pointer to it, NULL when out of memory. */
static inline void *vec_push(struct vec *v)
{
	if (v->n < v->cap)
		return (char *)v->data + v->elem * v->n++;
	return vec_grow_push(v);
}

/* Little- or big-endian reader over a bounded buffer; out-of-range reads set err. Inline:
 * the DIE and line-program decoders spend most of their time here. */
struct rd {
	const uint8_t *p, *end;
	bool be, err;
};

/* Bytes left; 0 if p has run past end. */
static inline size_t rd_left(const struct rd *r)
{
	return r->p < r->end ? (size_t)(r->end - r->p) : 0;
}

static inline uint64_t rd_uN(struct rd *r, unsigned n)
{
	if (r->err || rd_left(r) < n) {
		r->err = true;
		return 0;
	}
	uint64_t v = 0;
	if (r->be)
		for (unsigned i = 0; i < n; i++)
			v = v << 8 | r->p[i];
	else
		for (unsigned i = n; i-- > 0;)
			v = v << 8 | r->p[i];
	r->p += n;
	return v;
}

static inline uint64_t rd_uleb(struct rd *r)
{
	if (r->p < r->end && !(*r->p & 0x80))
		return *r->p++;
	uint64_t v = 0;
	unsigned sh = 0;
	while (r->p < r->end) {
		uint8_t b = *r->p++;
		if (sh < 64)
			v |= (uint64_t)(b & 0x7f) << sh;
		sh += 7;
		if (!(b & 0x80))
			return v;
	}
	r->err = true;
	return 0;
}

static inline int64_t rd_sleb(struct rd *r)
{
	uint64_t v = 0;
	unsigned sh = 0;
	while (r->p < r->end) {
		uint8_t b = *r->p++;
		if (sh < 64)
			v |= (uint64_t)(b & 0x7f) << sh;
		sh += 7;
		if (!(b & 0x80)) {
			if (sh < 64 && (b & 0x40))
				v |= ~(uint64_t)0 << sh;
			return (int64_t)v;
		}
	}
	r->err = true;
	return 0;
}

static inline void rd_skip(struct rd *r, uint64_t n)
{
	if (r->err || rd_left(r) < n) {
		r->err = true;
		return;
	}
	r->p += n;
}

const char *rd_cstr(struct rd *r);

struct sym_section {
	uint64_t addr, size, offset;
	uint64_t flags;
	uint32_t type;
	size_t index;
	const char *name;
};

/* A 32-bit Arm mapping symbol (sym_armmap.c): kind 'a', 't' or 'd' from addr on, in the
 * section with header index shndx, which ends at sec_end. */
struct sym_armmap {
	uint64_t addr, sec_end;
	size_t shndx;
	char kind;
};

int sym_armmap_kind(const char *name);
int sym_armmap_add(struct symbolizer *s, uint64_t addr, uint64_t sec_end, size_t shndx,
		   int kind);

/* A sized function symbol (zero sizes extended to the next symbol). */
struct sym_func {
	uint64_t addr, size;
	const char *name;
};

/* A code symbol for lookups by name: global before weak before local, then table order. */
struct sym_named {
	struct sym_func f;
	int rank;
	uint32_t order;
};

/* A candidate for addr2line's symbol-table fallback (binutils elf_find_function). */
struct sym_fallback {
	uint64_t addr, size;    /* size 0 in the ELF counts as 1 */
	const char *name;
	const char *file;       /* the STT_FILE name addr2line would print, or NULL */
	uint32_t shndx;
	uint32_t order;         /* position in the symbol table */
};

/* One row of a CU's merged line table; addresses are kept in a separate array. */
struct sym_row {
	uint32_t line;
	uint32_t file;          /* index into sym_cu.files */
	uint32_t discr;
	uint16_t column;
	uint16_t end;           /* 1: end of a sequence, no line here */
};

/* A function or inlined-function DIE of a CU, in DIE order. */
struct sym_fn {
	const char *name;       /* as addr2line prints it, NULL if unknown */
	uint32_t parent;        /* enclosing function DIE (for inlined instances), SYM_NONE */
	uint32_t call_file;     /* index into sym_cu.files, SYM_NONE if absent */
	uint32_t call_line, call_column;
	bool inlined;
	bool linkage;           /* name is a linkage name (addr2line's is_linkage) */
};

struct sym_cu {
	Dwarf_Off die_off;
	const char *comp_dir;
	int lang;
	bool has_stmt;
	uint64_t stmt_off;
	int decoded;            /* 0 not yet, 1 done, -1 failed */

	/* unit header and base attributes, for the direct DIE scanner */
	uint64_t unit_off, unit_end, abbrev_off;
	unsigned version, addr_size, offset_size;
	uint64_t base_addr, rnglists_base, addr_base, str_offsets_base;

	const char **files;     /* path per line-table file index, as addr2line forms it */
	size_t nfiles;

	uint64_t *row_addr;     /* sorted; the last row at or below an address applies */
	struct sym_row *rows;
	size_t nrows;

	struct sym_fn *fns;
	size_t nfns;
	uint64_t *seg_addr;     /* elementary intervals and their best-fit function */
	uint32_t *seg_fn;
	size_t nsegs;
};

/* Buffers a decoding thread reuses from CU to CU. */
struct sym_scratch {
	struct vec rows, seqs;
};

struct sym_cu_range {
	uint64_t lo, hi;
	uint32_t cu;
};

struct symbolizer {
	int fd;
	Elf *elf;
	Dwarf *dw;
	char no_dwarf[200];             /* why there is no DWARF, when dw is NULL */
	bool bad_shstrtab;              /* e_shstrndx names no section-name string table */
	int machine;
	bool be;
	struct arena arena;

	uint8_t build_id[64];
	size_t build_id_len;

	struct sym_section *secs;
	size_t nsecs;
	/* The allocated sections cut at every start and end into intervals, each with the
	 * section sym_section_at gives there (the first in header order; NULL: none):
	 * interval i is [sec_iv_lo[i], sec_iv_lo[i + 1]). */
	uint64_t *sec_iv_lo;
	const struct sym_section **sec_iv;
	size_t nsec_iv;

	struct sym_func *funcs;         /* sorted by address */
	size_t nfuncs;
	struct sym_named *byname;       /* every code symbol; sorted by name on first use */
	size_t nbyname;
	bool byname_sorted;
	struct sym_fallback *fb;        /* sorted by (shndx, addr, order) */
	size_t nfb;
	struct sym_armmap *armmap;      /* EM_ARM mapping symbols; sorted by (shndx, addr) on
					   first use */
	size_t narmmap, carmmap;
	bool armmap_sorted;

	/* DWARF sections read directly. */
	const uint8_t *debug_line, *debug_line_str, *debug_str;
	size_t debug_line_len, debug_line_str_len, debug_str_len;
	const uint8_t *debug_info, *debug_abbrev, *debug_ranges, *debug_rnglists, *debug_addr,
		*debug_str_offsets;
	size_t debug_info_len, debug_abbrev_len, debug_ranges_len, debug_rnglists_len,
		debug_addr_len, debug_str_offsets_len;
	bool no_scan;                    /* use the libdw walk only (tests compare both) */
	size_t slice_min;                /* new addresses per resolving thread (0: default;
					    tests make it small) */
	struct u64map abbrev_cache;      /* .debug_abbrev offset -> index into abbrevs */
	struct vec abbrevs;              /* struct sym_abbrev_table * */

	struct sym_cu *cus;
	size_t ncus;
	struct sym_cu_range *cu_ranges;  /* sorted by lo */
	uint64_t *cu_range_maxhi;        /* running maximum of hi, to bound overlap scans */
	size_t ncu_ranges;
	/* The CU ranges cut at every range start and end into intervals, each with the CUs
	 * whose ranges hold it as addr2line tries them (unit order, at most
	 * SYM_MAX_CANDIDATES): interval i is [cu_iv_lo[i], cu_iv_lo[i + 1]), its CUs
	 * cu_iv_cus[cu_iv_first[i] .. cu_iv_first[i + 1]). */
	uint64_t *cu_iv_lo;
	uint32_t *cu_iv_first, *cu_iv_cus;
	size_t ncu_iv;
	uint32_t *cu_norange;            /* CUs without address ranges, tried last */
	size_t ncu_norange;
	bool cus_indexed;

	struct u64map name_cache;        /* DIE offset -> index into names */
	struct vec names;                /* struct fn_name */

	struct sym_scratch scratch;      /* the calling thread's decoder buffers */
	/* While CUs decode on several threads: shared tables, libdw and the arena are used
	 * under lock (recursive: name lookups happen inside the locked libdw walk). */
	bool parallel;
	pthread_mutex_t lock;

	struct u64map cache;             /* address -> index into results (single lookups) */
	struct sym_run { uint32_t first; size_t n; } *runs;   /* batches: results[first..+n)
							  in address order */
	size_t nruns;
	struct vec results;              /* struct sym_result */
};

/* sym_elf.c */
/* Before libelf sees the file: a regular file, ELF magic, headers within the file. */
int sym_elf_check(int fd, char *err, size_t errlen);
int sym_elf_load(struct symbolizer *s, char *err, size_t errlen);
const struct sym_section *sym_section_at(const struct symbolizer *s, uint64_t addr);
/* The end of the interval of sections holding addr: where sym_section_at may change. */
uint64_t sym_section_span_end(const struct symbolizer *s, uint64_t addr);
const struct sym_func *sym_func_at(const struct symbolizer *s, uint64_t addr);
/* addr2line's symbol-table answer for addr in section shndx, or NULL. */
const struct sym_fallback *sym_fallback_at(const struct symbolizer *s, uint64_t addr,
					   size_t shndx);
const uint8_t *sym_section_data(struct symbolizer *s, const char *name, size_t *len);
/* The preferred code symbol of this name, or NULL. */
const struct sym_func *sym_func_named(struct symbolizer *s, const char *name);

static inline void sym_lock(struct symbolizer *s)
{
	if (s->parallel)
		pthread_mutex_lock(&s->lock);
}

static inline void sym_unlock(struct symbolizer *s)
{
	if (s->parallel)
		pthread_mutex_unlock(&s->lock);
}

/* sym_line.c: decode a CU's line table into files/rows. */
int sym_line_decode(struct symbolizer *s, struct sym_cu *cu, struct sym_scratch *scr);
/* Index of the row covering addr, or SYM_NONE. */
uint32_t sym_line_find(const struct sym_cu *cu, uint64_t addr);

/* An address range of a function DIE (index into the CU's functions). */
struct fn_range {
	uint64_t lo, hi;
	uint32_t fn;
};

/* Where a function DIE's name comes from. */
struct fn_name {
	const char *name;
	bool linkage;
};

/* sym_die.c: index the CUs; decode a CU's function DIEs (direct scan, libdw as fallback). */
int sym_cu_index(struct symbolizer *s);
int sym_die_decode(struct symbolizer *s, struct sym_cu *cu);
/* libdw walk of a CU's function DIEs into fns/ranges. */
int sym_die_walk(struct symbolizer *s, struct sym_cu *cu, struct vec *fns, struct vec *ranges);
/* Name of the function described by the DIE at a .debug_info offset (through
 * abstract_origin / specification), cached. */
struct fn_name sym_die_name_at(struct symbolizer *s, const struct sym_cu *cu, uint64_t off);
/* Whether addr2line takes DW_AT_name as the linkage name in this language. */
bool sym_plain_names(int lang);

/* sym_scan.c: direct scan of a CU's DIEs; -1 if it meets something it does not handle. */
int sym_scan_cu(struct symbolizer *s, struct sym_cu *cu, struct vec *fns, struct vec *ranges);

/* sym_sort.c */
struct sym_key {
	uint64_t key;
	uint32_t val;
};
void sym_sort_u64(uint64_t *a, size_t n);
void sym_sort_keys(struct sym_key *a, size_t n);
/* By (lo, fn); a must list each function's ranges in function order, as the walks do. */
void sym_sort_ranges(struct fn_range *a, size_t n);
/* Best-fit function DIE for addr (addr2line's rule), or SYM_NONE. */
uint32_t sym_die_find(const struct sym_cu *cu, uint64_t addr);
/* sym_cuiv.c: the CUs to try for addr, in addr2line's order (CUs whose ranges hold it in
 * unit order, then those without ranges); at most max. */
#define SYM_MAX_CANDIDATES 64
size_t sym_candidate_cus(const struct symbolizer *s, uint64_t addr, uint32_t *out, size_t max);
/* Build the intervals of the CU ranges (after sym_cu_index sorted them). 0 or -1. */
int sym_cu_intervals(struct symbolizer *s);
/* Where the CUs to try for addr may change: the end of its interval. */
uint64_t sym_cu_span_end(const struct symbolizer *s, uint64_t addr);
/* Interval i of sorted boundaries lo[0..n) holding addr: the last lo at or below it, or
 * SIZE_MAX when addr is below them all. */
size_t sym_interval(const uint64_t *lo, size_t n, uint64_t addr);
/* sym_span.c: the end of the span from addr over which lookups give addr's answer (the
 * CUs the lookup of addr tried must have been decoded by it). */
uint64_t sym_span_end(struct symbolizer *s, uint64_t addr);
/* symbolize.c: an answer's frames: from DWARF (line row li, function DIE fi of cu), or
 * the symbol table's name addr2line falls back to. Frames in arena a. 0 or -1. */
int sym_dwarf_frames(struct symbolizer *s, struct arena *a, const struct sym_cu *cu,
		     uint32_t li, uint32_t fi, uint64_t addr, const struct sym_section *sec,
		     struct sym_result *r);
int sym_symtab_frame(struct symbolizer *s, struct arena *a, uint64_t addr,
		     const struct sym_section *sec, struct sym_result *r);

/* sym_walk.c: answers for addresses in increasing order, with cursors into the sorted
 * tables that only move forward: each address costs a few steps, and one with the makings
 * of the last answer shares its frames. The CUs the addresses need must be decoded. */
struct sym_walk {
	size_t fn, sec, cuiv;
	uint32_t cand[SYM_MAX_CANDIDATES];   /* the CUs to try in interval cuiv */
	size_t ncand;
	int have_cand;
	size_t *row, *seg;               /* per CU */
	const struct sym_cu *cu;         /* the last DWARF answer, when its frames can be shared */
	uint32_t li, fi;
	const struct sym_section *last_sec;
	unsigned nframes;
	const struct sym_frame *frames;
};
int sym_walk_init(struct sym_walk *w, const struct symbolizer *s);
void sym_walk_free(struct sym_walk *w);
/* The answer for addr (not below the last one) into r, whose addr and id are set. */
int sym_walk_answer(struct symbolizer *s, struct sym_walk *w, struct arena *a, uint64_t addr,
		    struct sym_result *r);

/* sym_decode.c: ensure a CU is decoded: 0 or -1. */
int sym_cu_decode(struct symbolizer *s, struct sym_cu *cu);
/* Decode the listed CUs, on several threads when there are enough of them. */
void sym_decode_cus(struct symbolizer *s, const uint32_t *cus, size_t n);

#endif
