/* SPDX-License-Identifier: BSD-2-Clause */
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
 *   FLAT_BY_CPU       the CPU, then the function as FLAT_BY_FUNCTION: one row per
 *                     (cpu, function)
 *   FLAT_BY_MODULE    where the code is: one row for the image (outside 0, symbol NULL:
 *                     the caller names it), one per firmware module (symbol and module:
 *                     its name), one per firmware region nothing names
 * A pc outside the image (flat_pcinfo.outside: firmware code) never joins an image row:
 * symbolized against a firmware module, it groups as above, apart from the image's and
 * other modules' rows; with no symbol, FLAT_BY_FUNCTION, FLAT_BY_LINE and FLAT_BY_CPU group
 * it by its FLAT_REGION_SIZE page (a firmware region: EDK2 loads modules at page-aligned
 * addresses, so a page is never shared by two of them).
 * Rows are sorted by samples, descending; ties by key (name, then address / file, line),
 * with [unknown] last among equals, so the order is the same on every run. FLAT_BY_CPU
 * rows are sorted by CPU first, then so.
 *
 * Every row also says how its samples split over the CPUs (per_cpu), and the result has
 * the samples of each CPU (cpus).
 */
#ifndef BMPROF_FLAT_H
#define BMPROF_FLAT_H

#include <stddef.h>
#include <stdint.h>
#include "profile.h"

/* The address window samples outside the image are grouped by when nothing names them. */
#define FLAT_REGION_SIZE 0x1000u

/* What the caller knows about one sampled pc, or about every sampled pc in [pc, pc_last]
 * when they all have the same symbol, function, file and line and lie at the same distance
 * from their link-time addresses (a pc' of the range is at addr + (pc' - pc)). Strings are
 * borrowed, not copied: they must outlive the flat_result built from them. */
struct flat_pcinfo {
	uint64_t pc;            /* as in the profile (runtime address) */
	uint64_t addr;          /* link-time address in the ELF (pc - load bias) */
	const char *symbol;     /* ELF symbol containing addr; NULL if none */
	uint64_t sym_lo, sym_hi;   /* its link-time range [lo, hi) */
	const char *function;   /* innermost (possibly inlined) function from DWARF; NULL: symbol */
	const char *file;       /* innermost source file; NULL if unknown */
	unsigned line;          /* 0 if unknown */
	int outside;            /* pc is outside the image's loaded range (firmware) */
	const char *module;     /* outside: the firmware module it was symbolized with, or NULL;
				   addr, symbol, sym_lo/hi are then that module's (link-time) */
	uint64_t pc_last;       /* the last sampled pc it stands for; below pc (0): pc alone */
};

enum flat_sort { FLAT_BY_FUNCTION, FLAT_BY_LINE, FLAT_BY_ADDRESS, FLAT_BY_CPU, FLAT_BY_MODULE };

/* Samples on one CPU. */
struct flat_cpu_samples {
	uint16_t cpu;
	uint64_t samples;
};

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
	int outside;            /* the row is code outside the image (firmware) */
	const char *module;     /* outside rows: the firmware module, NULL if none */
	/* outside rows without a symbol: the FLAT_REGION_SIZE page of their pcs (runtime
	 * addresses), [lo, hi); 0 otherwise. Their addr_lo/hi are the sampled pcs. */
	uint64_t region_lo, region_hi;
	uint64_t line_samples;  /* function and cpu rows: samples on the hottest line */
	int cpu;                /* cpu rows: the CPU; -1 for the other sorts */
	double cpu_percent;     /* cpu rows: of that CPU's samples */
	/* The row's samples per CPU: one entry per CPU with samples in the row, by CPU
	 * ascending; they add up to samples. Points into the flat_result. */
	const struct flat_cpu_samples *per_cpu;
	size_t nper_cpu;
};

struct flat_result {
	struct flat_row *rows;
	size_t nrows;
	uint64_t total;         /* samples counted (all rows together) */
	uint64_t outside;       /* of them, at pcs outside the image */
	uint64_t outside_symbolized;   /* of those, in a symbol of a firmware module */
	struct flat_cpu_samples *cpus;   /* samples per CPU, by CPU ascending (CPUs with any) */
	size_t ncpus;
	struct flat_cpu_samples *split;  /* private: the rows' per_cpu entries */
};

/* Event filter for flat_compute: every event. */
#define FLAT_ALL_EVENTS (-1)

/* Samples of event `event` (or FLAT_ALL_EVENTS) grouped by `sort`. info must be sorted by pc
 * with ranges apart; a sampled pc no entry stands for counts as unresolved ([unknown]).
 * One pass over the samples in pc order (a settled profile's own order) groups them in
 * stretches that share a row, so the memory taken grows with the rows, not the pcs.
 * Returns 0, or -1 if out of memory (res is then empty). */
int flat_compute(const struct profile *p, int event, const struct flat_pcinfo *info,
		 size_t ninfo, enum flat_sort sort, struct flat_result *res);
void flat_free(struct flat_result *res);
/* The samples of cpu in res (0 if it has none). */
uint64_t flat_cpu_total(const struct flat_result *res, unsigned cpu);

/* Module rows (FLAT_BY_MODULE) from a table by function: the image's rows summed into one,
 * each firmware module's into one, each region nothing names kept as it is. 0, or -1 if
 * out of memory (out is then empty). */
int flat_by_module(const struct flat_result *fn, struct flat_result *out);

/* A second level of order (report --sort module,function): rows grouped by what they are
 * in, the groups hottest first (ties: image first, then by name), the rows of a group in
 * the order they had. */
enum flat_group { FLAT_GROUP_MODULE, FLAT_GROUP_FUNCTION };
/* perm[i]: the index in res->rows of the row to show i-th. 0, or -1 if out of memory. */
int flat_group_order(const struct flat_result *res, enum flat_group key, size_t *perm);
/* Put rows[0..n) in the order perm gives. 0, or -1 if out of memory. */
int flat_permute(struct flat_row *rows, size_t n, const size_t *perm);

/* The event a report is about when none is named: FLAT_ALL_EVENTS when the profile has at
 * most one event; else the first event the target described that has samples, or the first
 * event when none has. */
int flat_default_event(const struct profile *p);

/* The entry of info[0..n) (as flat_compute takes it) that stands for pc, or NULL. */
const struct flat_pcinfo *flat_info_find(const struct flat_pcinfo *info, size_t n, uint64_t pc);
/* The link-time address of pc, one of the pcs in stands for. */
static inline uint64_t flat_info_addr(const struct flat_pcinfo *in, uint64_t pc)
{
	return pc - (in->pc - in->addr);
}

/* The distinct pcs of a profile's samples, sorted ascending, for the caller to resolve.
 * Returns the count (malloc'd array in *out, NULL when 0), or -1 if out of memory. */
long flat_distinct_pcs(const struct profile *p, uint64_t **out);

#endif
