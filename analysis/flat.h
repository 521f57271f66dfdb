/* Flat profile: a profile's samples grouped by function, source line or address, with
 * percentages, sorted hottest first. No I/O: the caller resolves every distinct sampled pc
 * (symbolizer, DWARF) and passes what it found as an array of struct flat_pcinfo.
 *
 * Grouping keys:
 *   FLAT_BY_FUNCTION  the ELF symbol containing the pc (name and start address, so two
 *                     static functions of the same name stay apart); every pc with no symbol
 *                     goes to one [unknown] row
 *   FLAT_BY_LINE      the innermost source line (file, line) and the function it belongs to
 *                     (inlined code is charged to the line it came from)
 *   FLAT_BY_ADDRESS   the pc itself
 * Rows are sorted by samples, descending; ties by key (name, then address / file, line),
 * with [unknown] last among equals, so the order is the same on every run.
 */
#ifndef BMPROF_FLAT_H
#define BMPROF_FLAT_H

#include <stddef.h>
#include <stdint.h>
#include "profile.h"

/* What the caller knows about one sampled pc. Strings are borrowed, not copied: they must
 * outlive the flat_result built from them. */
struct flat_pcinfo {
	uint64_t pc;            /* as in the profile (runtime address) */
	uint64_t addr;          /* link-time address in the ELF (pc - load bias) */
	const char *symbol;     /* ELF symbol containing addr; NULL if none */
	uint64_t sym_lo, sym_hi;   /* its link-time range [lo, hi) */
	const char *function;   /* innermost (possibly inlined) function from DWARF; NULL: symbol */
	const char *file;       /* innermost source file; NULL if unknown */
	unsigned line;          /* 0 if unknown */
};

enum flat_sort { FLAT_BY_FUNCTION, FLAT_BY_LINE, FLAT_BY_ADDRESS };

struct flat_row {
	uint64_t samples;
	double percent;         /* of flat_result.total */
	const char *symbol;     /* ELF symbol; NULL for [unknown] */
	const char *function;   /* line rows: the (inlined) function of the line; else symbol */
	const char *file;       /* function rows: the hottest line's; NULL if unknown */
	unsigned line;
	/* Link-time addresses, [lo, hi). Function rows: the symbol's range, or for [unknown]
	 * the sampled addresses; line rows: the sampled addresses of the line (hi = last + 1);
	 * address rows: the address (hi = addr + 1). */
	uint64_t addr_lo, addr_hi;
	uint64_t offset;        /* address rows: addr_lo - symbol start */
	uint64_t line_samples;  /* function rows: samples on the hottest line */
};

struct flat_result {
	struct flat_row *rows;
	size_t nrows;
	uint64_t total;         /* samples counted (all rows together) */
};

/* Event filter for flat_compute: every event. */
#define FLAT_ALL_EVENTS (-1)

/* Samples of event `event` (or FLAT_ALL_EVENTS) grouped by `sort`. info must be sorted by pc
 * with unique pcs; a sampled pc missing from it counts as unresolved ([unknown]).
 * Returns 0, or -1 if out of memory (res is then empty). */
int flat_compute(const struct profile *p, int event, const struct flat_pcinfo *info,
		 size_t ninfo, enum flat_sort sort, struct flat_result *res);
void flat_free(struct flat_result *res);

/* The distinct pcs of a profile's samples, sorted ascending, for the caller to resolve.
 * Returns the count (malloc'd array in *out, NULL when 0), or -1 if out of memory. */
long flat_distinct_pcs(const struct profile *p, uint64_t **out);

#endif
