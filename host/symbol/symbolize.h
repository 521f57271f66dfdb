/* SPDX-License-Identifier: BSD-2-Clause */
/* ELF + DWARF symbolizer (libelf for symbols and sections, libdw for units and DIEs, the
 * line programs decoded directly). Addresses are link-time addresses of the ELF (the caller
 * subtracts a load bias).
 *
 * libdw's per-address lookups are far too slow for profiles, so each CU's line table and
 * inline ranges are decoded once, on first need, into sorted arrays and looked up by binary
 * search. Frames agree with binutils `addr2line -f -i` (DWARF 4 and 5).
 */
#ifndef BMPROF_SYMBOLIZE_H
#define BMPROF_SYMBOLIZE_H

#include <stddef.h>
#include <stdint.h>

struct sym_frame {
	const char *function;   /* "??" if unknown */
	const char *file;       /* "??" if unknown; as addr2line prints it (DWARF name joined
				   with its directory and comp_dir) */
	unsigned line;          /* 0 if unknown */
	unsigned column;
	unsigned discriminator; /* innermost frame only; addr2line repeats it on every frame */
};

struct sym_result {
	uint64_t addr;
	uint32_t id;            /* dense: 0, 1, ... per distinct address looked up */
	const char *symbol;     /* ELF function symbol containing addr, NULL if none */
	uint64_t sym_start, sym_size;
	/* Innermost first, exactly what addr2line -f -i prints: function, then file:line
	 * (line 0 prints as "?"). When no line info exists, one frame names the symbol-table
	 * function addr2line falls back to. nframes 0: addr2line prints "??" and "??:0". */
	unsigned nframes;
	const struct sym_frame *frames;
};

struct symbolizer;

/* NULL on failure with a one-line reason in err naming the file (cannot open, not an ELF,
 * truncated, relocatable object). A stripped ELF opens: lookups then find nothing, and
 * symbolizer_has_symbols / symbolizer_has_dwarf say why. */
struct symbolizer *symbolizer_open(const char *elf_path, char *err, size_t errlen);
void symbolizer_close(struct symbolizer *s);
/* GNU build-id note descriptor; len 0 if the ELF has none. */
void symbolizer_build_id(const struct symbolizer *s, const uint8_t **id, size_t *len);
int symbolizer_has_dwarf(const struct symbolizer *s);
/* Without DWARF: why, in words ("it has no DWARF line information (build with -g)",
 * "its section names cannot be read (...)"); NULL with DWARF. */
const char *symbolizer_no_dwarf_why(const struct symbolizer *s);
/* Nonzero if the ELF has function symbols (0: stripped). */
int symbolizer_has_symbols(const struct symbolizer *s);
/* e_machine of the ELF (EM_X86_64, EM_AARCH64). */
int symbolizer_machine(const struct symbolizer *s);
/* Strings and frames in out stay valid until symbolizer_close. Results are cached: a repeated
 * address costs one hash probe and no allocation. Returns 0 (out filled, maybe with nothing
 * known) or -1 on error (out of memory). */
int symbolizer_lookup(struct symbolizer *s, uint64_t addr, struct sym_result *out);
/* The answer for addr (as symbolizer_lookup, but not cached: id is UINT32_MAX) and the end
 * of the span it holds for: every address in [addr, *until) has the same symbol and frames.
 * For resolving sorted addresses one span at a time. 0 or -1 (out of memory). */
int symbolizer_lookup_span(struct symbolizer *s, uint64_t addr, struct sym_result *out,
			   uint64_t *until);
/* Many at once: deduplicates and sorts internally; out[i] is for addrs[i]. */
int symbolizer_lookup_batch(struct symbolizer *s, const uint64_t *addrs, size_t n,
			    struct sym_result *out);
/* The same, giving each address its result id (sym_result.id) instead of a copy: for large
 * batches and for aggregating by result. 0 or -1. */
int symbolizer_lookup_ids(struct symbolizer *s, const uint64_t *addrs, size_t n,
			  uint32_t *ids);
/* The result with this id (from a lookup): 0, or -1 if no such id. */
int symbolizer_result(const struct symbolizer *s, uint32_t id, struct sym_result *out);
/* Function symbol by name (global before weak before local): 0 and start/size, or -1. */
int symbolizer_find_function(struct symbolizer *s, const char *name, uint64_t *start,
			     uint64_t *size);
/* The function a reader names name: the symbol itself, else the one symbol whose name
 * without a compiler clone suffix, or demangled (with or without its parameters), or as
 * shown ("foo [clone .constprop.0]") is name; of several such, the one that is not a
 * fragment (.cold, .part.N). 0 and the symbol's name (*sym, the symbolizer's), start and
 * size; -1 when none fits or the name is ambiguous. */
int symbolizer_find_function_like(struct symbolizer *s, const char *name, const char **sym,
				  uint64_t *start, uint64_t *size);
/* The function symbols by address (aliases merged, zero sizes extended to the next
 * symbol): how many, and the i-th's name, start and size (0, or -1 if i is out of range). */
size_t symbolizer_nfunctions(const struct symbolizer *s);
int symbolizer_function(const struct symbolizer *s, size_t i, const char **name,
			uint64_t *start, uint64_t *size);
/* Bytes at a link-time address from the ELF's allocated sections (zeros for .bss): 0 or -1. */
int symbolizer_read(struct symbolizer *s, uint64_t addr, void *buf, size_t len);
/* Whether every byte of [addr, addr + len) is one symbolizer_read takes from the file (not
 * a .bss zero): a length a damaged header makes up is found out before it is allocated. */
int symbolizer_in_file(struct symbolizer *s, uint64_t addr, uint64_t len);
/* A range of link-time addresses [lo, hi). */
struct sym_range {
	uint64_t lo, hi;
};
/* 32-bit Arm: the data inside code sections that overlaps [lo, hi) (literal pools, tbb/tbh
 * tables: each $d mapping symbol up to the next mapping symbol of its section, or its end),
 * clipped to it, in address order, into a malloc'd *out; the count (0 on other machines,
 * or an image without mapping symbols), or -1 out of memory. */
long symbolizer_data_ranges(struct symbolizer *s, uint64_t lo, uint64_t hi,
			    struct sym_range **out);
/* Each line-table row in [lo, hi): file, line and the address it starts at; a row that
 * starts before lo and covers it is reported at lo. For annotate. Calls fn in address
 * order. Returns 0 or -1. */
int symbolizer_lines(struct symbolizer *s, uint64_t lo, uint64_t hi,
		     void (*fn)(void *ctx, uint64_t addr, const char *file, unsigned line),
		     void *ctx);

#endif
